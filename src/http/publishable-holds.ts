/**
 * What the transports give checkout to bound a publishable key's holds (src/domain/checkout/hold-budget.ts):
 * the caller's address, as the rate limit takes it, and the settings from the configuration.
 */
import { normalizeIP } from '@fastify/rate-limit';
import { DEVELOPMENT_ENCRYPTION_KEY, type Config } from '../config.ts';
import { keyring } from '../domain/shared/encryption.ts';
import { publishableHoldDefaults, type PublishableHoldSettings } from '../domain/checkout/hold-budget.ts';

export type PublishableHoldConfig = Partial<
  Pick<Config, 'PUBLISHABLE_HOLD_PLACES_PER_CLIENT' | 'PUBLISHABLE_HOLD_TTL_SECONDS' | 'ENCRYPTION_KEYS'>
>;

/**
 * The client's address: `request.ip` is the proxy header's address only when TRUST_PROXY trusts the peer
 * (src/http/server-options.ts), and an IPv6 client is its /64, as for the rate limit, since one client
 * holds a whole /64 and could rotate within it.
 */
export function clientAddress(request: { ip: string }): string {
  return normalizeIP(request.ip, 64);
}

/** Every gateway of one database keys the client HMAC with the newest encryption key, so they count the same clients. */
export function publishableHoldSettings(config: PublishableHoldConfig): PublishableHoldSettings {
  return {
    placesPerClient: config.PUBLISHABLE_HOLD_PLACES_PER_CLIENT ?? publishableHoldDefaults.placesPerClient,
    ttlSeconds: config.PUBLISHABLE_HOLD_TTL_SECONDS ?? publishableHoldDefaults.ttlSeconds,
    clientKey: keyring(config.ENCRYPTION_KEYS ?? [DEVELOPMENT_ENCRYPTION_KEY])[0],
  };
}
