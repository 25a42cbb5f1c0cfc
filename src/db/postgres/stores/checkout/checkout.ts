import { and, asc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type {
  AddOnRow,
  AnswerInsert,
  BookingInsert,
  CartHolds,
  CheckoutStore,
  CouponRow,
  CreditCodeRow,
  IntentInsert,
  ParticipantInsert,
} from '../../../../domain/checkout/store.ts';
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
} from '../../schema/index.ts';
import { lockInUnit, type PgExecutor, type PostgresStore } from '../../store-binding.ts';

/** Text keys ordered by their bytes, as SQLite orders them, whatever the database's collation. */
export const bytewise = (text: SQLWrapper): SQL => sql`${text} COLLATE "C"`;

/** The experience's add-ons, by position, then id. */
export async function addOnsOfExperience(db: PgExecutor, experienceId: string): Promise<AddOnRow[]> {
  return db
    .select()
    .from(addOns)
    .where(eq(addOns.experienceId, experienceId))
    .orderBy(asc(addOns.position), asc(bytewise(addOns.id)));
}

export async function findCoupon(db: PgExecutor, brandId: string, upperCode: string): Promise<CouponRow | undefined> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(and(eq(coupons.brandId, brandId), eq(coupons.code, upperCode)));
  return row;
}

/** The brand's credit codes among `upperCodes`, compared upper-case, by code (as SQLite reads its (brand, code) index). */
export async function creditCodesByCode(db: PgExecutor, brandId: string, upperCodes: readonly string[]): Promise<CreditCodeRow[]> {
  if (upperCodes.length === 0) return [];
  return db
    .select()
    .from(creditCodes)
    .where(and(eq(creditCodes.brandId, brandId), sql`upper(${creditCodes.code}) = ANY(${sql.param([...upperCodes])}::text[])`))
    .orderBy(asc(bytewise(creditCodes.code)));
}

/** The cart's `processing` bookings. */
const heldByCart = (brandId: string, cartId: string) =>
  and(eq(bookings.cartId, cartId), eq(bookings.brandId, brandId), eq(bookings.status, 'processing'));

/** Each list is ordered by its key, as SQLite's GROUP BY leaves it. */
export async function holdsOfCart(db: PgExecutor, brandId: string, cartId: string, at: string): Promise<CartHolds> {
  const places = await db
    .select({ sessionId: bookings.sessionId, count: sql<number>`count(*)`.mapWith(Number) })
    .from(participants)
    .innerJoin(bookings, eq(bookings.id, participants.bookingId))
    .where(
      and(
        heldByCart(brandId, cartId),
        sql`(${bookings.holdExpiresAt} IS NULL OR ${bookings.holdExpiresAt} > ${at})`,
        sql`${participants.cancelledAt} IS NULL`,
      ),
    )
    .groupBy(bookings.sessionId)
    .orderBy(asc(bytewise(bookings.sessionId)));
  const credits = await db
    .select({
      creditCodeId: creditRedemptions.creditCodeId,
      amountMinor: sql<number>`sum(${creditRedemptions.amountMinor})`.mapWith(Number),
    })
    .from(creditRedemptions)
    .innerJoin(bookings, eq(bookings.id, creditRedemptions.bookingId))
    .where(heldByCart(brandId, cartId))
    .groupBy(creditRedemptions.creditCodeId)
    .orderBy(asc(bytewise(creditRedemptions.creditCodeId)));
  return { places, credits };
}

/** The cart's `processing` bookings, checkouts in creation order, each in its items' order. */
export async function processingBookingIdsOfCart(db: PgExecutor, cartId: string): Promise<string[]> {
  const rows = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.cartId, cartId), eq(bookings.status, 'processing')))
    .orderBy(asc(bookings.createdAt), asc(bookings.cartPosition), asc(bytewise(bookings.id)));
  return rows.map((row) => row.id);
}

/** One conditional UPDATE. */
export async function cancelOpenIntentsOfCart(db: PgExecutor, cartId: string, at: string): Promise<void> {
  await db
    .update(paymentIntents)
    .set({ status: 'canceled', updatedAt: at })
    .where(and(eq(paymentIntents.cartId, cartId), eq(paymentIntents.status, 'requires_payment')));
}

/**
 * One statement over both unique indexes. What keeps two checkouts from both taking a free code is those
 * unique indexes: the one that read the code free and inserts second fails with a unique violation, and
 * its unit of work runs again and finds the code taken.
 */
export async function confirmationCodeInUse(db: PgExecutor, brandId: string, code: string): Promise<boolean> {
  const found = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.brandId, brandId), eq(bookings.confirmationCode, code)))
    .unionAll(
      db
        .select({ id: carts.id })
        .from(carts)
        .where(and(eq(carts.brandId, brandId), eq(carts.confirmationCode, code))),
    )
    .limit(1);
  return found.length > 0;
}

export async function releaseCodeOfReplacedBooking(db: PgExecutor, cartId: string, code: string): Promise<void> {
  await db
    .update(bookings)
    .set({ confirmationCode: sql`${bookings.confirmationCode} || '~' || substr(${bookings.id}, 1, 8)` })
    .where(and(eq(bookings.cartId, cartId), eq(bookings.confirmationCode, code), eq(bookings.status, 'failed')));
}

export async function insertCart(
  db: PgExecutor,
  row: { id: string; brandId: string; confirmationCode: string; at: string },
): Promise<void> {
  await db.insert(carts).values({
    id: row.id,
    brandId: row.brandId,
    confirmationCode: row.confirmationCode,
    status: 'open',
    createdAt: row.at,
    updatedAt: row.at,
  });
}

export async function touchCart(db: PgExecutor, cartId: string, at: string): Promise<void> {
  await db.update(carts).set({ updatedAt: at }).where(eq(carts.id, cartId));
}

/** Inserts the cart's next checkout attempt (`attempt` = the cart's highest + 1, in the same statement). */
/** The cart is locked first (in a unit of work), so racing checkouts of one cart number their attempts in turn. */
export async function insertPaymentIntent(db: PgExecutor, row: IntentInsert): Promise<void> {
  await lockInUnit(db, carts, eq(carts.id, row.cartId));
  await db.insert(paymentIntents).values({
    id: row.id,
    brandId: row.brandId,
    cartId: row.cartId,
    processor: row.processor,
    processorReference: row.processorReference,
    secretHash: row.secretHash,
    amountMinor: row.amountMinor,
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    attempt: sql`(SELECT COALESCE(MAX(pi.attempt), 0) + 1 FROM payment_intents pi WHERE pi.cart_id = ${row.cartId})`,
  });
}

/**
 * A booking with its participants and answers, written together: one INSERT per table (a multi-row one
 * for participants and answers). Every booking column is given but `amountRefundedMinor` (0 for a new
 * booking); a null `metadata` is bound as SQL NULL, not as the JSON `null`.
 */
export async function insertBooking(
  db: PgExecutor,
  booking: BookingInsert,
  people: readonly ParticipantInsert[],
  answerRows: readonly AnswerInsert[],
): Promise<void> {
  await db.insert(bookings).values(booking);
  if (people.length > 0) await db.insert(participants).values([...people]);
  if (answerRows.length > 0) await db.insert(answers).values([...answerRows]);
}

/** A credit code: by id, or by the brand's code (compared exactly). */
export type CreditCodeKey = { id: string } | { brandId: string; code: string };

/**
 * Takes `amountMinor` from the credit code `key` names, if its balance covers it, and records the
 * redemption, in one statement: the conditional UPDATE is the guard (PostgreSQL's row lock makes a racing
 * taker wait and re-check the balance as the first left it), and the INSERT of the redemption only sees
 * the row the UPDATE returned. True when it was taken.
 */
export async function takeCredit(
  db: PgExecutor,
  key: CreditCodeKey,
  redemption: { id: string; bookingId: string; amountMinor: number },
): Promise<boolean> {
  const which = 'id' in key ? eq(creditCodes.id, key.id) : and(eq(creditCodes.brandId, key.brandId), eq(creditCodes.code, key.code));
  const taken = db.$with('taken').as(
    db
      .update(creditCodes)
      .set({ balanceMinor: sql`${creditCodes.balanceMinor} - ${redemption.amountMinor}` })
      .where(and(which, sql`${creditCodes.balanceMinor} >= ${redemption.amountMinor}`))
      .returning({ creditCodeId: creditCodes.id }),
  );
  const result = await db
    .with(taken)
    .insert(creditRedemptions)
    .select(
      db
        .select({
          id: sql`${redemption.id}::text`.as('id'),
          bookingId: sql`${redemption.bookingId}::text`.as('booking_id'),
          creditCodeId: taken.creditCodeId,
          amountMinor: sql`${redemption.amountMinor}::integer`.as('amount_minor'),
        })
        .from(taken),
    );
  return result.rowCount === 1;
}

export async function redeemCredit(
  db: PgExecutor,
  row: { id: string; bookingId: string; creditCodeId: string; amountMinor: number },
): Promise<boolean> {
  return takeCredit(db, { id: row.creditCodeId }, row);
}

export const checkoutStore = {
  addOnsOfExperience,
  findCoupon,
  creditCodesByCode,
  holdsOfCart,
  processingBookingIdsOfCart,
  cancelOpenIntentsOfCart,
  confirmationCodeInUse,
  releaseCodeOfReplacedBooking,
  insertCart,
  touchCart,
  insertPaymentIntent,
  insertBooking,
  redeemCredit,
} satisfies PostgresStore<CheckoutStore>;
