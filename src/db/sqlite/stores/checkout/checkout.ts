import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { readTogether, type Db } from '../../client.ts';
import { idList, placeholders, preparedPerDb, setTo } from '../../prepared.ts';
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
  sessions,
  waitlistEntries,
} from '../../schema/index.ts';
import type {
  AddOnRow,
  AnswerInsert,
  BookingInsert,
  CartHolder,
  CartHolds,
  CheckoutExperience,
  CheckoutReadRequest,
  CheckoutReads,
  ClientHolds,
  CheckoutStore,
  CouponRow,
  CreditCodeRow,
  IntentInsert,
  ItemSession,
  ItemStart,
  ParticipantInsert,
} from '../../../../domain/checkout/store.ts';
import type { SqliteStore } from '../../store-binding.ts';
import { findExperienceRow, priceTiersOfExperience, taxesOfExperience } from '../catalog/experiences.ts';
import { findSessionAt } from '../availability/sessions.ts';
import { findBrand } from '../catalog/brands.ts';
import { activeQuestionsOfExperiences } from '../questions/questions.ts';
import { hasFeature } from '../../../../domain/catalog/features.ts';

// What the prepared inserts below bind: every column, nullable ones as null (never left out).
// Every quote and checkout runs the reads from here to holdsOfCart, per item or per cart: each is
// prepared once per connection.

const addOnsOf = preparedPerDb((db) =>
  db
    .select()
    .from(addOns)
    .where(eq(addOns.experienceId, sql.placeholder('experienceId')))
    .orderBy(asc(addOns.position), asc(addOns.id))
    .prepare(),
);

const inByteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Four prepared reads per experience (SQLite answers each in microseconds, in process), in one snapshot. */
export function findCheckoutExperiences(db: Db, ids: readonly string[]): CheckoutExperience[] {
  return readTogether(db, () =>
    [...new Set(ids)].sort(inByteOrder).flatMap((id) => {
      const experience = findExperienceRow(db, id);
      if (!experience) return [];
      const addOnRows: AddOnRow[] = addOnsOf(db).all({ experienceId: id });
      return [{ experience, priceTiers: priceTiersOfExperience(db, id), addOns: addOnRows, taxes: taxesOfExperience(db, id) }];
    }),
  );
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

/** Two prepared reads per start: the session, then its lapsed places (an aggregate over the hold index); in one snapshot. */
export function findItemSessions(db: Db, starts: readonly ItemStart[], at: string): ItemSession[] {
  const found = new Map<string, ItemSession>();
  readTogether(db, () => {
    for (const { experienceId, startLocal } of starts) {
      const session = findSessionAt(db, experienceId, startLocal);
      if (session && !found.has(session.id)) {
        found.set(session.id, { session, lapsedPlaces: lapsedPlacesOf(db).get({ sessionId: session.id, at })?.places ?? 0 });
      }
    }
  });
  return [...found.values()].sort(
    (a, b) => inByteOrder(a.session.experienceId, b.session.experienceId) || inByteOrder(a.session.startLocal, b.session.startLocal),
  );
}

/** The five reads one after the other, in one read transaction: in process, each answers in microseconds. */
export function readCheckout(db: Db, request: CheckoutReadRequest): CheckoutReads {
  return readTogether(db, () => {
    const brand = findBrand(db, request.brandId);
    return {
      brand,
      questions: brand && hasFeature(brand, 'customQuestions') ? activeQuestionsOfExperiences(db, [...new Set(request.experienceIds)]) : [],
      holds: holdsOfCart(db, request.brandId, request.cartId, request.at),
      experiences: findCheckoutExperiences(db, request.experienceIds),
      sessions: findItemSessions(db, request.starts, request.at),
    };
  });
}

const couponByCode = preparedPerDb((db) =>
  db
    .select()
    .from(coupons)
    .where(and(eq(coupons.brandId, sql.placeholder('brandId')), eq(coupons.code, sql.placeholder('code'))))
    .prepare(),
);

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
    .orderBy(asc(creditCodes.code))
    .prepare(),
);

export function creditCodesByCode(db: Db, brandId: string, upperCodes: readonly string[]): CreditCodeRow[] {
  if (upperCodes.length === 0) return [];
  return creditCodesOf(db).all({ brandId, codes: idList(upperCodes) });
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
    .orderBy(asc(bookings.sessionId))
    .prepare(),
);

const creditHeldByCart = preparedPerDb((db) =>
  db
    .select({ creditCodeId: creditRedemptions.creditCodeId, amountMinor: sql<number>`sum(${creditRedemptions.amountMinor})` })
    .from(creditRedemptions)
    .innerJoin(bookings, eq(bookings.id, creditRedemptions.bookingId))
    .where(heldByCart)
    .groupBy(creditRedemptions.creditCodeId)
    .orderBy(asc(creditRedemptions.creditCodeId))
    .prepare(),
);

export function holdsOfCart(db: Db, brandId: string, cartId: string, at: string): CartHolds {
  return { places: placesHeldByCart(db).all({ brandId, cartId, at }), credits: creditHeldByCart(db).all({ brandId, cartId }) };
}

// The checkout transaction runs everything below once per cart or per item, and a paid intent's
// settlement marks the cart paid: each statement is prepared once per connection.

const processingOfCart = preparedPerDb((db) =>
  db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.cartId, sql.placeholder('cartId')), eq(bookings.status, 'processing')))
    .orderBy(asc(bookings.createdAt), asc(bookings.cartPosition), asc(bookings.id))
    .prepare(),
);

export function processingBookingIdsOfCart(db: Db, cartId: string): string[] {
  return processingOfCart(db)
    .all({ cartId })
    .map((row) => row.id);
}

const cancelOpenIntents = preparedPerDb((db) =>
  db
    .update(paymentIntents)
    .set({ status: 'canceled', updatedAt: setTo('at') })
    .where(and(eq(paymentIntents.cartId, sql.placeholder('cartId')), eq(paymentIntents.status, 'requires_payment')))
    .prepare(),
);

export function cancelOpenIntentsOfCart(db: Db, cartId: string, at: string): void {
  cancelOpenIntents(db).run({ cartId, at });
}

const bookingWithCode = preparedPerDb((db) =>
  db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.brandId, sql.placeholder('brandId')), eq(bookings.confirmationCode, sql.placeholder('code'))))
    .prepare(),
);

const cartWithCode = preparedPerDb((db) =>
  db
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.brandId, sql.placeholder('brandId')), eq(carts.confirmationCode, sql.placeholder('code'))))
    .prepare(),
);

export function confirmationCodeInUse(db: Db, brandId: string, code: string): boolean {
  if (bookingWithCode(db).get({ brandId, code })) return true;
  return cartWithCode(db).get({ brandId, code }) !== undefined;
}

const dueSweep = preparedPerDb((db) =>
  db
    .select({ due: sql<number>`1` })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.status, 'offered'), lte(waitlistEntries.offerExpiresAt, sql.placeholder('at'))))
    .unionAll(
      db
        .select({ due: sql<number>`1` })
        .from(bookings)
        .where(
          and(
            eq(bookings.status, 'processing'),
            sql`${bookings.holdExpiresAt} IS NOT NULL`,
            lte(bookings.holdExpiresAt, sql.placeholder('at')),
          ),
        ),
    )
    .limit(1)
    .prepare(),
);

/** One prepared statement (SQLite has one writer: nothing lapses unseen while a unit runs). */
export function sweepDue(db: Db, at: string): boolean {
  return dueSweep(db).all({ at }).length > 0;
}

/** Each code through the two prepared lookups: statements cost SQLite no round trip. */
export function confirmationCodesInUse(db: Db, brandId: string, codes: readonly string[]): Set<string> {
  return new Set(codes.filter((code) => confirmationCodeInUse(db, brandId, code)));
}

/** The two questions in turn: statements cost SQLite no round trip. */
export function checkoutChecks(
  db: Db,
  request: { at: string; brandId: string; codes: readonly string[] },
): { sweepDue: boolean; codesInUse: Set<string> } {
  return { sweepDue: sweepDue(db, request.at), codesInUse: confirmationCodesInUse(db, request.brandId, request.codes) };
}

const releaseCode = preparedPerDb((db) =>
  db
    .update(bookings)
    .set({ confirmationCode: sql`${bookings.confirmationCode} || '~' || substr(${bookings.id}, 1, 8)` })
    .where(
      and(
        eq(bookings.cartId, sql.placeholder('cartId')),
        eq(bookings.confirmationCode, sql.placeholder('code')),
        eq(bookings.status, 'failed'),
      ),
    )
    .prepare(),
);

export function releaseCodeOfReplacedBooking(db: Db, cartId: string, code: string): void {
  releaseCode(db).run({ cartId, code });
}

const cartInsert = preparedPerDb((db) =>
  db
    .insert(carts)
    .values({
      id: sql.placeholder('id'),
      brandId: sql.placeholder('brandId'),
      confirmationCode: sql.placeholder('confirmationCode'),
      status: 'open',
      createdAt: sql.placeholder('at'),
      updatedAt: sql.placeholder('at'),
      holdKeyKind: sql.placeholder('keyKind'),
      holdClient: sql.placeholder('client'),
    })
    .onConflictDoNothing({ target: carts.id })
    .prepare(),
);

export function insertCart(
  db: Db,
  row: { id: string; brandId: string; confirmationCode: string; at: string; holder: CartHolder },
  intent?: IntentInsert,
): boolean {
  const { changes } = cartInsert(db).run({
    id: row.id,
    brandId: row.brandId,
    confirmationCode: row.confirmationCode,
    at: row.at,
    ...row.holder,
  });
  if (changes === 0) return false;
  if (intent) insertPaymentIntent(db, intent);
  return true;
}

const holder = preparedPerDb((db) =>
  db
    .update(carts)
    .set({ holdKeyKind: setTo('keyKind'), holdClient: setTo('client'), updatedAt: setTo('at') })
    .where(eq(carts.id, sql.placeholder('id')))
    .prepare(),
);

export function holdCartFor(db: Db, cartId: string, row: CartHolder, at: string): void {
  holder(db).run({ id: cartId, keyKind: row.keyKind, client: row.client, at });
}

/** One writer at a time: a unit of work already counts and takes a client's holds alone. */
export function lockHoldClient(): void {}

// A card hold counts until it lapses; a booking confirmed with the amount due until its session starts.
const heldByClient = preparedPerDb((db) =>
  db
    .select({
      places: sql<number>`count(*)`,
      oldestExpiresAt: sql<
        string | null
      >`min(CASE WHEN ${bookings.status} = 'processing' THEN ${bookings.holdExpiresAt} ELSE ${sessions.startsAt} END)`,
    })
    .from(participants)
    .innerJoin(bookings, eq(bookings.id, participants.bookingId))
    .innerJoin(carts, eq(carts.id, bookings.cartId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .where(
      and(
        eq(carts.brandId, sql.placeholder('brandId')),
        eq(carts.holdClient, sql.placeholder('client')),
        sql`${carts.id} <> ${sql.placeholder('exceptCartId')}`,
        sql`((${bookings.status} = 'processing' AND ${bookings.holdExpiresAt} > ${sql.placeholder('at')})
          OR (${bookings.status} = 'confirmed' AND ${bookings.publishableHold} = 1 AND ${bookings.amountDueMinor} > 0
            AND ${sessions.startsAt} > ${sql.placeholder('at')}))`,
        sql`${participants.cancelledAt} IS NULL`,
      ),
    )
    .prepare(),
);

export function clientHolds(db: Db, brandId: string, client: string, at: string, exceptCartId: string): ClientHolds {
  const row = heldByClient(db).get({ brandId, client, at, exceptCartId });
  return { places: row?.places ?? 0, oldestExpiresAt: row?.oldestExpiresAt ?? null };
}

const intentInsert = preparedPerDb((db) =>
  db
    .insert(paymentIntents)
    .values({
      ...placeholders(
        'id',
        'brandId',
        'cartId',
        'processor',
        'processorReference',
        'secretHash',
        'amountMinor',
        'currency',
        'status',
        'createdAt',
        'updatedAt',
        'processorCheckAt',
      ),
      attempt: sql`(SELECT COALESCE(MAX(attempt), 0) + 1 FROM payment_intents WHERE cart_id = ${sql.placeholder('cartId')})`,
    })
    .prepare(),
);

export function insertPaymentIntent(db: Db, row: IntentInsert): void {
  intentInsert(db).run({ ...row, processorCheckAt: row.processorCheckAt ?? null });
}

/** Every column of a booking bound by name (metadata apart, encoded by hand); the check below proves none is left out. */
const bookingColumns = [
  'id',
  'brandId',
  'cartId',
  'experienceId',
  'sessionId',
  'sessionStartLocal',
  'paymentIntentId',
  'confirmationCode',
  'cartConfirmationCode',
  'cartPosition',
  'status',
  'currency',
  'amountMinor',
  'pricing',
  'paymentMethod',
  'amountDueMinor',
  'chargedTo',
  'purchaserId',
  'purchaserFirstName',
  'purchaserLastName',
  'purchaserEmail',
  'purchaserPhone',
  'notes',
  'internalNotes',
  'holdExpiresAt',
  'publishableHold',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof BookingInsert>;
const everyBookingColumn: Exclude<keyof BookingInsert, (typeof bookingColumns)[number] | 'metadata'> extends never ? true : never = true;
void everyBookingColumn;

// Every column but `amountRefundedMinor` (0 for a new booking). `metadata` is nullable JSON: bound as
// SQL, not through the column's encoder, which would store a null as the text 'null'.
const bookingInsert = preparedPerDb((db) =>
  db
    .insert(bookings)
    .values({
      ...placeholders(...bookingColumns),
      metadata: sql`${sql.placeholder('metadata')}`,
    })
    .prepare(),
);

const participantInsert = preparedPerDb((db) =>
  db
    .insert(participants)
    .values(
      placeholders(
        'id',
        'bookingId',
        'position',
        'firstName',
        'lastName',
        'emailAddress',
        'phoneNumber',
        'priceTierName',
        'priceMinor',
        'cancelledAt',
      ),
    )
    .prepare(),
);

const answerInsert = preparedPerDb((db) =>
  db
    .insert(answers)
    .values(placeholders('id', 'bookingId', 'participantId', 'question', 'answer', 'position'))
    .prepare(),
);

export function insertBooking(
  db: Db,
  booking: BookingInsert,
  people: readonly ParticipantInsert[],
  answerRows: readonly AnswerInsert[],
): void {
  bookingInsert(db).run({ ...booking, metadata: booking.metadata === null ? null : JSON.stringify(booking.metadata) });
  for (const person of people) participantInsert(db).run(person);
  for (const row of answerRows) answerInsert(db).run(row);
}

const takeCredit = preparedPerDb((db) =>
  db
    .update(creditCodes)
    .set({ balanceMinor: sql`${creditCodes.balanceMinor} - ${sql.placeholder('amountMinor')}` })
    .where(and(eq(creditCodes.id, sql.placeholder('id')), sql`${creditCodes.balanceMinor} >= ${sql.placeholder('amountMinor')}`))
    .prepare(),
);

const redemptionInsert = preparedPerDb((db) =>
  db
    .insert(creditRedemptions)
    .values(placeholders('id', 'bookingId', 'creditCodeId', 'amountMinor'))
    .prepare(),
);

export function redeemCredit(db: Db, row: { id: string; bookingId: string; creditCodeId: string; amountMinor: number }): boolean {
  if (takeCredit(db).run({ id: row.creditCodeId, amountMinor: row.amountMinor }).changes !== 1) return false;
  redemptionInsert(db).run(row);
  return true;
}

export const checkoutStore = {
  readCheckout,
  findCheckoutExperiences,
  findItemSessions,
  findCoupon,
  creditCodesByCode,
  holdsOfCart,
  processingBookingIdsOfCart,
  cancelOpenIntentsOfCart,
  confirmationCodeInUse,
  confirmationCodesInUse,
  sweepDue,
  checkoutChecks,
  releaseCodeOfReplacedBooking,
  insertCart,
  holdCartFor,
  lockHoldClient,
  clientHolds,
  insertPaymentIntent,
  insertBooking,
  redeemCredit,
} satisfies SqliteStore<CheckoutStore>;
