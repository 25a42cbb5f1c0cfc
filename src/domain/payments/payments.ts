/**
 * Payment outcomes, learnt only from verified processor events and, with the sandbox, its confirm route
 * (whose outcome takes the same path, the intent named by its secret instead of the processor's
 * reference). Each outcome is recorded in one transaction that reads the intent first, locked, and sets
 * its status in the same step, so a repeated or racing event finds it settled and changes nothing. A succeeded payment that
 * cannot be honoured is refunded through the refund ledger: the pending refund is recorded in that same
 * transaction, and the processor is asked afterwards, outside it.
 */
import { randomUUID } from 'node:crypto';
import { paymentIntentStatuses, type BookingStatus } from '../shared/values.ts';
import type { Stores, Transaction } from '../shared/database.ts';
import { type IntentBookingRow, type IntentRow, type IntentSelector } from './store.ts';
import { recordBookingEventsOf } from '../bookings/booking-events.ts';
import { toBooking } from '../bookings/booking-view.ts';
import { recordAsWritten } from '../bookings/written-record.ts';
import { paysCurrentCheckout } from './cart-settlement.ts';
import type { Deps } from '../shared/deps.ts';
import { DomainError, type ErrorCode } from '../shared/errors.ts';
import { failProcessingBookings, leavePublishableShare } from '../checkout/holds.ts';
import type { IntentEvent } from './processor.ts';
import { cartIsPaid, recordsFailure, recordsSuccess, succeededAction, type IntentStatus } from './rules.ts';

/** The statuses an intent is settled from, as a rule of rules.ts says (the store writes only from these). */
const settledFrom = (rule: (status: IntentStatus) => boolean): IntentStatus[] => paymentIntentStatuses.filter(rule);
const successFrom = settledFrom(recordsSuccess);
const failureFrom = settledFrom(recordsFailure);
import { completeRefund, reserveRefund, type ReservedRefund } from '../cancellation/refunds.ts';

export interface PaymentOutcome {
  intentId: string;
  /** The intent's status once the event was handled. */
  intentStatus: IntentStatus;
  /** False when the event changed nothing: a repeat, or a failure announced after a success. */
  changed: boolean;
  /** Automatic refunds that did not go through; their bookings stay `cancelled`, paid and refundable. */
  refundErrors: Array<{ bookingId: string; code: ErrorCode; message: string }>;
}

/** Records a verified event; null when no intent of this processor has its reference (nothing to do). */
export async function handlePaymentEvent(deps: Deps, event: IntentEvent): Promise<PaymentOutcome | null> {
  return handleIntentOutcome(deps, event.type, { processor: deps.payments.name, reference: event.intentReference });
}

/**
 * Records an outcome of the intent `selector` names (its processor's reference, or its client secret's hash
 * for the sandbox's confirm); null when no intent matches (nothing to do). The intent is read once, locked,
 * in the outcome's unit, and its status set in the same step when the rules let it be.
 */
export async function handleIntentOutcome(deps: Deps, type: IntentEvent['type'], selector: IntentSelector): Promise<PaymentOutcome | null> {
  switch (type) {
    case 'payment_intent.payment_failed':
      return recordFailure(deps, selector);
    case 'payment_intent.attempt_failed':
      return noteFailedAttempt(deps, selector);
    case 'payment_intent.succeeded':
      return recordSuccess(deps, selector);
  }
}

/** One declined card of an intent that stays payable: the hold stays for another try, nothing changes. */
async function noteFailedAttempt(deps: Deps, selector: IntentSelector): Promise<PaymentOutcome | null> {
  const intent =
    'reference' in selector
      ? await deps.db.payments.findIntentByReference(selector.processor, selector.reference)
      : await deps.db.payments.findIntentBySecretHash(selector.secretHash);
  return intent && intent.processor === selector.processor ? unchanged(intent) : null;
}

const unchanged = (intent: IntentRow): PaymentOutcome => ({
  intentId: intent.id,
  intentStatus: intent.status,
  changed: false,
  refundErrors: [],
});

async function recordFailure(deps: Deps, selector: IntentSelector): Promise<PaymentOutcome | null> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const settling = await tx.payments.settleIntentOf(selector, 'failed', failureFrom, now.toISOString());
    if (!settling) return null;
    const { intent } = settling;
    if (!settling.changed) return unchanged(intent);
    await failProcessingBookings(
      tx,
      (await tx.payments.bookingsOfIntent(intent.id)).map((b) => b.id),
      now,
      deps.waitlistOfferTtlSeconds,
    );
    return { ...unchanged(intent), intentStatus: 'failed', changed: true };
  });
}

async function recordSuccess(deps: Deps, selector: IntentSelector): Promise<PaymentOutcome | null> {
  const recorded = await deps.db.transaction(async (tx) => {
    const at = deps.now().toISOString();
    // The intent settled, then (when it was) the cart's checkouts and its bookings (locked) read with it: one statement on PostgreSQL.
    const settling = await tx.payments.settleIntentWithPayment(selector, 'succeeded', successFrom, at);
    if (!settling) return null;
    const { intent, payment } = settling;
    if (!settling.changed || !payment) return { intent, refunds: [], changed: false };
    const current = paysCurrentCheckout(payment.checkouts, intent);
    const refunds: ReservedRefund[] = [];
    const statuses: BookingStatus[] = [];
    const confirmed: string[] = [];
    for (const booking of payment.bookings) {
      const settled = await settleBooking(tx, intent, booking, current, at);
      statuses.push(settled.status);
      if (settled.refund) refunds.push(settled.refund);
      if (settled.confirm) confirmed.push(booking.id);
    }
    // The confirmations and the cart written together (one statement on PostgreSQL).
    await tx.payments.settlePayment(confirmed, cartIsPaid(current, statuses) ? intent.cartId : null, at);
    return { intent, refunds, changed: true };
  });
  if (!recorded) return null;
  const refundErrors: PaymentOutcome['refundErrors'] = [];
  for (const refund of recorded.refunds) {
    try {
      await completeRefund(deps, refund);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refundErrors.push({ bookingId: refund.bookingId, code: error.code, message: error.message });
    }
  }
  return { intentId: recorded.intent.id, intentStatus: 'succeeded', changed: recorded.changed, refundErrors };
}

/**
 * Applies a succeeded payment to one booking; returns its status then and the refund it needs, already
 * reserved. A booking to confirm (`confirm`) has its event recorded here and its status written by the
 * caller, with the cart.
 */
async function settleBooking(
  tx: Transaction,
  intent: IntentRow,
  booking: IntentBookingRow,
  current: boolean,
  at: string,
): Promise<{ status: BookingStatus; refund?: ReservedRefund; confirm?: true }> {
  const action = succeededAction(booking, current);
  switch (action.kind) {
    case 'none':
      return { status: booking.status };
    case 'confirm':
      // Paid: its places stay reserved but no longer count as an unpaid publishable hold.
      await leavePublishableShare(tx, [
        { sessionId: booking.sessionId, places: booking.activeParticipants, publishableHold: booking.publishableHold },
      ]);
      await recordConfirmed(tx, booking, at);
      return { status: 'confirmed', confirm: true };
    case 'retake':
      if (await retake(tx, booking)) {
        await recordConfirmed(tx, booking, at);
        return { status: 'confirmed', confirm: true };
      }
      return action.amountMinor > 0
        ? { status: 'cancelled', refund: await refundInFull(tx, intent, booking, action.amountMinor, at) }
        : { status: booking.status };
    case 'refund':
      return { status: 'cancelled', refund: await refundInFull(tx, intent, booking, action.amountMinor, at) };
  }
}

/** booking.confirmed, its view made from the record the booking was read with and the status its caller writes. */
async function recordConfirmed(tx: Stores, booking: IntentBookingRow, at: string): Promise<void> {
  const view = toBooking(recordAsWritten(booking.record, { status: 'confirmed', at }));
  await recordBookingEventsOf(tx, [view], ['booking.confirmed'], at);
}

class NotHonoured extends Error {}

/**
 * Takes again what a lapsed hold gave back: the places and the credit redeemed. All or nothing (a
 * savepoint): false when any of it is gone.
 */
async function retake(tx: Transaction, booking: IntentBookingRow): Promise<boolean> {
  try {
    await tx.savepoint(async (sp) => {
      if (!(await sp.capacity.takePlaces(booking.sessionId, booking.activeParticipants))) throw new NotHonoured();
      for (const discount of booking.pricing.discounts) {
        if (discount.kind !== 'credit' || discount.code === undefined || discount.amountMinor === 0) continue;
        const credit = {
          id: randomUUID(),
          bookingId: booking.id,
          brandId: booking.brandId,
          code: discount.code,
          amountMinor: discount.amountMinor,
        };
        if (!(await sp.payments.redeemCreditAgain(credit))) throw new NotHonoured();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof NotHonoured) return false;
    throw error;
  }
}

/**
 * A paid booking that holds no places and cannot be honoured is cancelled (if it is not already) and
 * its remaining amount reserved for a refund; settling the refund makes it `refunded`. Were the
 * processor to decline, the booking stays cancelled and paid, so the partner can refund it by hand.
 */
async function refundInFull(
  tx: Stores,
  intent: IntentRow,
  booking: IntentBookingRow,
  amountMinor: number,
  at: string,
): Promise<ReservedRefund> {
  if (booking.status !== 'cancelled') {
    await tx.payments.cancelActiveParticipants(booking.id, at);
    await tx.cancellation.setBookingStatus(booking.id, 'cancelled', at);
    const active = booking.record.participants.filter((p) => p.cancelledAt === null).map((p) => p.id);
    const view = toBooking(recordAsWritten(booking.record, { cancelled: active, status: 'cancelled', at }));
    await recordBookingEventsOf(tx, [view], ['booking.cancelled'], at);
  }
  // Once refunded, the cart may be settled: stored with the refund, so the reconciler does it too after a crash.
  const effect = { cancel: false, participantIds: null, also: { kind: 'settle-cart' as const, intentId: intent.id } };
  return reserveRefund(
    tx,
    { id: booking.id, intentReference: intent.processorReference, currency: booking.currency },
    { amountMinor, effect, at },
  );
}
