import type { BookingRecord, BookingRow, CartCheckouts } from '../bookings/store.ts';
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
  /** The booking as its view is built (findBookingRecords), read with the rest: its events' view is made from it and what the unit wrote. */
  record: BookingRecord;
};

/** An intent due to be asked about at its processor. */
export interface IntentCheckRow {
  id: string;
  processorReference: string;
  status: PaymentIntentStatus;
  processorCheckAt: string;
}

/** Which intent a payment outcome is for: by the processor's reference (its events) or its client secret's hash (the sandbox's confirm). */
export type IntentSelector = { processor: string } & ({ reference: string } | { secretHash: string });

/** The intent a payment outcome read (its status as read), and whether its status was set. */
export interface IntentSettling {
  intent: IntentRow;
  changed: boolean;
}

/** What a succeeded payment settles: the intent's bookings (as bookingsOfIntent) and its cart's checkouts (as CartsStore.checkoutsOfCart). */
export interface IntentPayment {
  bookings: IntentBookingRow[];
  checkouts: CartCheckouts;
}

export interface PaymentsStore {
  /**
   * Intents of `processor` whose check is due at `now` (`processorCheckAt` at or before it) and that may
   * still need one (`requires_payment` or `canceled`), the first due first (then by id), at most `limit`.
   */
  dueIntentChecks(processor: string, now: string, limit: number): Promise<IntentCheckRow[]>;
  /**
   * Moves an intent's next check from `seen` to `until` (a lease: no other caller, on any gateway, takes it
   * before then); false, and nothing changed, when its check is no longer `seen` (someone else took it).
   */
  leaseIntentCheck(id: string, seen: string, until: string): Promise<boolean>;
  /** Sets when the intent is next asked about (null: never again). */
  setIntentCheck(id: string, at: string | null): Promise<void>;
  findIntentByReference(processor: string, reference: string): Promise<IntentRow | undefined>;
  findIntentBySecretHash(secretHash: string): Promise<IntentRow | undefined>;
  findIntentById(id: string): Promise<IntentRow | undefined>;
  /** Sets a settled status (`succeeded`, `failed`): nothing is left to ask the processor about it. */
  setIntentStatus(id: string, status: PaymentIntentStatus, at: string): Promise<void>;
  /**
   * The intent of `selector`, read locked until the unit ends (as findIntentByReference in a unit), and its
   * status set to `status` (as setIntentStatus) when the status read is one of `from`. Undefined, and
   * nothing changed, when no intent matches. One statement where the engine can.
   */
  settleIntentOf(
    selector: IntentSelector,
    status: PaymentIntentStatus,
    from: readonly PaymentIntentStatus[],
    at: string,
  ): Promise<IntentSettling | undefined>;
  /**
   * settleIntentOf, and when it set the status, the payment it settles (`payment`: paymentOfIntent of the
   * intent read, its bookings locked after the intent): one statement where the engine can.
   */
  settleIntentWithPayment(
    selector: IntentSelector,
    status: PaymentIntentStatus,
    from: readonly PaymentIntentStatus[],
    at: string,
  ): Promise<(IntentSettling & { payment?: IntentPayment }) | undefined>;
  /**
   * bookingsOfIntent(intent.id) (locked in a unit, as it locks) and CartsStore.checkoutsOfCart(intent.cartId)
   * together: one statement where the engine can.
   */
  paymentOfIntent(intent: { id: string; cartId: string }): Promise<IntentPayment>;
  /** The bookings an intent pays for, in cart item order (cart position, then id). */
  bookingsOfIntent(intentId: string): Promise<IntentBookingRow[]>;
  /** Marks the booking's still-active participants cancelled at `at`. */
  cancelActiveParticipants(bookingId: string, at: string): Promise<void>;
  markCartPaid(cartId: string, at: string): Promise<void>;
  /**
   * Confirms the bookings of `confirmIds` (as CancellationStore.setBookingStatus(id, 'confirmed', at)
   * does) and marks the cart `paidCartId` paid when given (as markCartPaid): one statement where the
   * engine can, the bookings written before the cart.
   */
  settlePayment(confirmIds: readonly string[], paidCartId: string | null, at: string): Promise<void>;
  /**
   * Takes `amountMinor` from the brand's credit code `code` again for a booking (whose earlier redemption
   * was given back when its hold lapsed): false, and nothing changed, when the code is gone or its balance
   * no longer covers it.
   */
  redeemCreditAgain(input: { id: string; bookingId: string; brandId: string; code: string; amountMinor: number }): Promise<boolean>;
}
