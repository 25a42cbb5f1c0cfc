import { and, asc, eq, isNotNull, lte, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb, setTo } from '../../prepared.ts';
import { bookings, creditCodes, creditRedemptions, paymentIntents } from '../../schema/index.ts';
import type { HeldBooking, HoldsStore } from '../../../../domain/checkout/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const heldColumns = {
  id: bookings.id,
  sessionId: bookings.sessionId,
  paymentIntentId: bookings.paymentIntentId,
  publishableHold: bookings.publishableHold,
  // Spelled out: drizzle leaves columns unqualified inside a selected subquery, where they would resolve to `participants`.
  places: sql<number>`(SELECT count(*) FROM participants p WHERE p.booking_id = "bookings"."id" AND p.cancelled_at IS NULL)`,
};

/** The port's order of held bookings (NULL expiries first, as in PostgreSQL's ascending order). */
const holdOrder = [asc(bookings.holdExpiresAt), asc(bookings.createdAt), asc(bookings.cartPosition), asc(bookings.id)];

// Checkouts sweep lapsed holds and fail the holds they replace, payments fail theirs: everything here
// is prepared once per connection, a list of ids bound as one JSON parameter (`inIdList`).

const processing = preparedPerDb((db) =>
  db
    .select(heldColumns)
    .from(bookings)
    .where(and(inIdList(bookings.id, 'ids'), eq(bookings.status, 'processing')))
    .orderBy(...holdOrder)
    .prepare(),
);

export function processingBookings(db: Db, ids: readonly string[]): HeldBooking[] {
  if (ids.length === 0) return [];
  return processing(db).all({ ids: idList(ids) });
}

const lapsed = preparedPerDb((db) =>
  db
    .select(heldColumns)
    .from(bookings)
    .where(and(eq(bookings.status, 'processing'), isNotNull(bookings.holdExpiresAt), lte(bookings.holdExpiresAt, sql.placeholder('at'))))
    .orderBy(...holdOrder)
    .prepare(),
);

export function lapsedHolds(db: Db, at: string): HeldBooking[] {
  return lapsed(db).all({ at });
}

const fail = preparedPerDb((db) =>
  db
    .update(bookings)
    .set({ status: 'failed', holdExpiresAt: null, updatedAt: setTo('at') })
    .where(and(inIdList(bookings.id, 'ids'), eq(bookings.status, 'processing')))
    .prepare(),
);

export function markBookingsFailed(db: Db, ids: readonly string[], at: string): void {
  if (ids.length > 0) fail(db).run({ ids: idList(ids), at });
}

const redemptionsOf = preparedPerDb((db) =>
  db
    .select({ creditCodeId: creditRedemptions.creditCodeId, amountMinor: creditRedemptions.amountMinor })
    .from(creditRedemptions)
    .where(inIdList(creditRedemptions.bookingId, 'ids'))
    .prepare(),
);

const giveCredit = preparedPerDb((db) =>
  db
    .update(creditCodes)
    .set({ balanceMinor: sql`${creditCodes.balanceMinor} + ${sql.placeholder('amountMinor')}` })
    .where(eq(creditCodes.id, sql.placeholder('id')))
    .prepare(),
);

const forgetRedemptions = preparedPerDb((db) => db.delete(creditRedemptions).where(inIdList(creditRedemptions.bookingId, 'ids')).prepare());

export function returnCreditRedemptions(db: Db, bookingIds: readonly string[]): void {
  if (bookingIds.length === 0) return;
  const ids = idList(bookingIds);
  for (const row of redemptionsOf(db).all({ ids })) giveCredit(db).run({ id: row.creditCodeId, amountMinor: row.amountMinor });
  forgetRedemptions(db).run({ ids });
}

const cancelWithoutHolds = preparedPerDb((db) => {
  const stillHeld = db
    .select({ one: sql`1` })
    .from(bookings)
    .where(and(eq(bookings.paymentIntentId, paymentIntents.id), eq(bookings.status, 'processing')));
  return db
    .update(paymentIntents)
    .set({ status: 'canceled', updatedAt: setTo('at') })
    .where(and(inIdList(paymentIntents.id, 'ids'), eq(paymentIntents.status, 'requires_payment'), notExists(stillHeld)))
    .prepare();
});

export function cancelIntentsWithoutHolds(db: Db, ids: readonly string[], at: string): void {
  if (ids.length === 0) return;
  cancelWithoutHolds(db).run({ ids: idList(ids), at });
}

export const holdsStore = {
  processingBookings,
  lapsedHolds,
  markBookingsFailed,
  returnCreditRedemptions,
  cancelIntentsWithoutHolds,
} satisfies SqliteStore<HoldsStore>;
