import { and, asc, eq, getTableColumns, getTableName, sql, type Placeholder } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
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
import type { BrandRow, ExperienceRow } from '../../../../domain/catalog/store.ts';
import type { SessionRow } from '../../../../domain/availability/store.ts';
import type { ExperienceQuestionRow, QuestionRow } from '../../../../domain/questions/store.ts';
import {
  answers,
  bookings,
  brands,
  experienceQuestions,
  questions,
  carts,
  coupons,
  creditCodes,
  creditRedemptions,
  experiences,
  participants,
  paymentIntents,
  sessions,
  waitlistEntries,
} from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import {
  anyOfPlaceholder,
  inByteOrder,
  isoText,
  jsonRows,
  listLength,
  listOf,
  listParams,
  LIST_LENGTHS,
  oneRow,
  rowOfJson,
} from '../sql-parts.ts';
import { priceTiersJson, taxesJson } from '../catalog/experiences.ts';

// The experience's id spelled out in the subqueries, as in priceTiersJson.
const addOnsJson = jsonRows<AddOnRow>(sql`
  SELECT json_agg(json_build_object('id', a.id, 'experienceId', a.experience_id, 'name', a.name,
    'priceMinor', a.price_minor, 'position', a.position) ORDER BY a.position, a.id COLLATE "C")
  FROM add_ons a WHERE a.experience_id = "experiences"."id"`);

const checkoutExperiences = preparedPerExecutor((db) =>
  db
    .select({
      experience: experiences,
      priceTiers: priceTiersJson,
      addOns: addOnsJson,
      taxes: taxesJson,
    })
    .from(experiences)
    .where(anyOfPlaceholder(experiences.id, 'ids'))
    .orderBy(asc(inByteOrder(experiences.id)))
    .prepare('checkout_experiences'),
);

/** One named statement: each experience with one JSON array each of its tiers, add-ons and taxes. */
export async function findCheckoutExperiences(db: PgExecutor, ids: readonly string[]): Promise<CheckoutExperience[]> {
  if (ids.length === 0) return [];
  return checkoutExperiences(db).execute({ ids: [...new Set(ids)] });
}

/** The places lapsed holds keep on the session "sessions" (of the outer query) at `at`. */
const lapsedPlacesOf = (at: Placeholder) => sql<number>`(
  SELECT count(*)::integer FROM participants p JOIN bookings b ON b.id = p.booking_id
  WHERE b.session_id = "sessions"."id" AND b.status = 'processing'
    AND b.hold_expires_at <= ${at}::timestamptz AND p.cancelled_at IS NULL)`;

const itemSessions = preparedPerExecutor((db) =>
  db
    .select({
      session: sessions,
      lapsedPlaces: lapsedPlacesOf(sql.placeholder('at')),
    })
    .from(sessions)
    .where(
      sql`(${sessions.experienceId}, ${sessions.startLocal}) IN (
        SELECT * FROM unnest(${sql.placeholder('experienceIds')}::text[], ${sql.placeholder('startLocals')}::text[]))`,
    )
    .orderBy(asc(inByteOrder(sessions.experienceId)), asc(sessions.startLocal))
    .prepare('item_sessions'),
);

/** One named statement: each session found through the (experience_id, start_local) index, its lapsed places counted beside it. */
export async function findItemSessions(db: PgExecutor, starts: readonly ItemStart[], at: string): Promise<ItemSession[]> {
  if (starts.length === 0) return [];
  return itemSessions(db).execute({
    experienceIds: starts.map((start) => start.experienceId),
    startLocals: starts.map((start) => start.startLocal),
    at,
  });
}

const brandOfJson = rowOfJson<BrandRow>(brands);
const experienceOfJson = rowOfJson<ExperienceRow>(experiences);
const sessionOfJson = rowOfJson<SessionRow>(sessions);
const questionOfJson = rowOfJson<QuestionRow>(questions);
const assignmentOfJson = rowOfJson<ExperienceQuestionRow>(experienceQuestions);

type Json = Record<string, unknown>;

/**
 * The five reads of `readCheckout` as one select of subqueries, each giving JSON (rows by `row_to_json`,
 * in the order their own statements give): one named statement, one round trip, one snapshot. Its lists
 * (the experiences, the starts) are `length` long (`listOf`): planned once per connection, where with array
 * parameters its planning cost twice its execution on every call.
 */
function checkoutReadsOfLength(length: number | undefined) {
  return preparedPerExecutor((db) => {
    const ids = listOf('experienceIds', 'text', length);
    const at = sql.placeholder('at');
    return db
      .select({
        brand: sql<Json | null>`(SELECT row_to_json(b) FROM brands b WHERE b.id = ${sql.placeholder('brandId')})`,
        questions: jsonRows<{ question: Json; assignment: Json }>(sql`
        SELECT json_agg(json_build_object('question', row_to_json(q), 'assignment', row_to_json(a))
          ORDER BY a.experience_id COLLATE "C", a."order", a.id COLLATE "C")
        FROM experience_questions a JOIN questions q ON q.id = a.question_id
        WHERE a.experience_id = ANY(${ids}) AND a.is_active
          AND EXISTS (SELECT 1 FROM brands b WHERE b.id = ${sql.placeholder('brandId')}
            AND b.features_active::jsonb ? 'customQuestions')`),
        ...cartHoldsJson(sql.placeholder('cartId'), sql.placeholder('brandId'), at),
        experiences: jsonRows<{ experience: Json } & Omit<CheckoutExperience, 'experience'>>(sql`
        SELECT json_agg(json_build_object('experience', row_to_json("experiences"), 'priceTiers', ${priceTiersJson},
          'addOns', ${addOnsJson}, 'taxes', ${taxesJson}) ORDER BY "experiences"."id" COLLATE "C")
        FROM experiences "experiences" WHERE "experiences"."id" = ANY(${ids})`),
        sessions: jsonRows<{ session: Json; lapsedPlaces: number }>(sql`
        SELECT json_agg(json_build_object('session', row_to_json("sessions"), 'lapsedPlaces', ${lapsedPlacesOf(at)})
          ORDER BY "sessions"."experience_id" COLLATE "C", "sessions"."start_local")
        FROM sessions "sessions"
        WHERE ("sessions"."experience_id", "sessions"."start_local") IN (
          SELECT * FROM unnest(${listOf('startExperienceIds', 'text', length)}, ${listOf('startLocals', 'text', length)}))`),
      })
      .from(oneRow)
      .prepare(length === undefined ? 'checkout_reads' : `checkout_reads_${length}`);
  });
}

const checkoutReads = new Map<number | undefined, ReturnType<typeof checkoutReadsOfLength>>(
  [...LIST_LENGTHS, undefined].map((length) => [length, checkoutReadsOfLength(length)]),
);

/** One named statement for the five reads (each part as its own method answers it). */
export async function readCheckout(db: PgExecutor, request: CheckoutReadRequest): Promise<CheckoutReads> {
  const experienceIds = [...new Set(request.experienceIds)];
  const length = listLength(Math.max(experienceIds.length, request.starts.length));
  const [row] = await checkoutReads.get(length)!(db).execute({
    brandId: request.brandId,
    cartId: request.cartId,
    at: request.at,
    ...listParams('experienceIds', experienceIds, length),
    ...listParams(
      'startExperienceIds',
      request.starts.map((start) => start.experienceId),
      length,
    ),
    ...listParams(
      'startLocals',
      request.starts.map((start) => start.startLocal),
      length,
    ),
  });
  const read = row!;
  return {
    brand: read.brand ? brandOfJson(read.brand) : undefined,
    questions: read.questions.map((found) => ({
      question: questionOfJson(found.question),
      assignment: assignmentOfJson(found.assignment),
    })),
    holds: { places: read.places, credits: read.credits },
    experiences: read.experiences.map((found) => ({ ...found, experience: experienceOfJson(found.experience) })),
    sessions: read.sessions.map((found) => ({ session: sessionOfJson(found.session), lapsedPlaces: found.lapsedPlaces })),
  };
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
    .orderBy(asc(inByteOrder(creditCodes.code)));
}

/** The cart's holds as two JSON arrays (`holdsOfCart`), for a select of their own or beside other reads. */
function cartHoldsJson(cartId: Placeholder, brandId: Placeholder, at: Placeholder) {
  const held = sql`b.cart_id = ${cartId} AND b.brand_id = ${brandId} AND b.status = 'processing'`;
  return {
    places: jsonRows<CartHolds['places'][number]>(sql`
      SELECT json_agg(json_build_object('sessionId', h.session_id, 'count', h.count) ORDER BY h.session_id COLLATE "C")
      FROM (SELECT b.session_id, count(*) AS count FROM participants p JOIN bookings b ON b.id = p.booking_id
        WHERE ${held} AND (b.hold_expires_at IS NULL OR b.hold_expires_at > ${at}::timestamptz)
          AND p.cancelled_at IS NULL
        GROUP BY b.session_id) h`),
    credits: jsonRows<CartHolds['credits'][number]>(sql`
      SELECT json_agg(json_build_object('creditCodeId', c.credit_code_id, 'amountMinor', c.amount) ORDER BY c.credit_code_id COLLATE "C")
      FROM (SELECT r.credit_code_id, sum(r.amount_minor) AS amount FROM credit_redemptions r JOIN bookings b ON b.id = r.booking_id
        WHERE ${held}
        GROUP BY r.credit_code_id) c`),
  };
}

const cartHolds = preparedPerExecutor((db) =>
  db
    .select(cartHoldsJson(sql.placeholder('cartId'), sql.placeholder('brandId'), sql.placeholder('at')))
    .from(oneRow)
    .prepare('cart_holds'),
);

/** One named statement, both lists aggregated in it; each ordered by its key, as SQLite's GROUP BY leaves it. */
export async function holdsOfCart(db: PgExecutor, brandId: string, cartId: string, at: string): Promise<CartHolds> {
  const [row] = await cartHolds(db).execute({ brandId, cartId, at });
  return row!;
}

/** The cart's `processing` bookings, checkouts in creation order, each in its items' order. */
export async function processingBookingIdsOfCart(db: PgExecutor, cartId: string): Promise<string[]> {
  const rows = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.cartId, cartId), eq(bookings.status, 'processing')))
    .orderBy(asc(bookings.createdAt), asc(bookings.cartPosition), asc(inByteOrder(bookings.id)));
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

const lapsedByAt = sql<boolean>`EXISTS (SELECT 1 FROM ${waitlistEntries} w WHERE w.status = 'offered'
    AND w.offer_expires_at <= ${sql.placeholder('at')}::timestamptz)
  OR EXISTS (SELECT 1 FROM ${bookings} b WHERE b.status = 'processing' AND b.hold_expires_at IS NOT NULL
    AND b.hold_expires_at <= ${sql.placeholder('at')}::timestamptz)`;

const codesTaken = sql<string[]>`ARRAY(
  SELECT confirmation_code FROM ${bookings} WHERE brand_id = ${sql.placeholder('brandId')}
    AND confirmation_code = ANY(${sql.placeholder('codes')}::text[])
  UNION ALL
  SELECT confirmation_code FROM ${carts} WHERE brand_id = ${sql.placeholder('brandId')}
    AND confirmation_code = ANY(${sql.placeholder('codes')}::text[]))`;

const dueSweep = preparedPerExecutor((db) => db.select({ due: lapsedByAt }).from(oneRow).prepare('checkout_sweep_due'));

/**
 * One named statement, locking nothing: a lapsed hold or offer it misses was committed after it began
 * and is the sweeper's (or the next checkout's) to sweep, as it would be had this checkout come first.
 */
export async function sweepDue(db: PgExecutor, at: string): Promise<boolean> {
  const [row] = await dueSweep(db).execute({ at });
  return row?.due === true;
}

const codesInUse = preparedPerExecutor((db) => db.select({ taken: codesTaken }).from(oneRow).prepare('confirmation_codes_in_use'));

/** `confirmationCodeInUse` for several codes: one named statement, whatever their number (one text[] parameter). */
export async function confirmationCodesInUse(db: PgExecutor, brandId: string, codes: readonly string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const [row] = await codesInUse(db).execute({ brandId, codes: [...codes] });
  return new Set(row!.taken);
}

const checks = preparedPerExecutor((db) => db.select({ due: lapsedByAt, taken: codesTaken }).from(oneRow).prepare('checkout_checks'));

/** `sweepDue` and `confirmationCodesInUse` as one named statement. */
export async function checkoutChecks(
  db: PgExecutor,
  request: { at: string; brandId: string; codes: readonly string[] },
): Promise<{ sweepDue: boolean; codesInUse: Set<string> }> {
  const [row] = await checks(db).execute({ at: request.at, brandId: request.brandId, codes: [...request.codes] });
  return { sweepDue: row!.due, codesInUse: new Set(row!.taken) };
}

export async function releaseCodeOfReplacedBooking(db: PgExecutor, cartId: string, code: string): Promise<void> {
  await db
    .update(bookings)
    .set({ confirmationCode: sql`${bookings.confirmationCode} || '~' || substr(${bookings.id}, 1, 8)` })
    .where(and(eq(bookings.cartId, cartId), eq(bookings.confirmationCode, code), eq(bookings.status, 'failed')));
}

const ph = sql.placeholder;
const newCart = {
  id: ph('id'),
  brandId: ph('brandId'),
  confirmationCode: ph('confirmationCode'),
  status: 'open' as const,
  createdAt: ph('at'),
  updatedAt: ph('at'),
  holdKeyKind: ph('keyKind'),
  holdClient: ph('client'),
};

const cartCreate = preparedPerExecutor((db) =>
  db.insert(carts).values(newCart).onConflictDoNothing({ target: carts.id }).prepare('create_cart'),
);

// The intent is selected from the cart the CTE inserted: none when the cart existed. Its foreign key to the
// cart is checked at the end of the statement, when the cart is there.
const cartWithIntentCreate = preparedPerExecutor((db) => {
  const created = db
    .$with('created')
    .as(db.insert(carts).values(newCart).onConflictDoNothing({ target: carts.id }).returning({ id: carts.id }));
  const typed = (name: string, type: string, column: string) => sql`${ph(name)}::${sql.raw(type)}`.as(column);
  return db
    .with(created)
    .insert(paymentIntents)
    .select(
      db
        .select({
          id: typed('intentId', 'text', 'id'),
          brandId: typed('brandId', 'text', 'brand_id'),
          cartId: created.id,
          attempt: sql`1`.as('attempt'),
          processor: typed('processor', 'text', 'processor'),
          processorReference: typed('processorReference', 'text', 'processor_reference'),
          secretHash: typed('secretHash', 'text', 'secret_hash'),
          amountMinor: typed('amountMinor', 'integer', 'amount_minor'),
          currency: typed('currency', 'text', 'currency'),
          status: typed('status', 'text', 'status'),
          createdAt: typed('createdAt', 'timestamptz', 'created_at'),
          updatedAt: typed('updatedAt', 'timestamptz', 'updated_at'),
          processorCheckAt: typed('processorCheckAt', 'timestamptz', 'processor_check_at'),
        })
        .from(created),
    )
    .prepare('create_cart_with_intent');
});

/** One named statement: the cart unless its id exists, and with `intent` its first attempt (a data-modifying CTE). */
export async function insertCart(
  db: PgExecutor,
  row: { id: string; brandId: string; confirmationCode: string; at: string; holder: CartHolder },
  intent?: IntentInsert,
): Promise<boolean> {
  const cart = { id: row.id, brandId: row.brandId, confirmationCode: row.confirmationCode, at: row.at, ...row.holder };
  if (!intent) return (await cartCreate(db).execute(cart)).rowCount === 1;
  const written = await cartWithIntentCreate(db).execute({
    ...cart,
    intentId: intent.id,
    processor: intent.processor,
    processorReference: intent.processorReference,
    secretHash: intent.secretHash,
    amountMinor: intent.amountMinor,
    currency: intent.currency,
    status: intent.status,
    createdAt: intent.createdAt,
    updatedAt: intent.updatedAt,
    processorCheckAt: intent.processorCheckAt ?? null,
  });
  return written.rowCount === 1;
}

/** The unit took the cart (or created it): one UPDATE of a row it holds. */
export async function holdCartFor(db: PgExecutor, cartId: string, row: CartHolder, at: string): Promise<void> {
  await db.update(carts).set({ holdKeyKind: row.keyKind, holdClient: row.client, updatedAt: at }).where(eq(carts.id, cartId));
}

/**
 * A transaction-level advisory lock on the client and brand, held to COMMIT: racing checkouts of one client,
 * on any gateway, count its holds one after the other. No row stands for a client, so no row can be locked;
 * the key is a 64-bit hash under a prefix of its own (the events lock has another).
 */
export async function lockHoldClient(db: PgExecutor, brandId: string, client: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`tessera:hold-client:${brandId}:${client}`}, 0))`);
}

const heldByClient = preparedPerExecutor((db) =>
  db
    .select({
      places: sql<number>`count(*)::int`,
      oldestExpiresAt: sql<
        string | null
      >`${isoText(sql`min(CASE WHEN ${bookings.status} = 'processing' THEN ${bookings.holdExpiresAt} ELSE ${sessions.startsAt} END)`)}`,
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
        sql`((${bookings.status} = 'processing' AND ${bookings.holdExpiresAt} > ${sql.placeholder('at')}::timestamptz)
          OR (${bookings.status} = 'confirmed' AND ${bookings.publishableHold} AND ${bookings.amountDueMinor} > 0
            AND ${sessions.startsAt} > ${sql.placeholder('at')}::timestamptz))`,
        sql`${participants.cancelledAt} IS NULL`,
      ),
    )
    .prepare('client_holds'),
);

export async function clientHolds(db: PgExecutor, brandId: string, client: string, at: string, exceptCartId: string): Promise<ClientHolds> {
  const [row] = await heldByClient(db).execute({ brandId, client, at, exceptCartId });
  return { places: row?.places ?? 0, oldestExpiresAt: row?.oldestExpiresAt ?? null };
}

/** Inserts the cart's next checkout attempt (`attempt` = the cart's highest + 1, in the same statement). */
export async function insertPaymentIntent(db: PgExecutor, row: IntentInsert): Promise<void> {
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
    processorCheckAt: row.processorCheckAt ?? null,
    attempt: sql`(SELECT COALESCE(MAX(pi.attempt), 0) + 1 FROM payment_intents pi WHERE pi.cart_id = ${row.cartId})`,
  });
}

/**
 * Rows of `table` as JSON objects keyed by column name (what `json_populate_record` reads), and the SELECT of
 * the rows a JSON parameter holds, its columns named in the table's order: built once per table, so one
 * statement text serves any number of rows.
 */
function rowsAsJson(table: PgTable, placeholder: string, many: boolean) {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name }));
  const populate = sql.raw(many ? 'json_populate_recordset' : 'json_populate_record');
  return {
    json: (row: object): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const { key, name } of columns) out[name] = (row as Record<string, unknown>)[key] ?? null;
      return out;
    },
    select: sql`SELECT ${sql.join(
      columns.map(({ name }) => sql.identifier(name)),
      sql`, `,
    )} FROM ${populate}(NULL::${sql.identifier(getTableName(table))}, ${sql.placeholder(placeholder)}::json)`,
  };
}

const bookingJson = rowsAsJson(bookings, 'booking', false);
const peopleJson = rowsAsJson(participants, 'people', true);
const answersJson = rowsAsJson(answers, 'answers', true);

// The booking and its participants as data-modifying CTEs (each runs once, to completion, whether or not the
// rest reads it), the answers as the main insert; the foreign keys are checked at the end of the statement,
// when the booking is there. A JSON null (metadata) becomes SQL NULL.
const bookingInsert = preparedPerExecutor((db) => {
  const booked = db.$with('booked').as(db.insert(bookings).select(bookingJson.select).returning({ id: bookings.id }));
  const guests = db.$with('guests').as(db.insert(participants).select(peopleJson.select).returning({ id: participants.id }));
  return db.with(booked, guests).insert(answers).select(answersJson.select).prepare('insert_booking');
});

/**
 * A booking with its participants and answers, written together in one named statement, one text for any
 * number of participants and answers (each table's rows one JSON parameter). Every booking column is given
 * but `amountRefundedMinor` (0 for a new booking).
 */
export async function insertBooking(
  db: PgExecutor,
  booking: BookingInsert,
  people: readonly ParticipantInsert[],
  answerRows: readonly AnswerInsert[],
): Promise<void> {
  await bookingInsert(db).execute({
    booking: JSON.stringify(bookingJson.json({ ...booking, amountRefundedMinor: 0 })),
    people: JSON.stringify(people.map(peopleJson.json)),
    answers: JSON.stringify(answerRows.map(answersJson.json)),
  });
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
} satisfies PostgresStore<CheckoutStore>;
