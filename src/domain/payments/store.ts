import type { BookingRow } from '../bookings/store.ts';
import type { PaymentIntentStatus } from '../shared/values.ts';

/** What handling a payment outcome needs of an intent (never its secret hash). */
export interface IntentRow {
  id: string;
  cartId: string;
  processor: string;
  processorReference: string;
  status: PaymentIntentStatus;
}

/** What a payment outcome decides on for each booking paid by an intent. */
export type IntentBookingRow = Pick<
  BookingRow,
  'id' | 'brandId' | 'sessionId' | 'status' | 'publishableHold' | 'currency' | 'amountMinor' | 'amountRefundedMinor' | 'pricing'
> & {
  /** Participants whose `cancelledAt` is null: the places the booking needs. */
  activeParticipants: number;
};

export interface PaymentsStore {
  findIntentByReference(processor: string, reference: string): Promise<IntentRow | undefined>;
  findIntentBySecretHash(secretHash: string): Promise<IntentRow | undefined>;
  findIntentById(id: string): Promise<IntentRow | undefined>;
  setIntentStatus(id: string, status: PaymentIntentStatus, at: string): Promise<void>;
  /** The bookings an intent pays for, in cart item order (cart position, then id). */
  bookingsOfIntent(intentId: string): Promise<IntentBookingRow[]>;
  /** Marks the booking's still-active participants cancelled at `at`. */
  cancelActiveParticipants(bookingId: string, at: string): Promise<void>;
  markCartPaid(cartId: string, at: string): Promise<void>;
  /**
   * Takes `amountMinor` from the brand's credit code `code` again for a booking (whose earlier redemption
   * was given back when its hold lapsed): false, and nothing changed, when the code is gone or its balance
   * no longer covers it.
   */
  redeemCreditAgain(input: { id: string; bookingId: string; brandId: string; code: string; amountMinor: number }): Promise<boolean>;
}
