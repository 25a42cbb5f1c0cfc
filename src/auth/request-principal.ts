import type { Db } from '../db/sqlite/client.ts';
import { generationFor } from '../db/sqlite/generation.ts';
import { authenticate, type Headers } from './authenticate.ts';
import type { Principal } from './principal.ts';

type Outcome = { principal: Principal | null } | { error: unknown };

/** Keyed by the request object: the answer lives exactly as long as the request. */
const outcomes = new WeakMap<object, Outcome>();

/**
 * `authenticate` once per request: the rate limiter (which runs first, to pick the budget), the REST
 * auth hook, idempotency and the GraphQL context all ask, and all get the same principal or the same
 * error without another key lookup.
 */
export function authenticateRequest(db: Db, request: { headers: Headers }): Principal | null {
  let outcome = outcomes.get(request);
  if (!outcome) {
    try {
      outcome = { principal: authenticate(db, request.headers, generationFor(db, request)) };
    } catch (error) {
      outcome = { error };
    }
    outcomes.set(request, outcome);
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.principal;
}

