import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { bookings, participants, paymentIntents, refunds } from '../schema.ts';

export type BookingStatusValue = (typeof bookings.$inferSelect)['status'];

/** What cancelling and refunding one booking needs: its row and the state of its payment. */
export interface CancellableBooking {
  id: string;
  brandId: string;
  sessionId: string;
  status: BookingStatusValue;
  currency: string;
  amountMinor: number;
  amountRefundedMinor: number;
  /** The processor's id of the booking's payment intent; null when the booking has none (free). */
  intentReference: string | null;
  intentStatus: (typeof paymentIntents.$inferSelect)['status'] | null;
}

export function findCancellableBooking(db: Db, id: string): CancellableBooking | undefined {
  return db
    .select({
      id: bookings.id,
      brandId: bookings.brandId,
      sessionId: bookings.sessionId,
      status: bookings.status,
      currency: bookings.currency,
      amountMinor: bookings.amountMinor,
      amountRefundedMinor: bookings.amountRefundedMinor,
      intentReference: paymentIntents.processorReference,
      intentStatus: paymentIntents.status,
    })
    .from(bookings)
    .leftJoin(paymentIntents, eq(paymentIntents.id, bookings.paymentIntentId))
    .where(eq(bookings.id, id))
    .get();
}

export function participantStates(db: Db, bookingId: string): Array<{ id: string; cancelledAt: string | null }> {
  return db
    .select({ id: participants.id, cancelledAt: participants.cancelledAt })
    .from(participants)
    .where(eq(participants.bookingId, bookingId))
    .orderBy(asc(participants.position))
    .all();
}

/** Marks still-active participants cancelled at `at`. */
export function cancelParticipants(db: Db, ids: readonly string[], at: string): void {
  if (ids.length === 0) return;
  db.update(participants)
    .set({ cancelledAt: at })
    .where(and(inArray(participants.id, [...ids]), isNull(participants.cancelledAt)))
    .run();
}

/** Sets the status; a booking leaving `processing` no longer has a hold that could lapse. */
export function setBookingStatus(db: Db, id: string, status: BookingStatusValue, at: string): void {
  db.update(bookings)
    .set({ status, updatedAt: at, ...(status === 'processing' ? {} : { holdExpiresAt: null }) })
    .where(eq(bookings.id, id))
    .run();
}

export function touchBooking(db: Db, id: string, at: string): void {
  db.update(bookings).set({ updatedAt: at }).where(eq(bookings.id, id)).run();
}

/**
 * Adds `amountMinor` to the booking's refunded total if it stays within the amount; false (and nothing
 * changed) otherwise. Check and write are one statement, backed by the table's CHECK.
 */
export function reserveRefundAmount(db: Db, bookingId: string, amountMinor: number, at: string): boolean {
  const result = db
    .update(bookings)
    .set({ amountRefundedMinor: sql`${bookings.amountRefundedMinor} + ${amountMinor}`, updatedAt: at })
    .where(and(eq(bookings.id, bookingId), sql`${bookings.amountRefundedMinor} + ${amountMinor} <= ${bookings.amountMinor}`))
    .run();
  return result.changes === 1;
}

/** Gives back an amount reserved by a refund that failed. */
export function releaseRefundAmount(db: Db, bookingId: string, amountMinor: number, at: string): void {
  db.update(bookings)
    .set({ amountRefundedMinor: sql`${bookings.amountRefundedMinor} - ${amountMinor}`, updatedAt: at })
    .where(eq(bookings.id, bookingId))
    .run();
}

export function countPendingRefunds(db: Db, bookingId: string): number {
  const row = db
    .select({ n: sql<number>`count(*)` })
    .from(refunds)
    .where(and(eq(refunds.bookingId, bookingId), eq(refunds.status, 'pending')))
    .get();
  return row?.n ?? 0;
}
