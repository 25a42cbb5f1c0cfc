import { and, eq, inArray, isNotNull, lte, notExists, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { preparedPerDb } from '../prepared.ts';
import { bookings, creditCodes, creditRedemptions, participants, paymentIntents } from '../schema.ts';

/** A `processing` booking with the places it holds. */
export interface HeldBooking {
  id: string;
  sessionId: string;
  paymentIntentId: string | null;
  /** Active participants: the places the booking holds on its session. */
  places: number;
}

const heldColumns = {
  id: bookings.id,
  sessionId: bookings.sessionId,
  paymentIntentId: bookings.paymentIntentId,
  // Spelled out: drizzle leaves columns unqualified inside a selected subquery, where they would resolve to `participants`.
  places: sql<number>`(SELECT count(*) FROM participants p WHERE p.booking_id = "bookings"."id" AND p.cancelled_at IS NULL)`,
};

/** Those of `ids` that are still `processing`. */
export function processingBookings(db: Db, ids: readonly string[]): HeldBooking[] {
  if (ids.length === 0) return [];
  return db
    .select(heldColumns)
    .from(bookings)
    .where(and(inArray(bookings.id, [...ids]), eq(bookings.status, 'processing')))
    .all();
}

/** `processing` bookings whose hold lapsed at or before `at` (ISO 8601 UTC): one range of the hold index. */
export function lapsedHolds(db: Db, at: string): HeldBooking[] {
  return db
    .select(heldColumns)
    .from(bookings)
    .where(and(eq(bookings.status, 'processing'), isNotNull(bookings.holdExpiresAt), lte(bookings.holdExpiresAt, at)))
    .all();
}

/** `processing` -> `failed`; the guard keeps a booking that moved on meanwhile untouched. */
export function markBookingsFailed(db: Db, ids: readonly string[], at: string): void {
  if (ids.length === 0) return;
  db.update(bookings)
    .set({ status: 'failed', holdExpiresAt: null, updatedAt: at })
    .where(and(inArray(bookings.id, [...ids]), eq(bookings.status, 'processing')))
    .run();
}

/** Adds the credit the bookings redeemed back to each code's balance and forgets the redemptions. */
export function returnCreditRedemptions(db: Db, bookingIds: readonly string[]): void {
  if (bookingIds.length === 0) return;
  const rows = db
    .select({ creditCodeId: creditRedemptions.creditCodeId, amountMinor: creditRedemptions.amountMinor })
    .from(creditRedemptions)
    .where(inArray(creditRedemptions.bookingId, [...bookingIds]))
    .all();
  for (const row of rows) {
    db.update(creditCodes)
      .set({ balanceMinor: sql`${creditCodes.balanceMinor} + ${row.amountMinor}` })
      .where(eq(creditCodes.id, row.creditCodeId))
      .run();
  }
  db.delete(creditRedemptions).where(inArray(creditRedemptions.bookingId, [...bookingIds])).run();
}

/**
 * Of `ids`, the intents still `requires_payment` with no `processing` booking left become `canceled`:
 * nothing they could pay for is held any more.
 */
export function cancelIntentsWithoutHolds(db: Db, ids: readonly string[], at: string): void {
  if (ids.length === 0) return;
  const stillHeld = db
    .select({ one: sql`1` })
    .from(bookings)
    .where(and(eq(bookings.paymentIntentId, paymentIntents.id), eq(bookings.status, 'processing')));
  db.update(paymentIntents)
    .set({ status: 'canceled', updatedAt: at })
    .where(and(inArray(paymentIntents.id, [...ids]), eq(paymentIntents.status, 'requires_payment'), notExists(stillHeld)))
    .run();
}

const lapsedPlacesOf = preparedPerDb((db) =>
  db
    .select({ places: sql<number>`count(*)` })
    .from(participants)
    .innerJoin(bookings, eq(bookings.id, participants.bookingId))
    .where(
      and(
        eq(bookings.sessionId, sql.placeholder('sessionId')),
        eq(bookings.status, 'processing'),
        lte(bookings.holdExpiresAt, sql.placeholder('at')),
        sql`${participants.cancelledAt} IS NULL`,
      ),
    )
    .prepare(),
);

/**
 * Places held on a session by `processing` bookings whose hold lapsed at or before `at` but is not swept
 * yet. Every quote and checkout item asks: prepared once.
 */
export function lapsedPlaces(db: Db, sessionId: string, at: string): number {
  return lapsedPlacesOf(db).get({ sessionId, at })?.places ?? 0;
}
