import type { Database } from '../domain/shared/database.ts';
import { keysVersionFor } from '../http/data-version.ts';
import { authenticate, type Headers } from './authenticate.ts';
import type { Principal } from '../domain/access/principal.ts';

/** Keyed by the request object: the answer lives exactly as long as the request. */
const outcomes = new WeakMap<object, Promise<Principal | null>>();

/**
 * `authenticate` once per request: the rate limiter (which runs first, to pick the budget), the REST
 * auth hook, idempotency and the GraphQL context all ask, and all get the same principal or the same
 * error without another key lookup.
 */
export function authenticateRequest(db: Database, request: { headers: Headers }): Promise<Principal | null> {
  let outcome = outcomes.get(request);
  if (!outcome) {
    outcome = keysVersionFor(db, request).then((version) => authenticate(db, request.headers, version));
    // Each caller awaits and handles it; the stored promise itself must not count as unhandled.
    outcome.catch(() => {});
    outcomes.set(request, outcome);
  }
  return outcome;
}
