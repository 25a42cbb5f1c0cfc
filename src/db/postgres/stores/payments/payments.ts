import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { CartBookingRow, CartCheckouts, CartIntentRow } from '../../../../domain/bookings/store.ts';
import type {
  IntentBookingRow,
  IntentPayment,
  IntentRow,
  IntentSelector,
  IntentSettling,
  PaymentsStore,
} from '../../../../domain/payments/store.ts';
import type { PaymentIntentStatus } from '../../../../domain/shared/values.ts';
import { bookings, carts, experiences, participants, paymentIntents, sessions } from '../../schema/index.ts';
import { recordColumns } from '../bookings/bookings.ts';
import { readOwned, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { takeCredit } from '../checkout/checkout.ts';
import { checkoutsOfCart } from '../bookings/carts.ts';
import { inByteOrder, isoText, jsonRows } from '../sql-parts.ts';
import { dueIntentChecks, leaseIntentCheck, setIntentCheck } from './intent-checks.ts';

const intentColumns = {
  id: paymentIntents.id,
  cartId: paymentIntents.cartId,
  processor: paymentIntents.processor,
  processorReference: paymentIntents.processorReference,
  status: paymentIntents.status,
};

export async function findIntentByReference(db: PgExecutor, processor: string, reference: string): Promise<IntentRow | undefined> {
  const byReference = and(eq(paymentIntents.processor, processor), eq(paymentIntents.processorReference, reference))!;
  const [row] = await readOwned(db, db.select(intentColumns).from(paymentIntents).where(byReference));
  return row;
}

export async function findIntentBySecretHash(db: PgExecutor, secretHash: string): Promise<IntentRow | undefined> {
  const [row] = await db.select(intentColumns).from(paymentIntents).where(eq(paymentIntents.secretHash, secretHash));
  return row;
}

export async function findIntentById(db: PgExecutor, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select(intentColumns).from(paymentIntents).where(eq(paymentIntents.id, id));
  return row;
}

/**
 * Sets the intent's status, whatever it was (as on SQLite): the domain decides on the status it read in
 * the same unit of work, where findIntentByReference locked the intent until the unit ends.
 */
export async function setIntentStatus(db: PgExecutor, id: string, status: PaymentIntentStatus, at: string): Promise<void> {
  await db.update(paymentIntents).set({ status, updatedAt: at, processorCheckAt: null }).where(eq(paymentIntents.id, id));
}

/**
 * One statement: the intent read locked (FOR NO KEY UPDATE: a unit that settled it first is waited for and
 * its status seen, as findIntentByReference's locking read sees it) and, in a CTE joined to that read, its
 * status set when the status read is one of `from`. The read is the intent's newest version, so a second
 * outcome racing the first finds it settled and changes nothing.
 */
export async function settleIntentOf(
  db: PgExecutor,
  selector: IntentSelector,
  status: PaymentIntentStatus,
  from: readonly PaymentIntentStatus[],
  at: string,
): Promise<IntentSettling | undefined> {
  const named = 'reference' in selector ? sql`processor_reference = ${selector.reference}` : sql`secret_hash = ${selector.secretHash}`;
  const settles =
    from.length > 0
      ? sql`target.status IN (${sql.join(
          from.map((s) => sql`${s}`),
          sql`, `,
        )})`
      : sql`false`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    WITH target AS (
      SELECT id, cart_id, processor, processor_reference, status FROM ${paymentIntents}
      WHERE processor = ${selector.processor} AND ${named}
      FOR NO KEY UPDATE
    ), settled AS (
      UPDATE ${paymentIntents} p SET status = ${status}, updated_at = ${at}, processor_check_at = NULL
      FROM target WHERE p.id = target.id AND ${settles}
      RETURNING p.id
    )
    SELECT target.id, target.cart_id AS "cartId", target.processor, target.processor_reference AS "processorReference",
      target.status, EXISTS (SELECT 1 FROM settled) AS changed
    FROM target`);
  const [row] = rows as unknown as Array<IntentRow & { changed: boolean }>;
  if (!row) return undefined;
  const { changed, ...intent } = row;
  return { intent, changed };
}

const intentBookingColumns = {
  id: bookings.id,
  brandId: bookings.brandId,
  sessionId: bookings.sessionId,
  status: bookings.status,
  publishableHold: bookings.publishableHold,
  currency: bookings.currency,
  amountMinor: bookings.amountMinor,
  amountRefundedMinor: bookings.amountRefundedMinor,
  pricing: bookings.pricing,
  cartPosition: bookings.cartPosition,
  row: bookings,
  ...recordColumns,
};

/** Cart item order, then the ids' byte order. */
const byCartPosition = (a: { cartPosition: number; id: string }, b: { cartPosition: number; id: string }) =>
  a.cartPosition - b.cartPosition || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The row as the port gives it: its active participants counted, and its view's record beside it. */
function toIntentBooking(read: Awaited<ReturnType<typeof selectIntentBookings>>[number]): IntentBookingRow {
  const { row, experienceTitle, timezone, startLocal, participants: people, answers, cartPosition: _, ...booking } = read;
  return {
    ...booking,
    activeParticipants: people.filter((p) => p.cancelledAt === null).length,
    record: { booking: row, experienceTitle, timezone, startLocal, participants: people, answers },
  };
}

/** Over `bookings` joined to each one's experience and session, as a booking record is read. */
const selectIntentBookings = (db: PgExecutor, intentId: string) =>
  db
    .select(intentBookingColumns)
    .from(bookings)
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .where(eq(bookings.paymentIntentId, intentId));

/**
 * The bookings an intent pays for, in cart item order, each with its active participants counted and its
 * view's record. In a unit of work, locked as they are read (in the ids' byte order, as every unit locking
 * several bookings does), one statement where lockInUnit and a read are two. A locking read that had to
 * wait for another unit returns each booking as that unit left it, but its participants and answers as
 * they were when the statement began: every unit that changes a booking's participants also writes the
 * booking, so each row tells whether it is newer than the statement's snapshot (its xmin against the
 * snapshot's own), and only then are the bookings, now locked, read again.
 */
export async function bookingsOfIntent(db: PgExecutor, intentId: string): Promise<IntentBookingRow[]> {
  const read = async () =>
    (await selectIntentBookings(db, intentId).orderBy(asc(bookings.cartPosition), asc(inByteOrder(bookings.id)))).map(toIntentBooking);
  if (!(db instanceof PgTransaction)) return read();
  const locked = await db
    .select({
      ...intentBookingColumns,
      asSnapshot: sql<boolean>`"bookings".xmin = (SELECT b.xmin FROM bookings b WHERE b.id = "bookings"."id")`,
    })
    .from(bookings)
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .where(eq(bookings.paymentIntentId, intentId))
    .orderBy(inByteOrder(bookings.id))
    .for('no key update', { of: bookings });
  if (locked.length === 0) return [];
  if (locked.some((row) => !row.asSnapshot)) return read();
  return locked.sort(byCartPosition).map(({ asSnapshot: _, ...row }) => toIntentBooking(row));
}

/**
 * bookingsOfIntent's locking read with the cart's checkouts (as checkoutsOfCart aggregates them) beside
 * each row: one statement. The checkouts are read apart only when the intent has no booking, the bookings
 * again only when bookingsOfIntent would (a booking newer than the statement's snapshot).
 */
export async function paymentOfIntent(db: PgExecutor, intent: { id: string; cartId: string }): Promise<IntentPayment> {
  const apart = async (): Promise<CartCheckouts> => checkoutsOfCart(db, intent.cartId);
  const bookingsAgain = async (): Promise<IntentBookingRow[]> => bookingsOfIntent(db, intent.id);
  if (!(db instanceof PgTransaction)) return { checkouts: await apart(), bookings: await bookingsAgain() };
  const locked = await db
    .select({
      ...intentBookingColumns,
      asSnapshot: sql<boolean>`"bookings".xmin = (SELECT b.xmin FROM bookings b WHERE b.id = "bookings"."id")`,
      cartIntents: jsonRows<CartIntentRow>(sql`
        SELECT json_agg(json_build_object('id', i.id, 'status', i.status, 'createdAt', ${isoText('i.created_at')})
          ORDER BY i.attempt DESC)
        FROM payment_intents i WHERE i.cart_id = ${intent.cartId}`),
      cartBookings: jsonRows<CartBookingRow>(sql`
        SELECT json_agg(json_build_object('id', b.id, 'paymentIntentId', b.payment_intent_id, 'amountMinor', b.amount_minor)
          ORDER BY b.created_at, b.cart_position)
        FROM bookings b WHERE b.cart_id = ${intent.cartId}`),
    })
    .from(bookings)
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .where(eq(bookings.paymentIntentId, intent.id))
    .orderBy(inByteOrder(bookings.id))
    .for('no key update', { of: bookings });
  const [first] = locked;
  if (!first) return { checkouts: await apart(), bookings: [] };
  const checkouts: CartCheckouts = { intents: first.cartIntents, bookings: first.cartBookings };
  if (locked.some((row) => !row.asSnapshot)) return { checkouts, bookings: await bookingsAgain() };
  return {
    checkouts,
    bookings: locked.sort(byCartPosition).map(({ asSnapshot: _, cartIntents: _i, cartBookings: _b, ...row }) => toIntentBooking(row)),
  };
}

export async function cancelActiveParticipants(db: PgExecutor, bookingId: string, at: string): Promise<void> {
  await db
    .update(participants)
    .set({ cancelledAt: at })
    .where(and(eq(participants.bookingId, bookingId), isNull(participants.cancelledAt)));
}

export async function markCartPaid(db: PgExecutor, cartId: string, at: string): Promise<void> {
  await db.update(carts).set({ status: 'paid', updatedAt: at }).where(eq(carts.id, cartId));
}

/** One statement: the bookings' UPDATE is a CTE of the cart's (run whether or not the cart's finds a row). */
export async function settlePayment(db: PgExecutor, confirmIds: readonly string[], paidCartId: string | null, at: string): Promise<void> {
  if (paidCartId === null) {
    if (confirmIds.length > 0)
      await db
        .update(bookings)
        .set({ status: 'confirmed', updatedAt: at, holdExpiresAt: null })
        .where(inArray(bookings.id, [...confirmIds]));
    return;
  }
  if (confirmIds.length === 0) return markCartPaid(db, paidCartId, at);
  await db.execute(sql`
    WITH confirmed AS (
      UPDATE ${bookings} SET status = 'confirmed', updated_at = ${at}, hold_expires_at = NULL
      WHERE id IN (${sql.join(
        confirmIds.map((id) => sql`${id}`),
        sql`, `,
      )})
    )
    UPDATE ${carts} SET status = 'paid', updated_at = ${at} WHERE id = ${paidCartId}`);
}

/** The code is found, its balance checked and taken, and the redemption recorded in one statement. */
export async function redeemCreditAgain(
  db: PgExecutor,
  input: { id: string; bookingId: string; brandId: string; code: string; amountMinor: number },
): Promise<boolean> {
  return takeCredit(db, { brandId: input.brandId, code: input.code }, input);
}

export const paymentsStore = {
  dueIntentChecks,
  leaseIntentCheck,
  setIntentCheck,
  findIntentByReference,
  findIntentBySecretHash,
  findIntentById,
  setIntentStatus,
  settleIntentOf,
  paymentOfIntent,
  bookingsOfIntent,
  cancelActiveParticipants,
  markCartPaid,
  settlePayment,
  redeemCreditAgain,
} satisfies PostgresStore<PaymentsStore>;
