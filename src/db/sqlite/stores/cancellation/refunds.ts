import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb, setTo } from '../../prepared.ts';
import type { RefundEffectJson } from '../../../../domain/shared/json-types.ts';
import { bookings, paymentIntents, refunds } from '../../schema/index.ts';
import type { RefundRow, RefundsStore } from '../../../../domain/cancellation/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const refundColumns = {
  id: refunds.id,
  bookingId: refunds.bookingId,
  amountMinor: refunds.amountMinor,
  status: refunds.status,
  effect: refunds.effect,
  attempts: refunds.attempts,
  nextAttemptAt: refunds.nextAttemptAt,
  createdAt: refunds.createdAt,
  currency: bookings.currency,
  intentReference: paymentIntents.processorReference,
};

const withBooking = (db: Db) =>
  db
    .select(refundColumns)
    .from(refunds)
    .innerJoin(bookings, eq(bookings.id, refunds.bookingId))
    .leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId));

// A cancel request's refund items each look their refund up, insert it and settle it: prepared once.
const refundById = preparedPerDb((db) =>
  withBooking(db)
    .where(eq(refunds.id, sql.placeholder('id')))
    .prepare(),
);

export function findRefund(db: Db, id: string): RefundRow | undefined {
  return refundById(db).get({ id });
}

const pendingRefundInsert = preparedPerDb((db) =>
  db
    .insert(refunds)
    .values({
      id: sql.placeholder('id'),
      bookingId: sql.placeholder('bookingId'),
      amountMinor: sql.placeholder('amountMinor'),
      status: 'pending',
      effect: sql.placeholder('effect'),
      nextAttemptAt: sql.placeholder('at'),
      createdAt: sql.placeholder('at'),
      updatedAt: sql.placeholder('at'),
    })
    .prepare(),
);

export function insertPendingRefund(
  db: Db,
  row: { id: string; bookingId: string; amountMinor: number; effect: RefundEffectJson; at: string },
): void {
  pendingRefundInsert(db).run(row);
}

const settlePending = preparedPerDb((db) =>
  db
    .update(refunds)
    .set({
      status: setTo('status'),
      processorReference: setTo('processorReference'),
      nextAttemptAt: null,
      attempts: sql`${refunds.attempts} + 1`,
      updatedAt: setTo('at'),
    })
    .where(and(eq(refunds.id, sql.placeholder('id')), eq(refunds.status, 'pending')))
    .prepare(),
);

export function settleRefund(db: Db, id: string, status: 'succeeded' | 'failed', processorReference: string | null, at: string): boolean {
  return settlePending(db).run({ id, status, processorReference, at }).changes === 1;
}

export function dueRefunds(db: Db, now: string, createdBy: string, limit: number): RefundRow[] {
  return withBooking(db)
    .where(and(eq(refunds.status, 'pending'), lte(refunds.nextAttemptAt, now), lte(refunds.createdAt, createdBy)))
    .orderBy(asc(refunds.nextAttemptAt), asc(refunds.id))
    .limit(limit)
    .all();
}

/**
 * Claims due refunds as `dueRefunds` finds them, moving each one's next attempt to `until`, in one
 * write transaction (BEGIN IMMEDIATE: another process on the file claims before or after).
 */
export function claimDueRefunds(db: Db, now: string, createdBy: string, limit: number, until: string): RefundRow[] {
  return db.transaction(
    () => {
      const rows = dueRefunds(db, now, createdBy, limit);
      for (const row of rows) db.update(refunds).set({ nextAttemptAt: until }).where(eq(refunds.id, row.id)).run();
      return rows.map((row) => ({ ...row, nextAttemptAt: until }));
    },
    { behavior: 'immediate' },
  );
}

export function pendingRefunds(db: Db, createdBy: string): RefundRow[] {
  return withBooking(db)
    .where(and(eq(refunds.status, 'pending'), lte(refunds.createdAt, createdBy)))
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .all();
}

export function leaseRefund(db: Db, id: string, seenNextAttemptAt: string, until: string): boolean {
  const result = db
    .update(refunds)
    .set({ nextAttemptAt: until })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'pending'), eq(refunds.nextAttemptAt, seenNextAttemptAt)))
    .run();
  return result.changes === 1;
}

export function recordUnansweredAttempt(db: Db, id: string, input: { error: string; nextAttemptAt?: string; at: string }): void {
  db.update(refunds)
    .set({
      attempts: sql`${refunds.attempts} + 1`,
      lastError: input.error,
      updatedAt: input.at,
      ...(input.nextAttemptAt === undefined ? {} : { nextAttemptAt: input.nextAttemptAt }),
    })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'pending')))
    .run();
}

export const refundsStore = {
  findRefund,
  insertPendingRefund,
  settleRefund,
  dueRefunds,
  claimDueRefunds,
  pendingRefunds,
  leaseRefund,
  recordUnansweredAttempt,
} satisfies SqliteStore<RefundsStore>;
