import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { RefundEffectJson } from '../../../../domain/shared/json-types.ts';
import type { RefundRow, RefundsStore, RefundStatus } from '../../../../domain/cancellation/store.ts';
import { bookings, paymentIntents, refunds } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { claimRows } from '../claims.ts';

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

const withBooking = (db: PgExecutor) =>
  db
    .select(refundColumns)
    .from(refunds)
    .innerJoin(bookings, eq(bookings.id, refunds.bookingId))
    .leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId));

/** Ties between equal instants go by id in byte order, as SQLite compares text, whatever the database's collation. */
const byIdBytes = asc(sql`${refunds.id} collate "C"`);

const refundById = preparedPerExecutor((db) =>
  withBooking(db)
    .where(eq(refunds.id, sql.placeholder('id')))
    .prepare('find_refund'),
);

export async function findRefund(db: PgExecutor, id: string): Promise<RefundRow | undefined> {
  const [row] = await refundById(db).execute({ id });
  return row;
}

export async function insertPendingRefund(
  db: PgExecutor,
  row: { id: string; bookingId: string; amountMinor: number; effect: RefundEffectJson; at: string },
): Promise<void> {
  await db.insert(refunds).values({
    id: row.id,
    bookingId: row.bookingId,
    amountMinor: row.amountMinor,
    status: 'pending',
    effect: row.effect,
    nextAttemptAt: row.at,
    createdAt: row.at,
    updatedAt: row.at,
  });
}

/**
 * One named statement: the conditional UPDATE of the refund (a racing settlement waits for its row lock,
 * then finds the refund no longer pending) and, as the main statement, a write of its booking that
 * changes no value. The booking's row then moves (a new xmin) with every refund settled, as it does with
 * every refund reserved (reservePendingRefund): a unit's locking read of the booking, which counts its
 * pending refunds (findBookingToCancel), sees from the row alone whether a settlement committed while it
 * waited. And the booking is locked here, the refund first, as the settling unit locked them before.
 */
const settle = preparedPerExecutor((db) => {
  const settled = db.$with('settled').as(
    db
      .update(refunds)
      .set({
        status: sql`${sql.placeholder('status')}::text`,
        processorReference: sql`${sql.placeholder('reference')}::text`,
        nextAttemptAt: null,
        attempts: sql`${refunds.attempts} + 1`,
        updatedAt: sql`${sql.placeholder('at')}::timestamptz`,
      })
      .where(and(eq(refunds.id, sql.placeholder('id')), eq(refunds.status, 'pending')))
      .returning({ bookingId: refunds.bookingId }),
  );
  return db
    .with(settled)
    .update(bookings)
    .set({ updatedAt: sql`${bookings.updatedAt}` })
    .from(settled)
    .where(eq(bookings.id, settled.bookingId))
    .prepare('settle_refund');
});

export async function settleRefund(
  db: PgExecutor,
  id: string,
  status: Exclude<RefundStatus, 'pending'>,
  processorReference: string | null,
  at: string,
): Promise<boolean> {
  const result = await settle(db).execute({ id, status, reference: processorReference, at });
  return result.rowCount === 1;
}

/** Pending refunds due at `now` and created at or before `createdBy`, oldest first. */
const due = (db: PgExecutor, now: string, createdBy: string, limit: number) =>
  withBooking(db)
    .where(and(eq(refunds.status, 'pending'), lte(refunds.nextAttemptAt, now), lte(refunds.createdAt, createdBy)))
    .orderBy(asc(refunds.nextAttemptAt), byIdBytes)
    .limit(limit);

export async function dueRefunds(db: PgExecutor, now: string, createdBy: string, limit: number): Promise<RefundRow[]> {
  return due(db, now, createdBy, limit);
}

/** Claims due refunds as `dueRefunds` finds them (claims.ts), locking only the refund rows. */
export async function claimDueRefunds(db: PgExecutor, now: string, createdBy: string, limit: number, until: string): Promise<RefundRow[]> {
  return claimRows(db, refunds, (tx) => due(tx, now, createdBy, limit).for('update', { of: refunds, skipLocked: true }), until);
}

export async function pendingRefunds(db: PgExecutor, createdBy: string): Promise<RefundRow[]> {
  return withBooking(db)
    .where(and(eq(refunds.status, 'pending'), lte(refunds.createdAt, createdBy)))
    .orderBy(asc(refunds.createdAt), byIdBytes);
}

/**
 * Moves a pending refund's next attempt to `until`, unless someone else (another process or gateway)
 * did first: true when this caller now holds it and may ask the processor. A compare-and-set on the
 * next attempt it saw, in one statement.
 */
export async function leaseRefund(db: PgExecutor, id: string, seenNextAttemptAt: string, until: string): Promise<boolean> {
  const result = await db
    .update(refunds)
    .set({ nextAttemptAt: until })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'pending'), eq(refunds.nextAttemptAt, seenNextAttemptAt)));
  return result.rowCount === 1;
}

export async function recordUnansweredAttempt(
  db: PgExecutor,
  id: string,
  input: { error: string; nextAttemptAt?: string; at: string },
): Promise<void> {
  await db
    .update(refunds)
    .set({
      attempts: sql`${refunds.attempts} + 1`,
      lastError: input.error,
      updatedAt: input.at,
      ...(input.nextAttemptAt === undefined ? {} : { nextAttemptAt: input.nextAttemptAt }),
    })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'pending')));
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
} satisfies PostgresStore<RefundsStore>;
