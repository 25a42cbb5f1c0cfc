/**
 * Holds made with a publishable key (an anonymous browser; the key is public) are bounded per client, so
 * one script cannot hold a brand's places ("denial of inventory", OWASP OAT-021): a client holds at most
 * `placesPerClient` unpaid places across the brand at once, and its holds lapse after `ttlSeconds`.
 * Secret keys (partners' servers) are not bounded here. A client is the caller's address as the transport
 * takes it (the proxy header only when TRUST_PROXY says so, IPv6 by /64), stored only as an HMAC.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Principal } from '../access/principal.ts';
import { DomainError } from '../shared/errors.ts';
import type { CartHolder, ClientHolds } from './store.ts';

export interface PublishableHoldSettings {
  /** Unpaid places one client may hold at once across a brand; also the most one cart may hold (brands have no per-order maximum). */
  placesPerClient: number;
  /** How long an unpaid hold of a publishable key lasts. */
  ttlSeconds: number;
  /** Keys the HMAC that stands for a client's address in the database (never the address itself). */
  clientKey: Buffer;
}

export const publishableHoldDefaults = { placesPerClient: 10, ttlSeconds: 300 } as const;

/** For callers that set no settings (tools, some tests): the defaults, with a key of this process. */
export const defaultPublishableHolds: PublishableHoldSettings = { ...publishableHoldDefaults, clientKey: randomBytes(32) };

/**
 * The stored stand-in for a client's address: an HMAC keyed by a server secret, so the database never
 * holds addresses and a leaked table cannot be matched against a list of them without the key.
 */
export function clientIdOf(key: Buffer, address: string): string {
  return createHmac('sha256', key).update(`tessera:hold-client:${address}`).digest('base64url');
}

/** Who the checkout holds places for: a publishable key's client is counted, a secret key is not. */
export function holderOf(principal: Principal, settings: PublishableHoldSettings, clientAddress: string | undefined): CartHolder {
  if (principal.kind !== 'publishable') return { keyKind: principal.kind, client: null };
  // Without an address (a caller outside HTTP) every such caller shares one budget: safe, never unbounded.
  return { keyKind: principal.kind, client: clientIdOf(settings.clientKey, clientAddress ?? 'unknown') };
}

/**
 * Refuses, with HOLD_LIMIT_REACHED, a checkout of `requested` places that would take a client holding
 * `held` beyond `limit`. Retry-After is when its oldest hold lapses (at least 1 s); a cart that alone
 * exceeds the limit gets none, as waiting would not help.
 */
export function checkHoldBudget(limit: number, requested: number, held: ClientHolds, now: Date): void {
  if (held.places + requested <= limit) return;
  if (requested > limit) {
    throw new DomainError(
      'HOLD_LIMIT_REACHED',
      `A cart checked out with a publishable key holds at most ${limit} places; this one asks for ${requested}`,
      {
        field: 'data',
        limit,
        requested,
        held: held.places,
      },
    );
  }
  const lapse = held.oldestExpiresAt ? Date.parse(held.oldestExpiresAt) : now.getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((lapse - now.getTime()) / 1000));
  throw new DomainError(
    'HOLD_LIMIT_REACHED',
    `This client already holds ${held.places} unpaid places of this brand (at most ${limit} at once): pay for them, or retry in ${retryAfterSeconds} s when the oldest hold lapses`,
    { limit, requested, held: held.places, retryAfterSeconds },
  );
}

/**
 * Refuses, with HOLD_LIMIT_REACHED, a waitlist join of a party of `requested` that would take a client
 * whose live entries (waiting or offered) of the brand already wait for `held` places beyond `limit`
 * (the same `placesPerClient` as its holds, a budget of its own). An offer holds the entry's places for
 * it, so a client filling a line with made-up entries would hold every place that frees up, without
 * paying. Entries do not lapse by a clock: leaving one frees its places, so there is no Retry-After.
 */
export function checkWaitlistBudget(limit: number, requested: number, held: number): void {
  if (held + requested <= limit) return;
  if (requested > limit) {
    throw new DomainError(
      'HOLD_LIMIT_REACHED',
      `A waitlist entry joined with a publishable key waits for at most ${limit} places; this party asks for ${requested}`,
      { field: 'participants', limit, requested, held },
    );
  }
  throw new DomainError(
    'HOLD_LIMIT_REACHED',
    `This client's waitlist entries already wait for ${held} places of this brand (at most ${limit} waitlist places at once): leave an entry before joining for ${requested} more`,
    { limit, requested, held },
  );
}
