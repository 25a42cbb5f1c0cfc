import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb, setTo } from '../../prepared.ts';
import { bookings, carts, creditCodes, participants, paymentIntents } from '../../schema/index.ts';
import { redeemCredit } from '../checkout/checkout.ts';
import type {
  IntentBookingRow,
  IntentPayment,
  IntentRow,
  IntentSelector,
  IntentSettling,
  PaymentsStore,
} from '../../../../domain/payments/store.ts';
import { checkoutsOfCart } from '../bookings/carts.ts';
import type { SqliteStore } from '../../store-binding.ts';
import { findBookingRecords } from '../bookings/bookings.ts';
import { setBookingStatus } from '../cancellation/cancellation.ts';
import { dueIntentChecks, leaseIntentCheck, setIntentCheck } from './intent-checks.ts';

export type IntentStatus = (typeof paymentIntents.$inferSelect)['status'];

const intentColumns = {
  id: paymentIntents.id,
  cartId: paymentIntents.cartId,
  processor: paymentIntents.processor,
  processorReference: paymentIntents.processorReference,
  status: paymentIntents.status,
};

// Every payment event reads its intent, settles its bookings and its cart; the sandbox's confirm
// looks the intent up by its secret first: each statement is prepared once per connection.

const intentByReference = preparedPerDb((db) =>
  db
    .select(intentColumns)
    .from(paymentIntents)
    .where(
      and(eq(paymentIntents.processor, sql.placeholder('processor')), eq(paymentIntents.processorReference, sql.placeholder('reference'))),
    )
    .prepare(),
);

export function findIntentByReference(db: Db, processor: string, reference: string): IntentRow | undefined {
  return intentByReference(db).get({ processor, reference });
}

const intentBySecretHash = preparedPerDb((db) =>
  db
    .select(intentColumns)
    .from(paymentIntents)
    .where(eq(paymentIntents.secretHash, sql.placeholder('secretHash')))
    .prepare(),
);

export function findIntentBySecretHash(db: Db, secretHash: string): IntentRow | undefined {
  return intentBySecretHash(db).get({ secretHash });
}

const intentById = preparedPerDb((db) =>
  db
    .select(intentColumns)
    .from(paymentIntents)
    .where(eq(paymentIntents.id, sql.placeholder('id')))
    .prepare(),
);

export function findIntentById(db: Db, id: string): IntentRow | undefined {
  return intentById(db).get({ id });
}

const intentStatus = preparedPerDb((db) =>
  db
    .update(paymentIntents)
    .set({ status: setTo('status'), updatedAt: setTo('at'), processorCheckAt: null })
    .where(eq(paymentIntents.id, sql.placeholder('id')))
    .prepare(),
);

export function setIntentStatus(db: Db, id: string, status: IntentStatus, at: string): void {
  intentStatus(db).run({ id, status, at });
}

/** The intent read, then its status set when it may be: the unit's write lock already keeps others out. */
export function settleIntentOf(
  db: Db,
  selector: IntentSelector,
  status: IntentStatus,
  from: readonly IntentStatus[],
  at: string,
): IntentSettling | undefined {
  const intent =
    'reference' in selector
      ? findIntentByReference(db, selector.processor, selector.reference)
      : findIntentBySecretHash(db, selector.secretHash);
  if (!intent || intent.processor !== selector.processor) return undefined;
  if (!from.includes(intent.status)) return { intent, changed: false };
  setIntentStatus(db, intent.id, status, at);
  return { intent, changed: true };
}

/** settleIntentOf, then paymentOfIntent when it set the status: the statements each sends alone. */
export function settleIntentWithPayment(
  db: Db,
  selector: IntentSelector,
  status: IntentStatus,
  from: readonly IntentStatus[],
  at: string,
): (IntentSettling & { payment?: IntentPayment }) | undefined {
  const settled = settleIntentOf(db, selector, status, from, at);
  return settled?.changed ? { ...settled, payment: paymentOfIntent(db, settled.intent) } : settled;
}

/** The cart's checkouts, then the intent's bookings: the statements each reads alone. */
export function paymentOfIntent(db: Db, intent: { id: string; cartId: string }): IntentPayment {
  const checkouts = checkoutsOfCart(db, intent.cartId);
  return { checkouts, bookings: bookingsOfIntent(db, intent.id) };
}

const intentBookings = preparedPerDb((db) =>
  db
    .select({
      id: bookings.id,
      brandId: bookings.brandId,
      sessionId: bookings.sessionId,
      status: bookings.status,
      publishableHold: bookings.publishableHold,
      currency: bookings.currency,
      amountMinor: bookings.amountMinor,
      amountRefundedMinor: bookings.amountRefundedMinor,
      pricing: bookings.pricing,
    })
    .from(bookings)
    .where(eq(bookings.paymentIntentId, sql.placeholder('intentId')))
    .orderBy(asc(bookings.cartPosition), asc(bookings.id))
    .prepare(),
);

/** Its rows, then their records (whose participants give the active count). */
export function bookingsOfIntent(db: Db, intentId: string): IntentBookingRow[] {
  const rows = intentBookings(db).all({ intentId });
  if (rows.length === 0) return [];
  const records = new Map(
    findBookingRecords(
      db,
      rows.map((r) => r.id),
    ).map((record) => [record.booking.id, record]),
  );
  return rows.flatMap((r) => {
    const record = records.get(r.id);
    return record ? [{ ...r, activeParticipants: record.participants.filter((p) => p.cancelledAt === null).length, record }] : [];
  });
}

const cancelActive = preparedPerDb((db) =>
  db
    .update(participants)
    .set({ cancelledAt: setTo('at') })
    .where(and(eq(participants.bookingId, sql.placeholder('bookingId')), isNull(participants.cancelledAt)))
    .prepare(),
);

export function cancelActiveParticipants(db: Db, bookingId: string, at: string): void {
  cancelActive(db).run({ bookingId, at });
}

const cartPaid = preparedPerDb((db) =>
  db
    .update(carts)
    .set({ status: 'paid', updatedAt: setTo('at') })
    .where(eq(carts.id, sql.placeholder('id')))
    .prepare(),
);

export function markCartPaid(db: Db, cartId: string, at: string): void {
  cartPaid(db).run({ id: cartId, at });
}

/** The bookings' prepared UPDATE, one each, then the cart's. */
export function settlePayment(db: Db, confirmIds: readonly string[], paidCartId: string | null, at: string): void {
  for (const id of confirmIds) setBookingStatus(db, id, 'confirmed', at);
  if (paidCartId !== null) markCartPaid(db, paidCartId, at);
}

const creditCodeOfBrand = preparedPerDb((db) =>
  db
    .select({ id: creditCodes.id })
    .from(creditCodes)
    .where(and(eq(creditCodes.brandId, sql.placeholder('brandId')), eq(creditCodes.code, sql.placeholder('code'))))
    .prepare(),
);

export function redeemCreditAgain(
  db: Db,
  input: { id: string; bookingId: string; brandId: string; code: string; amountMinor: number },
): boolean {
  const row = creditCodeOfBrand(db).get({ brandId: input.brandId, code: input.code });
  if (!row) return false;
  return redeemCredit(db, { id: input.id, bookingId: input.bookingId, creditCodeId: row.id, amountMinor: input.amountMinor });
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
  settleIntentWithPayment,
  paymentOfIntent,
  bookingsOfIntent,
  cancelActiveParticipants,
  markCartPaid,
  settlePayment,
  redeemCreditAgain,
} satisfies SqliteStore<PaymentsStore>;
