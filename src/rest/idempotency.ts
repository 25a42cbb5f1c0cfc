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
import { DomainError } from '../domain/shared/errors.ts';
import {
  abandonIdempotentRequest,
  beginIdempotentRequest,
  checkIdempotencyKey,
  completeIdempotentRequest,
  requestFingerprint,
  type IdempotentRequest,
} from '../domain/idempotency/idempotency.ts';
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
    const claim = { apiKeyId: principal.keyId, key };
    // Claiming the key is the request's first write: it is refused or dropped like the request's others.
    const start = await beginIdempotentRequest(
      { ...deps, db: withDeadline(deps.db, request.deadline) },
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

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      await completeIdempotentRequest(deps, { ...claim, status: reply.statusCode, body: payload.toString() }, encryptionKeys);
    } else {
      await abandonIdempotentRequest(deps, claim);
    }
    return payload;
  });

  // A request that ended without passing onSend must not keep its key "running" for a day.
  app.addHook('onResponse', async (request) => {
    const claim = request.idempotency;
    if (claim && !claim.settled) {
      claim.settled = true;
      await abandonIdempotentRequest(deps, claim);
    }
  });
}
