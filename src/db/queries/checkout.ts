import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { idList, preparedPerDb } from '../prepared.ts';
import {
  addOns,
  answers,
  bookings,
  carts,
  coupons,
  creditCodes,
  creditRedemptions,
  participants,
  paymentIntents,
} from '../schema.ts';

export type AddOnRow = typeof addOns.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type CreditCodeRow = typeof creditCodes.$inferSelect;
export type BookingInsert = typeof bookings.$inferInsert;
export type ParticipantInsert = typeof participants.$inferInsert;
export type AnswerInsert = typeof answers.$inferInsert;
export type IntentInsert = typeof paymentIntents.$inferInsert;

// Every quote and checkout runs the reads from here to holdsOfCart, per item or per cart: each is
// prepared once per connection.

const addOnsOf = preparedPerDb((db) => db.select().from(addOns).where(eq(addOns.experienceId, sql.placeholder('experienceId'))).prepare());

export function addOnsOfExperience(db: Db, experienceId: string): AddOnRow[] {
  return addOnsOf(db).all({ experienceId });
}

const couponByCode = preparedPerDb((db) =>
  db
    .select()
    .from(coupons)
    .where(and(eq(coupons.brandId, sql.placeholder('brandId')), eq(coupons.code, sql.placeholder('code'))))
    .prepare(),
);

/** The brand's coupon with `code` (coupon codes are stored upper-case). */
export function findCoupon(db: Db, brandId: string, upperCode: string): CouponRow | undefined {
  return couponByCode(db).get({ brandId, code: upperCode });
}

const creditCodesOf = preparedPerDb((db) =>
  db
    .select()
    .from(creditCodes)
    .where(
      and(
        eq(creditCodes.brandId, sql.placeholder('brandId')),
        sql`upper(${creditCodes.code}) in (select value from json_each(${sql.placeholder('codes')}))`,
      ),
    )
    .prepare(),
);

/** The brand's credit codes among `upperCodes`, compared upper-case. */
export function creditCodesByCode(db: Db, brandId: string, upperCodes: readonly string[]): CreditCodeRow[] {
  if (upperCodes.length === 0) return [];
  return creditCodesOf(db).all({ brandId, codes: idList(upperCodes) });
}

/** What a cart's `processing` bookings hold: places per session and credit per code. */
export interface CartHolds {
  places: Array<{ sessionId: string; count: number }>;
  credits: Array<{ creditCodeId: string; amountMinor: number }>;
}

/** The cart's `processing` bookings. */
const heldByCart = and(
  eq(bookings.cartId, sql.placeholder('cartId')),
  eq(bookings.brandId, sql.placeholder('brandId')),
  eq(bookings.status, 'processing'),
);

const placesHeldByCart = preparedPerDb((db) =>
  db
    .select({ sessionId: bookings.sessionId, count: sql<number>`count(*)` })
    .from(participants)
    .innerJoin(bookings, eq(bookings.id, participants.bookingId))
    .where(
      and(
        heldByCart,
        sql`(${bookings.holdExpiresAt} IS NULL OR ${bookings.holdExpiresAt} > ${sql.placeholder('at')})`,
        sql`${participants.cancelledAt} IS NULL`,
      ),
    )
    .groupBy(bookings.sessionId)
    .prepare(),
);

const creditHeldByCart = preparedPerDb((db) =>
  db
    .select({ creditCodeId: creditRedemptions.creditCodeId, amountMinor: sql<number>`sum(${creditRedemptions.amountMinor})` })
    .from(creditRedemptions)
    .innerJoin(bookings, eq(bookings.id, creditRedemptions.bookingId))
    .where(heldByCart)
    .groupBy(creditRedemptions.creditCodeId)
    .prepare(),
);

/**
 * What the cart's `processing` bookings hold, all of which a new checkout gives back: places of holds
 * still running at `at` (lapsed ones are counted with the session's lapsed places) and credit per code.
 */
export function holdsOfCart(db: Db, brandId: string, cartId: string, at: string): CartHolds {
  return { places: placesHeldByCart(db).all({ brandId, cartId, at }), credits: creditHeldByCart(db).all({ brandId, cartId }) };
}

export function processingBookingIdsOfCart(db: Db, cartId: string): string[] {
  return db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.cartId, cartId), eq(bookings.status, 'processing')))
    .all()
    .map((row) => row.id);
}

/** The cart's intents still awaiting payment become `canceled`. */
export function cancelOpenIntentsOfCart(db: Db, cartId: string, at: string): void {
  db.update(paymentIntents)
    .set({ status: 'canceled', updatedAt: at })
    .where(and(eq(paymentIntents.cartId, cartId), eq(paymentIntents.status, 'requires_payment')))
    .run();
}

/** Whether a booking or a cart of the brand already has `code`. */
export function confirmationCodeInUse(db: Db, brandId: string, code: string): boolean {
  const inBookings = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.brandId, brandId), eq(bookings.confirmationCode, code)))
    .get();
  if (inBookings) return true;
  return db.select({ id: carts.id }).from(carts).where(and(eq(carts.brandId, brandId), eq(carts.confirmationCode, code))).get() !== undefined;
}

/**
 * Frees `code` when a `failed` booking of the same cart (an earlier, replaced checkout) holds it, by
 * suffixing that booking's code with `~` and a part of its id: a re-post may reuse its intended code.
 */
export function releaseCodeOfReplacedBooking(db: Db, cartId: string, code: string): void {
  db.update(bookings)
    .set({ confirmationCode: sql`${bookings.confirmationCode} || '~' || substr(${bookings.id}, 1, 8)` })
    .where(and(eq(bookings.cartId, cartId), eq(bookings.confirmationCode, code), eq(bookings.status, 'failed')))
    .run();
}

export function insertCart(db: Db, row: { id: string; brandId: string; confirmationCode: string; at: string }): void {
  db.insert(carts)
    .values({ id: row.id, brandId: row.brandId, confirmationCode: row.confirmationCode, status: 'open', createdAt: row.at, updatedAt: row.at })
    .run();
}

export function touchCart(db: Db, cartId: string, at: string): void {
  db.update(carts).set({ updatedAt: at }).where(eq(carts.id, cartId)).run();
}

/** Inserts the cart's next checkout attempt (`attempt` = the cart's highest + 1). */
export function insertPaymentIntent(db: Db, row: Omit<IntentInsert, 'attempt'>): void {
  db.insert(paymentIntents)
    .values({ ...row, attempt: sql`(SELECT COALESCE(MAX(attempt), 0) + 1 FROM payment_intents WHERE cart_id = ${row.cartId})` })
    .run();
}

/** A booking with its participants and answers, written together. */
export function insertBooking(db: Db, booking: BookingInsert, people: readonly ParticipantInsert[], answerRows: readonly AnswerInsert[]): void {
  db.insert(bookings).values(booking).run();
  if (people.length > 0) db.insert(participants).values([...people]).run();
  if (answerRows.length > 0) db.insert(answers).values([...answerRows]).run();
}

/**
 * Takes `amountMinor` from a credit code and records the redemption, if its balance covers it; false
 * (nothing changed) otherwise.
 */
export function redeemCredit(db: Db, row: { id: string; bookingId: string; creditCodeId: string; amountMinor: number }): boolean {
  const taken = db
    .update(creditCodes)
    .set({ balanceMinor: sql`${creditCodes.balanceMinor} - ${row.amountMinor}` })
    .where(and(eq(creditCodes.id, row.creditCodeId), sql`${creditCodes.balanceMinor} >= ${row.amountMinor}`))
    .run();
  if (taken.changes !== 1) return false;
  db.insert(creditRedemptions).values(row).run();
  return true;
}
