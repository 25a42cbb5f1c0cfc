/**
 * Reading a booking's cancellation state and writing what a cancel item does to it: shared by the
 * cancel request (no refund, or a refund it settles itself) and by refund settlement (src/domain/
 * refunds.ts), which applies the effect stored with a refund once the processor has refunded.
 */
import type { Stores } from '../shared/database.ts';
import { toBooking, type Booking } from '../bookings/booking-view.ts';
import { type CancellableBooking } from './store.ts';
import { cancellationEventTypes, recordBookingEventsOf } from '../bookings/booking-events.ts';
import type { BookingRecord } from '../bookings/store.ts';
import { recordAsWritten } from '../bookings/written-record.ts';
import { cancellationEffect, type BookingState, type CancelRequest } from './rules.ts';
import { notFound } from '../shared/errors.ts';
import { releaseSessionPlaces } from '../waitlists/offers.ts';
import { countsInShare, leavePublishableShare } from '../checkout/holds.ts';
import type { SessionOfExperience, SessionWithWaitlist } from '../availability/store.ts';

export interface BookingWithState {
  booking: CancellableBooking;
  state: BookingState;
  /** Its view's record as read, before the unit changed anything. */
  record: BookingRecord;
  /** Its session as read with it, before the unit changed anything. */
  session: SessionWithWaitlist;
}

/** What applying an effect left: the booking's view, and its session when the unit knows it as it now is. */
export interface AppliedEffect {
  /** The booking as its events show it (undefined when the effect recorded no event, so took no view). */
  view: Booking | undefined;
  /**
   * The session as the unit left it: as read when no place moved, as the release returned it otherwise;
   * undefined when the unit changed it after that (offers to its waitlist).
   */
  session: SessionOfExperience | undefined;
}

export async function readState(db: Stores, bookingId: string): Promise<BookingWithState> {
  const found = await db.cancellation.findBookingToCancel(bookingId);
  if (!found) throw notFound('Booking', bookingId);
  const { booking, record, session } = found;
  return {
    booking,
    record,
    session,
    state: {
      status: booking.status,
      amountMinor: booking.amountMinor,
      amountRefundedMinor: booking.amountRefundedMinor,
      paid: booking.intentStatus === 'succeeded',
      paymentMethod: booking.paymentMethod,
      otherPendingRefunds: found.pendingRefunds,
      participants: found.participants,
    },
  };
}

/**
 * Writes what `request` does to the booking as it stands, with its events (`refundSettled`: a refund of
 * the item just succeeded); places go back to the session in the same transaction as the participants
 * change, after the booking's own events, so any event the freed places cause comes after them. The
 * freed places go to the session's waitlist first (offers held for `offerTtlSeconds`). Returns the
 * booking as its events show it, which nothing after them in this function changes, and its session as
 * the unit left it (AppliedEffect).
 */
export async function applyEffect(
  db: Stores,
  { booking, state, record, session }: BookingWithState,
  request: CancelRequest,
  at: string,
  refundSettled: boolean,
  offerTtlSeconds: number,
): Promise<AppliedEffect> {
  const effect = cancellationEffect(state, request);
  const status = effect.status !== booking.status ? effect.status : null;
  await db.cancellation.cancelParticipants(booking.id, effect.cancelParticipantIds, status, at);
  const written = toBooking(recordAsWritten(record, { cancelled: effect.cancelParticipantIds, status, at }));
  const [view] = await recordBookingEventsOf(db, [written], cancellationEventTypes(state, effect, refundSettled), at);
  if (countsInShare(booking)) {
    await leavePublishableShare(db, [
      { sessionId: booking.sessionId, places: effect.releasePlaces, publishableHold: booking.publishableHold },
    ]);
  }
  const released = await releaseSessionPlaces(db, booking.sessionId, effect.releasePlaces, new Date(at), offerTtlSeconds);
  const now = effect.releasePlaces === 0 ? session : released === undefined ? undefined : { ...session, session: released };
  return { view, session: now && { ...now, brandId: booking.brandId, timezoneId: record.timezone } };
}
