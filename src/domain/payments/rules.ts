/**
 * What a payment outcome does, as pure functions of the state it finds. payments.ts reads the state
 * in a transaction, asks these rules and writes the answer.
 */
import type { BookingStatus } from '../cancellation/rules.ts';

import type { PaymentIntentStatus } from '../shared/values.ts';

export type IntentStatus = PaymentIntentStatus;

/** A succeeded payment is recorded once; a repeat (or a second processor notice) changes nothing. */
export const recordsSuccess = (intent: IntentStatus) => intent !== 'succeeded';

/**
 * A failed payment only matters while the intent is still awaiting payment: after a success it changes
 * nothing (the money was captured), a repeat changes nothing, and a `canceled` intent (its checkout was
 * replaced or its holds lapsed) has no bookings left to fail.
 */
export const recordsFailure = (intent: IntentStatus) => intent === 'requires_payment';

export type SucceededAction =
  /** Places are held: the booking is confirmed. */
  | { kind: 'confirm' }
  /** The hold lapsed: take the places again and confirm; if they are gone, refund `amountMinor`. */
  | { kind: 'retake'; amountMinor: number }
  /** The booking cannot be honoured: give back what is left of its amount. */
  | { kind: 'refund'; amountMinor: number }
  | { kind: 'none' };

export interface PaidBooking {
  status: BookingStatus;
  amountMinor: number;
  amountRefundedMinor: number;
}

/**
 * What a succeeded payment does to one of the bookings it pays for. `current` says whether the intent
 * is the cart's current checkout: a late payment of a checkout that was replaced is never honoured
 * (the cart's new bookings stand instead), so its bookings are refunded. A booking cancelled while the
 * guest was paying is refunded too. Nothing is ever left paid and unusable, except an amount of 0.
 */
export function succeededAction(booking: PaidBooking, current: boolean): SucceededAction {
  const left = booking.amountMinor - booking.amountRefundedMinor;
  switch (booking.status) {
    case 'processing':
      return { kind: 'confirm' };
    case 'failed':
      if (current) return { kind: 'retake', amountMinor: left };
      return left > 0 ? { kind: 'refund', amountMinor: left } : { kind: 'none' };
    case 'cancelled':
      return left > 0 ? { kind: 'refund', amountMinor: left } : { kind: 'none' };
    case 'confirmed':
    case 'refunded':
      return { kind: 'none' };
  }
}

/** The cart is paid once its current checkout's payment succeeded and each of its bookings is settled. */
export function cartIsPaid(current: boolean, statuses: readonly BookingStatus[]): boolean {
  return current && statuses.length > 0 && statuses.every((s) => s === 'confirmed' || s === 'refunded');
}
