/**
 * What the transports give checkout to bound a publishable key's holds (src/domain/checkout/hold-budget.ts):
 * the settings from the configuration (the caller's address is client-address.ts's).
 */
import { DEVELOPMENT_ENCRYPTION_KEY, type Config } from '../config.ts';
import { keyring } from '../domain/shared/encryption.ts';
import { publishableHoldDefaults, type PublishableHoldSettings } from '../domain/checkout/hold-budget.ts';

export type PublishableHoldConfig = Partial<
  Pick<Config, 'PUBLISHABLE_HOLD_PLACES_PER_CLIENT' | 'PUBLISHABLE_HOLD_TTL_SECONDS' | 'ENCRYPTION_KEYS'>
>;

/** Every gateway of one database keys the client HMAC with the newest encryption key, so they count the same clients. */
export function publishableHoldSettings(config: PublishableHoldConfig): PublishableHoldSettings {
  return {
    placesPerClient: config.PUBLISHABLE_HOLD_PLACES_PER_CLIENT ?? publishableHoldDefaults.placesPerClient,
    ttlSeconds: config.PUBLISHABLE_HOLD_TTL_SECONDS ?? publishableHoldDefaults.ttlSeconds,
    clientKey: keyring(config.ENCRYPTION_KEYS ?? [DEVELOPMENT_ENCRYPTION_KEY])[0],
  };
}
