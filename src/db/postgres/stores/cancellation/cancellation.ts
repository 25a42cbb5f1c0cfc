import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { BookingStatus } from '../../../../domain/shared/values.ts';
import type { CancellableBooking, CancellationStore } from '../../../../domain/cancellation/store.ts';
import { bookings, participants, paymentIntents, refunds } from '../../schema/index.ts';
import { lockInUnit, type PgExecutor, type PostgresStore } from '../../store-binding.ts';

/** What cancelling and refunding one booking needs: its row and the state of its payment. */
const cancellableColumns = {
  id: bookings.id,
  brandId: bookings.brandId,
  sessionId: bookings.sessionId,
  status: bookings.status,
  currency: bookings.currency,
  amountMinor: bookings.amountMinor,
  amountRefundedMinor: bookings.amountRefundedMinor,
  paymentMethod: bookings.paymentMethod,
  intentReference: paymentIntents.processorReference,
  intentStatus: paymentIntents.status,
};

const cancellable = (db: PgExecutor) =>
  db.select(cancellableColumns).from(bookings).leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId));

export async function findCancellableBooking(db: PgExecutor, id: string): Promise<CancellableBooking | undefined> {
  await lockInUnit(db, bookings, eq(bookings.id, id));
  const [row] = await cancellable(db).where(eq(bookings.id, id));
  return row;
}

export async function findCancellableBookings(db: PgExecutor, ids: readonly string[]): Promise<Map<string, CancellableBooking>> {
  if (ids.length === 0) return new Map();
  const rows = await cancellable(db).where(inArray(bookings.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row]));
}

export async function participantStates(db: PgExecutor, bookingId: string): Promise<Array<{ id: string; cancelledAt: string | null }>> {
  return db
    .select({ id: participants.id, cancelledAt: participants.cancelledAt })
    .from(participants)
    .where(eq(participants.bookingId, bookingId))
    .orderBy(asc(participants.position));
}

export async function cancelParticipants(db: PgExecutor, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(participants)
    .set({ cancelledAt: at })
    .where(and(inArray(participants.id, [...ids]), isNull(participants.cancelledAt)));
}

export async function setBookingStatus(db: PgExecutor, id: string, status: BookingStatus, at: string): Promise<void> {
  await db
    .update(bookings)
    .set(status === 'processing' ? { status, updatedAt: at } : { status, updatedAt: at, holdExpiresAt: null })
    .where(eq(bookings.id, id));
}

export async function touchBooking(db: PgExecutor, id: string, at: string): Promise<void> {
  await db.update(bookings).set({ updatedAt: at }).where(eq(bookings.id, id));
}

/**
 * Racing reservations, on any gateway, wait for the row lock of the UPDATE before them and re-check the total
 * it left.
 */
export async function reserveRefundAmount(db: PgExecutor, bookingId: string, amountMinor: number, at: string): Promise<boolean> {
  const result = await db
    .update(bookings)
    .set({ amountRefundedMinor: sql`${bookings.amountRefundedMinor} + ${amountMinor}`, updatedAt: at })
    .where(and(eq(bookings.id, bookingId), sql`${bookings.amountRefundedMinor} + ${amountMinor} <= ${bookings.amountMinor}`));
  return result.rowCount === 1;
}

export async function releaseRefundAmount(db: PgExecutor, bookingId: string, amountMinor: number, at: string): Promise<void> {
  await db
    .update(bookings)
    .set({ amountRefundedMinor: sql`${bookings.amountRefundedMinor} - ${amountMinor}`, updatedAt: at })
    .where(eq(bookings.id, bookingId));
}

export async function countPendingRefunds(db: PgExecutor, bookingId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(refunds)
    .where(and(eq(refunds.bookingId, bookingId), eq(refunds.status, 'pending')));
  return row?.n ?? 0;
}

export const cancellationStore = {
  findCancellableBooking,
  findCancellableBookings,
  participantStates,
  cancelParticipants,
  setBookingStatus,
  touchBooking,
  reserveRefundAmount,
  releaseRefundAmount,
  countPendingRefunds,
} satisfies PostgresStore<CancellationStore>;
