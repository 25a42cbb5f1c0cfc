/**
 * Reading a booking's cancellation state and writing what a cancel item does to it: shared by the
 * cancel request (no refund, or a refund it settles itself) and by refund settlement (src/domain/
 * refunds.ts), which applies the effect stored with a refund once the processor has refunded.
 */
import type { Db } from '../../db/sqlite/client.ts';
import {
  cancelParticipants,
  countPendingRefunds,
  findCancellableBooking,
  participantStates,
  setBookingStatus,
  touchBooking,
  type CancellableBooking,
} from '../../db/sqlite/stores/cancellation/cancellation.ts';
import { cancellationEventTypes, recordBookingEvents } from '../bookings/booking-events.ts';
import { cancellationEffect, type BookingState, type CancelRequest } from './rules.ts';
import { notFound } from '../shared/errors.ts';
import { releaseSessionPlaces } from '../waitlists/offers.ts';

export interface BookingWithState {
  booking: CancellableBooking;
  state: BookingState;
}

export function readState(db: Db, bookingId: string): BookingWithState {
  const booking = findCancellableBooking(db, bookingId);
  if (!booking) throw notFound('Booking', bookingId);
  return {
    booking,
    state: {
      status: booking.status,
      amountMinor: booking.amountMinor,
      amountRefundedMinor: booking.amountRefundedMinor,
      paid: booking.intentStatus === 'succeeded',
      otherPendingRefunds: countPendingRefunds(db, bookingId),
      participants: participantStates(db, bookingId),
    },
  };
}

/**
 * Writes what `request` does to the booking as it stands, with its events (`refundSettled`: a refund of
 * the item just succeeded); places go back to the session in the same transaction as the participants
 * change, after the booking's own events, so any event the freed places cause comes after them. The
 * freed places go to the session's waitlist first (offers held for `offerTtlSeconds`).
 */
export function applyEffect(
  db: Db,
  { booking, state }: BookingWithState,
  request: CancelRequest,
  at: string,
  refundSettled: boolean,
  offerTtlSeconds: number,
): void {
  const effect = cancellationEffect(state, request);
  cancelParticipants(db, effect.cancelParticipantIds, at);
  if (effect.status !== booking.status) setBookingStatus(db, booking.id, effect.status, at);
  else if (effect.cancelParticipantIds.length > 0) touchBooking(db, booking.id, at);
  recordBookingEvents(db, [booking.id], cancellationEventTypes(state, effect, refundSettled), at);
  releaseSessionPlaces(db, booking.sessionId, effect.releasePlaces, new Date(at), offerTtlSeconds);
}
