import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { IntentBookingRow, IntentRow, PaymentsStore } from '../../../../domain/payments/store.ts';
import type { PaymentIntentStatus } from '../../../../domain/shared/values.ts';
import { bookings, carts, participants, paymentIntents } from '../../schema/index.ts';
import { lockInUnit, readOwned, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
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

/** The bookings an intent pays for, in cart item order, each with its active participants counted: one statement. */
export async function bookingsOfIntent(db: PgExecutor, intentId: string): Promise<IntentBookingRow[]> {
  if (!(await lockInUnit(db, bookings, eq(bookings.paymentIntentId, intentId), inByteOrder(bookings.id)))) return [];
  return db
    .select({
      id: bookings.id,
      brandId: bookings.brandId,
      sessionId: bookings.sessionId,
      status: bookings.status,
      publishableHold: bookings.publishableHold,
      currency: bookings.currency,
      amountMinor: bookings.amountMinor,
      amountRefundedMinor: bookings.amountRefundedMinor,
      // Spelled out: Drizzle leaves columns unqualified in a one-table select.
      activeParticipants: sql<number>`(SELECT count(*)::integer FROM participants p WHERE p.booking_id = "bookings"."id" AND p.cancelled_at IS NULL)`,
      pricing: bookings.pricing,
    })
    .from(bookings)
    .where(eq(bookings.paymentIntentId, intentId))
    .orderBy(asc(bookings.cartPosition), asc(inByteOrder(bookings.id)));
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
  redeemCreditAgain,
} satisfies PostgresStore<PaymentsStore>;
