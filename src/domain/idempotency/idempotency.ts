/**
 * Idempotency keys: a client retrying a POST with the same `Idempotency-Key` gets the first answer
 * back instead of a second effect. Records belong to the API key that sent them (a publishable key's, to
 * the key and its client: see `idempotencyScope`) and live 24 hours.
 *
 * A record is `running` under a lease (as in Brandur Leach's "Implementing Stripe-like Idempotency
 * Keys in Postgres"): a retry finding the lease ended, its request cut off by a crash, takes the record
 * over and runs the request again. Running it again is safe: every write of ours is one transaction
 * (the cut-off run left each one whole or not at all, and a re-run reads what it committed), processor
 * calls carry idempotency keys, and the ids of the refunds a request makes are derived from the record
 * (`requestIds`), so the re-run finds a refund the first run reserved and finishes that one (the
 * processor asked with the same key) instead of making a second. The lease cannot bound a live request
 * (the handler's time is not capped), so a slow one overtaken runs alongside the re-run: the same
 * guarantees make that safe too, and the first answer stored is the one replayed.
 */
import { hash } from 'node:crypto';
import { type IdempotencyRecord } from './store.ts';
import type { Principal } from '../access/principal.ts';
import { defaultPublishableHolds, holderOf } from '../checkout/hold-budget.ts';
import type { Deps } from '../shared/deps.ts';
import { seal, unseal, type Keyring } from '../shared/encryption.ts';
import { DomainError, invalid } from '../shared/errors.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Printable ASCII, 1 to 255 characters: what a UUID or any client-made token fits in. */
const keyPattern = /^[\x20-\x7e]{1,255}$/;

/** The header's value, checked; VALIDATION_FAILED naming the header otherwise. */
export function checkIdempotencyKey(value: string | string[]): string {
  if (Array.isArray(value)) throw invalid(IDEMPOTENCY_HEADER, `Send one ${IDEMPOTENCY_HEADER} header, not several`);
  if (!keyPattern.test(value) || value.trim() === '') {
    throw invalid(IDEMPOTENCY_HEADER, `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters`);
  }
  return value;
}

/** SHA-256 of method, URL (path and query) and raw body: what makes two requests "the same request". */
export function requestFingerprint(method: string, url: string, rawBody: string): string {
  return hash('sha256', `${method.toUpperCase()}\n${url}\n${rawBody}`, 'hex');
}

export interface IdempotentRequest {
  apiKeyId: string;
  /** The key as stored: the header's, scoped to the client for a publishable key (`idempotencyScope`). */
  key: string;
}

/**
 * Whose records a request's `Idempotency-Key` is one of. A secret key's records are its own. A publishable
 * key is shared by every browser of its brand, so its records are the key's and the client's: the same
 * header from another client is another request, never given the first client's answer (which carries a
 * payment intent's secret) nor refused because of it (a squatted key). The client is the one the hold
 * budget counts (the address, IPv6 by /64), stored only as that HMAC, folded into the stored key: the HMAC
 * has a fixed length and no `/`, so a scoped key never equals another client's.
 */
export function idempotencyScope(
  deps: Pick<Deps, 'publishableHolds'>,
  principal: Principal,
  key: string,
  clientAddress: string | undefined,
): IdempotentRequest {
  // The hold budget's client: a publishable key's only (without an address, every such caller is one client).
  const { client } = holderOf(principal, deps.publishableHolds ?? defaultPublishableHolds, clientAddress);
  return { apiKeyId: principal.keyId, key: client ? `client:${client}/${key}` : key };
}

export type IdempotencyStart =
  | {
      outcome: 'proceed';
      /** The lease this run holds (its record's `lease_expires_at`); completing or abandoning the record needs it. */
      lease: string;
      /** True when this run took over a record whose request was cut off. */
      tookOver: boolean;
      /** The request's run ids (see `runIds`). */
      requestIds: () => string;
    }
  | { outcome: 'replay'; status: number; body: string };

/**
 * Ids derived from the request (API key, Idempotency-Key, fingerprint), the n-th the same on every run
 * of it: what the domain names its money movements with (CallerDeps.requestIds). UUID-shaped (version 8).
 */
export function runIds(input: IdempotentRequest & { requestHash: string }): () => string {
  const seed = hash('sha256', `${input.apiKeyId}\n${input.key}\n${input.requestHash}`, 'hex');
  let n = 0;
  return () => {
    const hex = hash('sha256', `${seed}\n${n++}`, 'hex');
    const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

/** When a running record's lease ends; records written before leases existed get one from their creation. */
function leaseEnd(record: IdempotencyRecord, leaseMs: number): number {
  return record.leaseExpiresAt === null ? Date.parse(record.createdAt) + leaseMs : Date.parse(record.leaseExpiresAt);
}

/**
 * Claims the key for this request (`proceed`, holding it for `leaseMs`), or gives the stored answer of
 * the same request (`replay`). The same key with another request is IDEMPOTENCY_KEY_REUSED; with the
 * same request still running under its lease, IDEMPOTENCY_KEY_IN_USE; once that lease ended, this
 * request takes the record over and runs (`tookOver`). Records older than the window count as absent
 * and are removed.
 */
export async function beginIdempotentRequest(
  deps: Deps,
  input: IdempotentRequest & { requestHash: string },
  encryptionKeys: Keyring,
  leaseMs: number,
): Promise<IdempotencyStart> {
  const now = deps.now();
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  const lease = new Date(now.getTime() + leaseMs).toISOString();
  const proceed = (tookOver: boolean): IdempotencyStart => ({ outcome: 'proceed', lease, tookOver, requestIds: runIds(input) });
  const found = await deps.db.transaction(async (tx) => {
    await tx.idempotency.deleteRecordsBefore(cutoff);
    const existing = await tx.idempotency.findIdempotencyRecord(input.apiKeyId, input.key);
    if (!existing) {
      await tx.idempotency.insertRunningRecord({ ...input, leaseExpiresAt: lease, createdAt: now.toISOString() });
      return { existing, tookOver: false };
    }
    const ended =
      existing.state === 'running' && existing.requestHash === input.requestHash && leaseEnd(existing, leaseMs) <= now.getTime();
    // Conditional on the lease still being the one read: of two retries racing, one takes it over.
    return {
      existing,
      tookOver: ended && (await tx.idempotency.takeOverRecord(input.apiKeyId, input.key, existing.leaseExpiresAt, lease)),
    };
  });
  if (!found.existing) return proceed(false);
  if (found.tookOver) return proceed(true);
  const { existing } = found;
  if (existing.requestHash !== input.requestHash) {
    throw new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      `This ${IDEMPOTENCY_HEADER} was used for a different request in the last 24 hours; use a new key`,
      { field: IDEMPOTENCY_HEADER },
    );
  }
  if (existing.state === 'running' || existing.responseStatus === null) {
    throw new DomainError('IDEMPOTENCY_KEY_IN_USE', `A request with this ${IDEMPOTENCY_HEADER} is still being processed; retry later`, {
      field: IDEMPOTENCY_HEADER,
    });
  }
  return { outcome: 'replay', status: existing.responseStatus, body: readStoredBody(existing.responseBody, input, encryptionKeys) };
}

/**
 * Stored answers are sealed: they can carry a payment intent's or a webhook endpoint's secret. The key
 * they answer is the context, so an answer copied onto another record does not open.
 */
export const answerContext = (apiKeyId: string, key: string) => `idempotency/${apiKeyId}/${key}`;
const bodyContext = (input: IdempotentRequest) => answerContext(input.apiKeyId, input.key);

function readStoredBody(sealed: string | null, input: IdempotentRequest, encryptionKeys: Keyring): string {
  if (sealed === null) return '';
  try {
    return unseal(encryptionKeys, sealed, bodyContext(input));
  } catch {
    // Running the request again could apply it twice (a refund, a checkout): refuse instead.
    throw new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      `The stored answer for this ${IDEMPOTENCY_HEADER} can no longer be read (no key of the server's ENCRYPTION_KEYS opens it); check the resource and use a new key`,
      { field: IDEMPOTENCY_HEADER },
    );
  }
}

/**
 * Stores the answer to replay (unless another run of the request stored one first). A server error
 * (5xx) is not an answer worth keeping: the record is removed, if this run still holds its lease, so a
 * retry runs again.
 */
export async function completeIdempotentRequest(
  deps: Deps,
  input: IdempotentRequest & { lease: string; status: number; body: string },
  encryptionKeys: Keyring,
): Promise<void> {
  if (input.status >= 500) await deps.db.idempotency.deleteRunningRecord(input.apiKeyId, input.key, input.lease);
  else
    await deps.db.idempotency.completeRecord(input.apiKeyId, input.key, input.status, seal(encryptionKeys, input.body, bodyContext(input)));
}

/** Frees the key of a request that ended without an answer (the client went away first), if this run still holds it. */
export async function abandonIdempotentRequest(deps: Deps, input: IdempotentRequest & { lease: string }): Promise<void> {
  await deps.db.idempotency.deleteRunningRecord(input.apiKeyId, input.key, input.lease);
}
