/**
 * `Idempotency-Key` on every POST of the app (REST routes and /graphql alike): installed on the root
 * instance, before any route, so its hooks and its JSON parser (which keeps the raw body for the
 * request fingerprint) apply everywhere.
 */
import type { Keyring } from '../domain/shared/encryption.ts';
import { authenticateRequest } from '../auth/request-principal.ts';
import type { Principal } from '../domain/access/principal.ts';
import type { Deps } from '../domain/shared/deps.ts';
import type { HttpSettings } from '../http/settings.ts';
import { withDeadline } from '../http/deadline.ts';
import { clientAddress } from '../http/client-address.ts';
import { DomainError } from '../domain/shared/errors.ts';
import {
  abandonIdempotentRequest,
  beginIdempotentRequest,
  checkIdempotencyKey,
  completeIdempotentRequest,
  idempotencyScope,
  requestFingerprint,
  type IdempotentRequest,
} from '../domain/idempotency/idempotency.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { RestApp } from './plugin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, for JSON requests. */
    rawBody?: string;
    /** Set while this request holds an idempotency key whose answer is still to be stored. */
    idempotency?: IdempotentRequest & {
      settled: boolean;
      /** The lease this run holds on the key's record. */
      lease: string;
      /** Ids the same on every run of this request (CallerDeps.requestIds); GraphQL's caller takes them from here. */
      requestIds: () => string;
    };
  }
}

export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * How long a running request keeps its key before a retry may take it over: REQUEST_TIMEOUT_MS (the
 * time a request may take to arrive) plus a margin for the handler. A retry sooner than that is
 * presumed to race a live request and gets 409 IDEMPOTENCY_KEY_IN_USE.
 */
export const idempotencyLeaseMs = (http: Pick<HttpSettings, 'requestTimeoutMs'>) => http.requestTimeoutMs + 30_000;

/** The caller's principal when the request carries valid credentials; anything else fails later, as usual. */
async function principalOf(deps: Deps, request: { headers: Record<string, string | string[] | undefined> }): Promise<Principal | null> {
  try {
    return await authenticateRequest(deps.db, request);
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

export function installIdempotency(app: RestApp, deps: Deps, encryptionKeys: Keyring, leaseMs: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    void parseJson(request, body as string, done);
  });

  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined) return;
    const key = checkIdempotencyKey(header);
    const principal = await principalOf(deps, request);
    if (!principal) return;
    const rawBody = request.rawBody ?? (typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null));
    const claim = idempotencyScope(deps, principal, key, clientAddress(request));
    // Claiming the key is the request's first write: it is refused or dropped like the request's others.
    const start = await beginIdempotentRequest(
      { ...deps, db: withDeadline(deps.db, request) },
      { ...claim, requestHash: requestFingerprint(request.method, request.url, rawBody) },
      encryptionKeys,
      leaseMs,
    );
    if (start.outcome === 'proceed') {
      request.idempotency = { ...claim, settled: false, lease: start.lease, requestIds: start.requestIds };
      // REST handlers read the caller their plugin built on request; GraphQL's caller reads request.idempotency.
      if (request.caller) request.caller = { ...request.caller, requestIds: start.requestIds };
      if (start.tookOver)
        request.log.warn(
          { idempotencyKey: key },
          'Idempotency-Key taken over: its earlier request was cut off before answering; running it again',
        );
      return;
    }
    return reply.code(start.status).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(start.body);
  });

  // Storing the answer must never change it: the request's work is done and its answer true, so a
  // failure here is logged and the answer goes out as it is (an error thrown from onSend would replace it,
  // and, on an error answer, with Fastify's default body).
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    const answer = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.toString() : null;
    try {
      if (answer !== null) await completeIdempotentRequest(deps, { ...claim, status: reply.statusCode, body: answer }, encryptionKeys);
      else await abandonIdempotentRequest(deps, claim);
    } catch (error) {
      const released = answer === null || reply.statusCode >= 500;
      request.log.error(
        { err: error, idempotencyKey: claim.key },
        released
          ? 'Idempotency-Key: the key of a request that got no answer to keep could not be released; retrying in the background'
          : 'Idempotency-Key: the answer could not be stored; a retry within the lease gets IDEMPOTENCY_KEY_IN_USE, after it runs again',
      );
      // A 5xx is not kept, so its retry must run again: release the key as soon as the database lets us.
      if (released) releaseLater(deps, claim, request.log);
    }
    return payload;
  });

  // A request that ended without passing onSend must not keep its key "running" for a day.
  app.addHook('onResponse', async (request) => {
    const claim = request.idempotency;
    if (claim && !claim.settled) {
      claim.settled = true;
      await abandonIdempotentRequest(deps, claim).catch(() => releaseLater(deps, claim, request.log));
    }
  });
}

/** Waits between attempts to release a key the database refused to release (about 30 s in all). */
const RELEASE_RETRY_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000];

/**
 * Releases a request's key in the background, trying again with growing waits while the database
 * fails, so a retry after an outage runs again instead of waiting for the lease to end. Gives up (the
 * lease ends the claim anyway) after the last wait, with a log line.
 */
function releaseLater(deps: Deps, claim: IdempotentRequest & { lease: string }, log: FastifyBaseLogger): void {
  const attempt = (index: number) => {
    const timer = setTimeout(() => {
      abandonIdempotentRequest(deps, claim).catch((error: unknown) => {
        if (index + 1 < RELEASE_RETRY_MS.length) attempt(index + 1);
        else log.error({ err: error, idempotencyKey: claim.key }, 'Idempotency-Key: not released; it frees itself when its lease ends');
      });
    }, RELEASE_RETRY_MS[index]);
    timer.unref();
  };
  attempt(0);
}
