/**
 * The booking state rules of cancellation and refunds, as pure functions of a booking's state and one
 * cancel item. The transactions in cancellation.ts read the state, ask these rules, and write the answer.
 */
import type { ErrorCode } from '../shared/errors.ts';
import type { BookingStatus, PaymentMethod } from '../shared/values.ts';

export type { BookingStatus };

export interface BookingState {
  status: BookingStatus;
  amountMinor: number;
  /** Includes the amounts of pending refunds (reserved) and of the refund being settled. */
  amountRefundedMinor: number;
  /** Whether the guest's money was captured: the booking's payment intent succeeded. */
  paid: boolean;
  /** How the booking is paid: a method paid outside Tessera (pay upon arrival...) has nothing to refund here. */
  paymentMethod: PaymentMethod;
  /** Pending refunds other than the one being settled; the booking is refunded only once all settled. */
  otherPendingRefunds: number;
  participants: ReadonlyArray<{ id: string; cancelledAt: string | null }>;
}

/** One item of a cancel request, with the refund amount already in minor units. */
export interface CancelRequest {
  cancel: boolean;
  /** Participants to cancel; when given, only these are cancelled (even with `cancel: true`). */
  participantIds: readonly string[] | null;
  refundMinor: number | null;
}

export interface Refusal {
  code: ErrorCode;
  message: string;
  field?: string;
}

/** Statuses whose active participants count against the session's capacity. */
export const holdsPlaces = (status: BookingStatus) => status === 'processing' || status === 'confirmed';

/** Whose participants a cancel request may still cancel: a refunded booking keeps its guests until cancelled. */
const hasCancellableParticipants = (status: BookingStatus) => status !== 'failed' && status !== 'cancelled';

/**
 * Why `request` cannot apply to the booking as it stands, or null. `field` is the item's path in the
 * request (`bookings.3`), used to name a participant id that is not the booking's.
 */
export function refusal(state: BookingState, request: CancelRequest, field: string): Refusal | null {
  if (state.status === 'failed') {
    return { code: 'BOOKING_NOT_CANCELLABLE', message: 'The booking failed: there is nothing to cancel or refund' };
  }
  const own = new Set(state.participants.map((p) => p.id));
  const stranger = (request.participantIds ?? []).findIndex((id) => !own.has(id));
  if (stranger >= 0) {
    const at = `${field}.participants.${stranger}`;
    return {
      code: 'PARTICIPANT_NOT_IN_BOOKING',
      message: `${at}: participant ${request.participantIds![stranger]} is not part of this booking`,
      field: at,
    };
  }
  if (request.refundMinor === null) return nothingToCancel(state, request, field);
  if (state.paymentMethod !== 'credit-card') {
    return {
      code: 'BOOKING_NOT_PAID',
      message: `The booking is paid by ${state.paymentMethod}, outside Tessera: no money was taken here, so none can be refunded here`,
    };
  }
  if (state.status === 'processing' || !state.paid) {
    return { code: 'BOOKING_NOT_PAID', message: 'Nothing was paid for this booking, so nothing can be refunded' };
  }
  if (state.amountRefundedMinor + request.refundMinor > state.amountMinor) {
    return {
      code: 'REFUND_EXCEEDS_BALANCE',
      message: 'The refund would take the refunded total above the booking amount',
      field: `${field}.refundAmount`,
    };
  }
  return null;
}

/**
 * A request without a refund must change something: naming only participants already cancelled, or
 * cancelling a booking none of whose participants is active, is refused with a code that says so.
 */
function nothingToCancel(state: BookingState, request: CancelRequest, field: string): Refusal | null {
  const active = new Set(state.participants.filter((p) => p.cancelledAt === null).map((p) => p.id));
  if (request.participantIds) {
    if (request.participantIds.some((id) => active.has(id))) return null;
    return {
      code: 'PARTICIPANT_ALREADY_CANCELLED',
      message: 'Every participant named is already cancelled: nothing would change',
      field: `${field}.participants`,
    };
  }
  if (request.cancel && active.size === 0) {
    return { code: 'BOOKING_ALREADY_CANCELLED', message: 'The booking is already cancelled: nothing would change' };
  }
  return null;
}

export interface CancellationEffect {
  /** Active participants to mark cancelled. */
  cancelParticipantIds: string[];
  /** Places to give back to the session. */
  releasePlaces: number;
  status: BookingStatus;
}

/**
 * What an accepted request does to the booking. With a refund, `state` is read after the refund
 * succeeded (its amount counted in `amountRefundedMinor`). A refunded booking cancelled becomes
 * `cancelled` (the spec's state table: any booking), its money and places unchanged (it held none);
 * the booking is refunded once the refunded total reaches the amount and no other refund is still
 * pending (one of them may yet fail and give its amount back). A full refund of a confirmed booking is
 * a cancellation with refund: its places go back with its participants, who get `cancelledAt`.
 */
export function cancellationEffect(state: BookingState, request: CancelRequest): CancellationEffect {
  const active = state.participants.filter((p) => p.cancelledAt === null).map((p) => p.id);
  let cancelIds: string[] = [];
  let status = state.status;
  if (hasCancellableParticipants(state.status)) {
    const listed = request.participantIds ? new Set(request.participantIds) : null;
    if (listed) cancelIds = active.filter((id) => listed.has(id));
    else if (request.cancel) cancelIds = active;
    if (listed ? cancelIds.length === active.length : request.cancel) status = 'cancelled';
  }
  const fullyRefunded = request.refundMinor !== null && state.amountRefundedMinor === state.amountMinor && state.otherPendingRefunds === 0;
  if (fullyRefunded && (status === 'confirmed' || status === 'cancelled')) status = 'refunded';
  // Places go back only with the guests who held them: a booking that stops holding places (refunded in
  // full, a cancellation with refund) cancels every active participant, so no guest list shows a guest
  // whose place was sold again.
  if (holdsPlaces(state.status) && !holdsPlaces(status)) cancelIds = active;
  const releasePlaces = holdsPlaces(state.status) ? cancelIds.length : 0;
  return { cancelParticipantIds: cancelIds, releasePlaces, status };
}
