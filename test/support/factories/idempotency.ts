import type { Db } from '../../../src/db/client.ts';
import { inTransaction } from '../../../src/db/client.ts';
import { findCancellableBooking } from '../../../src/db/queries/cancellation.ts';
import { idempotencyKeys } from '../../../src/db/schema.ts';
import { requestFingerprint, runIds } from '../../../src/domain/idempotency.ts';
import { reserveRefund, type RefundEffect } from '../../../src/domain/refunds.ts';

export interface CutOffRequest {
  apiKeyId: string;
  key: string;
  url: string;
  /** The raw JSON body, exactly as the retry will send it. */
  body: string;
  /** When the cut-off request started. */
  at: Date;
  /** When its lease ends; null: a record written before leases existed. */
  leaseExpiresAt: Date | null;
}

/**
 * What a POST with an Idempotency-Key leaves when its process dies mid-request: its record `running`.
 * Returns the request's run ids, as the retry will draw them.
 */
export function createCutOffRequest(db: Db, request: CutOffRequest): () => string {
  const requestHash = requestFingerprint('POST', request.url, request.body);
  db.insert(idempotencyKeys)
    .values({
      apiKeyId: request.apiKeyId,
      key: request.key,
      requestHash,
      state: 'running',
      leaseExpiresAt: request.leaseExpiresAt?.toISOString() ?? null,
      createdAt: request.at.toISOString(),
    })
    .run();
  return runIds({ apiKeyId: request.apiKeyId, key: request.key, requestHash });
}

/** A refund the cut-off request reserved (phase 1 committed) and never settled: `pending`, amount reserved. */
export function createReservedRefund(db: Db, input: { id: string; bookingId: string; amountMinor: number; effect: RefundEffect; at: Date }) {
  return inTransaction(db, (tx) => {
    const booking = findCancellableBooking(tx, input.bookingId)!;
    return reserveRefund(tx, { id: booking.id, intentReference: booking.intentReference!, currency: booking.currency }, { ...input, at: input.at.toISOString() });
  });
}
