import type { BookingRecord, BookingRow } from '../bookings/store.ts';
import type { SessionWithWaitlist } from '../availability/store.ts';
import type { BookingStatus, PaymentIntentStatus, RefundStatus } from '../shared/values.ts';
export type { RefundStatus } from '../shared/values.ts';
import type { RefundEffectJson } from '../shared/json-types.ts';

/** What cancelling and refunding one booking needs: its row and the state of its payment. */
export type CancellableBooking = Pick<
  BookingRow,
  'id' | 'brandId' | 'sessionId' | 'status' | 'publishableHold' | 'currency' | 'amountMinor' | 'amountRefundedMinor' | 'paymentMethod'
> & {
  /** The processor's id of the booking's payment intent; null when the booking has none (free, or paid outside Tessera). */
  intentReference: string | null;
  intentStatus: PaymentIntentStatus | null;
};

/** A refund with what asking the processor about it and settling it need. */
export interface RefundRow {
  id: string;
  bookingId: string;
  amountMinor: number;
  status: RefundStatus;
  effect: RefundEffectJson;
  attempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
  currency: string;
  /** The processor's id of the booking's payment intent (a refunded booking always has one). */
  intentReference: string | null;
}

/** A booking as a unit deciding on its cancellation or refund reads it. */
export interface BookingToCancel {
  booking: CancellableBooking;
  /** Its refunds still `pending`. */
  pendingRefunds: number;
  /** Its participants in position order, with when each was cancelled (null: active). */
  participants: Array<{ id: string; cancelledAt: string | null }>;
  /**
   * The booking as its view is built (findBookingRecords), read with the rest: a unit that changes it
   * makes its events' view from this and what it wrote, without reading the booking again.
   */
  record: BookingRecord;
  /**
   * Its session with the experience's waitlist, read with the rest (not locked): what the answer shows of
   * the session when the unit leaves it as it is, without reading it again after the unit.
   */
  session: SessionWithWaitlist;
}

export interface CancellationStore {
  /** The booking with all deciding on it needs, read at once (a hot path: every cancel and refund unit). */
  findBookingToCancel(id: string): Promise<BookingToCancel | undefined>;
  /** The cancellable bookings of `ids`, by id (unknown ids are absent). */
  findCancellableBookings(ids: readonly string[]): Promise<Map<string, CancellableBooking>>;
  /**
   * Marks the booking's still-active participants of `ids` cancelled at `at`, and writes the booking:
   * `status` as setBookingStatus does, or (null) only its `updatedAt` when `ids` is not empty. Nothing when
   * both are empty.
   */
  cancelParticipants(bookingId: string, ids: readonly string[], status: BookingStatus | null, at: string): Promise<void>;
  /** Sets the status; a booking leaving `processing` no longer has a hold that could lapse. */
  setBookingStatus(id: string, status: BookingStatus, at: string): Promise<void>;
  /**
   * Adds `amountMinor` to the booking's refunded total if it stays within the amount; false (and nothing
   * changed) otherwise. A guard: racing reservations never refund more than the amount.
   */
  reserveRefundAmount(bookingId: string, amountMinor: number, at: string): Promise<boolean>;
  /**
   * reserveRefundAmount and, when it reserved, insertPendingRefund of `refund` (for that booking and
   * amount): at once, one statement where the engine can. False (and nothing changed) when the amount
   * would exceed the booking's.
   */
  reservePendingRefund(refund: {
    id: string;
    bookingId: string;
    amountMinor: number;
    effect: RefundEffectJson;
    at: string;
  }): Promise<boolean>;
  /** Gives back an amount reserved by a refund that failed. */
  releaseRefundAmount(bookingId: string, amountMinor: number, at: string): Promise<void>;
}

export interface RefundsStore {
  findRefund(id: string): Promise<RefundRow | undefined>;
  /** A new `pending` refund, due for reconciliation from `at` on (the reconciler adds its grace period). */
  insertPendingRefund(row: { id: string; bookingId: string; amountMinor: number; effect: RefundEffectJson; at: string }): Promise<void>;
  /**
   * Settles a pending refund, counting the processor call that decided it; false when it was not
   * pending any more (someone else settled it first), and then nothing changed.
   */
  settleRefund(id: string, status: Exclude<RefundStatus, 'pending'>, processorReference: string | null, at: string): Promise<boolean>;
  /** Pending refunds due at `now` and created at or before `createdBy`, the first due first (then by id). */
  dueRefunds(now: string, createdBy: string, limit: number): Promise<RefundRow[]>;
  /** Every pending refund created at or before `createdBy`, oldest first (then by id). */
  pendingRefunds(createdBy: string): Promise<RefundRow[]>;
  /**
   * Claims what `dueRefunds(now, createdBy, limit)` would give: moves each one's next attempt to
   * `until`, a lease no other caller (process, gateway) gets past before it ends, and returns them so.
   * A refund another caller is claiming at that moment is skipped, not waited for. Atomic on its own:
   * not for use inside a unit of work.
   */
  claimDueRefunds(now: string, createdBy: string, limit: number, until: string): Promise<RefundRow[]>;
  /**
   * Moves a pending refund's next attempt to `until`, unless someone else (another process on the same
   * file) did first: true when this caller now holds it and may ask the processor.
   */
  leaseRefund(id: string, seenNextAttemptAt: string, until: string): Promise<boolean>;
  /**
   * Records a processor call that gave no answer. `nextAttemptAt` undefined keeps the refund's next
   * attempt as it is (the request path leaves the timing to the reconciler).
   */
  recordUnansweredAttempt(id: string, input: { error: string; nextAttemptAt?: string; at: string }): Promise<void>;
}
