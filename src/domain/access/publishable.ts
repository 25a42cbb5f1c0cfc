/**
 * Publishable keys (`pk_test_...`, `pk_live_...`): a brand's key for browsers, public by design (it ships
 * in a web page), so it may only do what any visitor of the brand's shop may: read the catalogue and
 * availability, check out a cart (paying through the payment intent's client secret) and join or leave
 * a waitlist. Everything else needs a secret key. A browser sends the page's origin with every
 * cross-origin request; a publishable key answers only to the origins it lists, so another site cannot
 * spend it. Without an `Origin` header (a server, a native app) the key is accepted: outside a browser
 * any header can be forged, and the key can do nothing a visitor could not.
 */
import { DomainError, invalid } from '../shared/errors.ts';
import type { Principal } from './principal.ts';

/**
 * What a publishable key may do; each REST route and GraphQL root field open to it names one (the
 * transports tag their entry points; an untagged one is for secret keys only). `identity`: GraphQL's
 * `viewer`, which tells the key who it is.
 */
export const publishableUses = ['catalogue', 'availability', 'checkout', 'waitlist', 'identity'] as const;
export type PublishableUse = (typeof publishableUses)[number];

/** Throws FORBIDDEN when a publishable key calls an operation that names no use (secret keys only). */
export function assertKeyMayUse(principal: Principal, use: PublishableUse | undefined, operation: string): void {
  if (principal.kind === 'publishable' && !use) {
    throw new DomainError('FORBIDDEN', `A publishable key may not ${operation}: use a secret key (sk_...) from a server`, {
      keyKind: 'publishable',
    });
  }
}

/**
 * The origins a publishable key is issued for, as browsers send them (`https://shop.example`,
 * `http://localhost:5173`): scheme, host and port, nothing else. At least one.
 */
export function parseOrigins(origins: readonly string[]): string[] {
  if (origins.length === 0) throw invalid('origin', 'A publishable key needs at least one origin (--origin https://shop.example)');
  return [...new Set(origins.map(parseOrigin))];
}

export function parseOrigin(origin: string): string {
  const notAnOrigin = () =>
    invalid(
      'origin',
      `${JSON.stringify(origin)} is not an origin: write it as scheme://host[:port], without a path, e.g. https://shop.example`,
    );
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw notAnOrigin();
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && !/[/?#]$/.test(origin);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !bare) throw notAnOrigin();
  // Browsers send the serialized form: lower-case host, default port left out.
  return url.origin;
}

/** Refuses a publishable key sent from a browser page on an origin the key does not list. */
export function assertOriginAllowed(allowedOrigins: readonly string[] | null, origin: string | undefined): void {
  if (allowedOrigins === null || origin === undefined || allowedOrigins.includes(origin)) return;
  throw new DomainError('FORBIDDEN', `This publishable key may not be used from ${origin}: it lists ${allowedOrigins.join(', ')}`, {
    keyKind: 'publishable',
    origin,
  });
}
