/**
 * Idempotency keys: a client retrying a POST with the same `Idempotency-Key` gets the first answer
 * back instead of a second effect. Records belong to the API key that sent them and live 24 hours.
 */
import { createHash } from 'node:crypto';
import { inTransaction } from '../db/client.ts';
import {
  completeRecord,
  deleteRecord,
  deleteRecordsBefore,
  findIdempotencyRecord,
  insertRunningRecord,
} from '../db/queries/idempotency.ts';
import type { Deps } from './context.ts';
import { seal, unseal } from './encryption.ts';
import { DomainError, invalid } from './errors.ts';

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
  return createHash('sha256').update(`${method.toUpperCase()}\n${url}\n${rawBody}`).digest('hex');
}

export interface IdempotentRequest {
  apiKeyId: string;
  key: string;
}

export type IdempotencyStart = { outcome: 'proceed' } | { outcome: 'replay'; status: number; body: string };

/**
 * Claims the key for this request (`proceed`), or gives the stored answer of the same request
 * (`replay`). The same key with another request is IDEMPOTENCY_KEY_REUSED; with the same request
 * still running, IDEMPOTENCY_KEY_IN_USE. Records older than the window count as absent and are removed.
 */
export async function beginIdempotentRequest(
  deps: Deps,
  input: IdempotentRequest & { requestHash: string },
  encryptionKey: Buffer,
): Promise<IdempotencyStart> {
  const now = deps.now();
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  const found = inTransaction(deps.db, (tx) => {
    deleteRecordsBefore(tx, cutoff);
    const existing = findIdempotencyRecord(tx, input.apiKeyId, input.key);
    if (!existing) insertRunningRecord(tx, { ...input, createdAt: now.toISOString() });
    return existing;
  });
  if (!found) return { outcome: 'proceed' };
  if (found.requestHash !== input.requestHash) {
    throw new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      `This ${IDEMPOTENCY_HEADER} was used for a different request in the last 24 hours; use a new key`,
      { field: IDEMPOTENCY_HEADER },
    );
  }
  if (found.state === 'running' || found.responseStatus === null) {
    throw new DomainError('IDEMPOTENCY_KEY_IN_USE', `A request with this ${IDEMPOTENCY_HEADER} is still being processed; retry later`, {
      field: IDEMPOTENCY_HEADER,
    });
  }
  return { outcome: 'replay', status: found.responseStatus, body: readStoredBody(found.responseBody, input, encryptionKey) };
}

/** Stored answers are sealed: they can carry a payment intent's or a webhook endpoint's secret. */
const bodyContext = (input: IdempotentRequest) => `idempotency/${input.apiKeyId}/${input.key}`;

function readStoredBody(sealed: string | null, input: IdempotentRequest, encryptionKey: Buffer): string {
  if (sealed === null) return '';
  try {
    return unseal(encryptionKey, sealed, bodyContext(input));
  } catch {
    // Running the request again could apply it twice (a refund, a checkout): refuse instead.
    throw new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      `The stored answer for this ${IDEMPOTENCY_HEADER} can no longer be read (the server's encryption key changed); check the resource and use a new key`,
      { field: IDEMPOTENCY_HEADER },
    );
  }
}

/**
 * Stores the answer to replay. A server error (5xx) is not an answer worth keeping: the record is
 * removed so a retry runs again.
 */
export async function completeIdempotentRequest(
  deps: Deps,
  input: IdempotentRequest & { status: number; body: string },
  encryptionKey: Buffer,
): Promise<void> {
  if (input.status >= 500) deleteRecord(deps.db, input.apiKeyId, input.key);
  else completeRecord(deps.db, input.apiKeyId, input.key, input.status, seal(encryptionKey, input.body, bodyContext(input)));
}

/** Frees the key of a request that ended without an answer (the client went away first). */
export async function abandonIdempotentRequest(deps: Deps, input: IdempotentRequest): Promise<void> {
  const record = findIdempotencyRecord(deps.db, input.apiKeyId, input.key);
  if (record?.state === 'running') deleteRecord(deps.db, input.apiKeyId, input.key);
}
