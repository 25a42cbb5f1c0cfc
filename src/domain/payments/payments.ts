/**
 * Payment outcomes, learnt only from verified processor events (the sandbox's confirm route signs its
 * events too, so both take this path). Each outcome is recorded in one transaction that reads the intent
 * first, so a repeated or racing event finds it settled and changes nothing. A succeeded payment that
 * cannot be honoured is refunded through the refund ledger: the pending refund is recorded in that same
 * transaction, and the processor is asked afterwards, outside it.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction, type Db } from '../../db/sqlite/client.ts';
import { takePlaces } from '../../db/sqlite/stores/availability/capacity.ts';
import { setBookingStatus } from '../../db/sqlite/stores/cancellation/cancellation.ts';
import {
  bookingsOfIntent,
  cancelActiveParticipants,
  findIntentByReference,
  redeemCreditAgain,
  setIntentStatus,
  withSavepoint,
  type IntentBookingRow,
  type IntentRow,
} from '../../db/sqlite/stores/payments/payments.ts';
import { recordBookingEvent } from '../bookings/booking-events.ts';
import { isCurrentCheckout, settleCart } from './cart-settlement.ts';
import type { Deps } from '../shared/deps.ts';
import { DomainError, type ErrorCode } from '../shared/errors.ts';
import { failProcessingBookings } from '../checkout/holds.ts';
import type { PaymentEvent } from './processor.ts';
import { recordsFailure, recordsSuccess, succeededAction, type IntentStatus } from './rules.ts';
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
export async function handlePaymentEvent(deps: Deps, event: PaymentEvent): Promise<PaymentOutcome | null> {
  if (event.type === 'payment_intent.payment_failed') return recordFailure(deps, event.intentReference);
  return recordSuccess(deps, event.intentReference);
}

const unchanged = (intent: IntentRow): PaymentOutcome => ({ intentId: intent.id, intentStatus: intent.status, changed: false, refundErrors: [] });

function recordFailure(deps: Deps, reference: string): PaymentOutcome | null {
  return inTransaction(deps.db, (tx) => {
    const intent = findIntentByReference(tx, deps.payments.name, reference);
    if (!intent) return null;
    if (!recordsFailure(intent.status)) return unchanged(intent);
    const now = deps.now();
    setIntentStatus(tx, intent.id, 'failed', now.toISOString());
    failProcessingBookings(tx, bookingsOfIntent(tx, intent.id).map((b) => b.id), now, deps.waitlistOfferTtlSeconds);
    return { ...unchanged(intent), intentStatus: 'failed', changed: true };
  });
}

async function recordSuccess(deps: Deps, reference: string): Promise<PaymentOutcome | null> {
  const recorded = inTransaction(deps.db, (tx) => {
    const intent = findIntentByReference(tx, deps.payments.name, reference);
    if (!intent) return null;
    if (!recordsSuccess(intent.status)) return { intent, refunds: [], changed: false };
    const at = deps.now().toISOString();
    setIntentStatus(tx, intent.id, 'succeeded', at);
    const current = isCurrentCheckout(tx, intent);
    const refunds = bookingsOfIntent(tx, intent.id).flatMap((booking) => settleBooking(tx, intent, booking, current, at));
    settleCart(tx, intent, at);
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

/** Applies a succeeded payment to one booking; returns the refund it needs, already reserved. */
function settleBooking(tx: Db, intent: IntentRow, booking: IntentBookingRow, current: boolean, at: string): ReservedRefund[] {
  const action = succeededAction(booking, current);
  switch (action.kind) {
    case 'none':
      return [];
    case 'confirm':
      setBookingStatus(tx, booking.id, 'confirmed', at);
      recordBookingEvent(tx, 'booking.confirmed', booking.id, at);
      return [];
    case 'retake':
      if (retake(tx, booking)) {
        setBookingStatus(tx, booking.id, 'confirmed', at);
        recordBookingEvent(tx, 'booking.confirmed', booking.id, at);
        return [];
      }
      return action.amountMinor > 0 ? [refundInFull(tx, intent, booking, action.amountMinor, at)] : [];
    case 'refund':
      return [refundInFull(tx, intent, booking, action.amountMinor, at)];
  }
}

class NotHonoured extends Error {}

/**
 * Takes again what a lapsed hold gave back: the places and the credit redeemed. All or nothing (a
 * savepoint): false when any of it is gone.
 */
function retake(tx: Db, booking: IntentBookingRow): boolean {
  try {
    withSavepoint(tx, (sp) => {
      if (!takePlaces(sp, booking.sessionId, booking.activeParticipants)) throw new NotHonoured();
      for (const discount of booking.pricing.discounts) {
        if (discount.kind !== 'credit' || discount.code === undefined || discount.amountMinor === 0) continue;
        const credit = { id: randomUUID(), bookingId: booking.id, brandId: booking.brandId, code: discount.code, amountMinor: discount.amountMinor };
        if (!redeemCreditAgain(sp, credit)) throw new NotHonoured();
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
function refundInFull(tx: Db, intent: IntentRow, booking: IntentBookingRow, amountMinor: number, at: string): ReservedRefund {
  if (booking.status !== 'cancelled') {
    cancelActiveParticipants(tx, booking.id, at);
    setBookingStatus(tx, booking.id, 'cancelled', at);
    recordBookingEvent(tx, 'booking.cancelled', booking.id, at);
  }
  // Once refunded, the cart may be settled: stored with the refund, so the reconciler does it too after a crash.
  const effect = { cancel: false, participantIds: null, also: { kind: 'settle-cart' as const, intentId: intent.id } };
  return reserveRefund(tx, { id: booking.id, intentReference: intent.processorReference, currency: booking.currency }, { amountMinor, effect, at });
}
