import { and, asc, eq, inArray, isNotNull, lte, notExists, sql, type SQL } from 'drizzle-orm';
import type { HeldBooking, HoldsStore } from '../../../../domain/checkout/store.ts';
import { bookings, creditCodes, creditRedemptions, paymentIntents } from '../../schema/index.ts';
import { lockInUnit, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { inByteOrder } from '../sql-parts.ts';

const heldColumns = {
  id: bookings.id,
  sessionId: bookings.sessionId,
  paymentIntentId: bookings.paymentIntentId,
  publishableHold: bookings.publishableHold,
  // Spelled out: Drizzle leaves columns unqualified in a one-table select, where they would resolve to `participants`.
  places: sql<number>`(SELECT count(*)::integer FROM participants p WHERE p.booking_id = "bookings"."id" AND p.cancelled_at IS NULL)`,
};

/** The port's order of held bookings. */
const holdOrder = [
  sql`${bookings.holdExpiresAt} ASC NULLS FIRST`,
  asc(bookings.createdAt),
  asc(bookings.cartPosition),
  asc(inByteOrder(bookings.id)),
];

/**
 * Held bookings, locked inside a unit of work (in id order, as every unit locking several bookings takes
 * them) before they are read: a unit failing them and giving their places back is then the only one
 * that finds them still processing.
 */
async function heldBookings(db: PgExecutor, where: SQL): Promise<HeldBooking[]> {
  if (!(await lockInUnit(db, bookings, where, inByteOrder(bookings.id)))) return [];
  return db
    .select(heldColumns)
    .from(bookings)
    .where(where)
    .orderBy(...holdOrder);
}

export async function processingBookings(db: PgExecutor, ids: readonly string[]): Promise<HeldBooking[]> {
  if (ids.length === 0) return [];
  return heldBookings(db, and(inArray(bookings.id, [...ids]), eq(bookings.status, 'processing'))!);
}

export async function lapsedHolds(db: PgExecutor, at: string): Promise<HeldBooking[]> {
  return heldBookings(db, and(eq(bookings.status, 'processing'), isNotNull(bookings.holdExpiresAt), lte(bookings.holdExpiresAt, at))!);
}

/** One conditional UPDATE. */
export async function markBookingsFailed(db: PgExecutor, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(bookings)
    .set({ status: 'failed', holdExpiresAt: null, updatedAt: at })
    .where(and(inArray(bookings.id, [...ids]), eq(bookings.status, 'processing')));
}

/**
 * Adds the credit the bookings redeemed back to each code's balance and forgets the redemptions, in one
 * statement: the redemptions deleted are exactly the ones given back, so a redemption is returned at most
 * once even when two callers race (the second waits for the first's row locks and finds nothing to delete).
 */
export async function returnCreditRedemptions(db: PgExecutor, bookingIds: readonly string[]): Promise<void> {
  if (bookingIds.length === 0) return;
  const forgotten = db.$with('forgotten').as(
    db
      .delete(creditRedemptions)
      .where(inArray(creditRedemptions.bookingId, [...bookingIds]))
      .returning({ creditCodeId: creditRedemptions.creditCodeId, amountMinor: creditRedemptions.amountMinor }),
  );
  const returned = db.$with('returned').as(
    db
      .select({
        creditCodeId: forgotten.creditCodeId,
        amountMinor: sql<number>`sum(${forgotten.amountMinor})`.as('returned_minor'),
      })
      .from(forgotten)
      .groupBy(forgotten.creditCodeId),
  );
  await db
    .with(forgotten, returned)
    .update(creditCodes)
    .set({ balanceMinor: sql`${creditCodes.balanceMinor} + ${returned.amountMinor}` })
    .from(returned)
    .where(eq(creditCodes.id, returned.creditCodeId));
}

/** One conditional UPDATE. */
export async function cancelIntentsWithoutHolds(db: PgExecutor, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  const stillHeld = db
    .select({ one: sql`1` })
    .from(bookings)
    .where(and(eq(bookings.paymentIntentId, paymentIntents.id), eq(bookings.status, 'processing')));
  await db
    .update(paymentIntents)
    .set({ status: 'canceled', updatedAt: at })
    .where(and(inArray(paymentIntents.id, [...ids]), eq(paymentIntents.status, 'requires_payment'), notExists(stillHeld)));
}

export const holdsStore = {
  processingBookings,
  lapsedHolds,
  markBookingsFailed,
  returnCreditRedemptions,
  cancelIntentsWithoutHolds,
} satisfies PostgresStore<HoldsStore>;
