import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { IntentBookingRow, IntentRow, PaymentsStore } from '../../../../domain/payments/store.ts';
import type { PaymentIntentStatus } from '../../../../domain/shared/values.ts';
import { bookings, carts, experiences, participants, paymentIntents, sessions } from '../../schema/index.ts';
import { recordColumns } from '../bookings/bookings.ts';
import { readOwned, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { takeCredit } from '../checkout/checkout.ts';
import { inByteOrder } from '../sql-parts.ts';
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
  bookingsOfIntent,
  cancelActiveParticipants,
  markCartPaid,
  settlePayment,
  redeemCreditAgain,
} satisfies PostgresStore<PaymentsStore>;
