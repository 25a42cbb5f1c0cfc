/**
 * Booking events: which events a change makes, and recording them with the booking as the API shows
 * it after the change, inside the change's own transaction.
 */
import type { Stores } from '../shared/database.ts';
import { bookingViewsIn, type Booking } from './booking-view.ts';
import { holdsPlaces, type BookingState, type CancellationEffect } from '../cancellation/rules.ts';
import { recordEvent, type EventIdSource, type EventType } from '../outbox/outbox.ts';

export type BookingEventType = Extract<EventType, `booking.${string}`>;

/** The spec's Booking, as REST shows it: the brand is the event's, and the GraphQL-only fields are left out. */
export function bookingPayload(view: Booking): Record<string, unknown> {
  const { brandId: _brand, sessionId: _session, amountDue: _due, chargedTo: _chargedTo, ...resource } = view;
  return resource;
}

/**
 * Records each of `types`, in order, for each of `bookingIds`, in order. The views are taken once, in
 * one batch, after the change: every payload shows the state the change left. Call inside the
 * transaction that made the change (`tx`). `eventId` names the events (random ids without it).
 * Returns the views the payloads were made from (none when there was nothing to record): a caller
 * that writes nothing more to these bookings in the unit can answer with them instead of reading again.
 */
export async function recordBookingEvents(
  tx: Stores,
  bookingIds: readonly string[],
  types: readonly BookingEventType[],
  at: string,
  eventId?: EventIdSource,
): Promise<Booking[]> {
  if (bookingIds.length === 0 || types.length === 0) return [];
  const views = await bookingViewsIn(tx, bookingIds);
  if (views.length !== bookingIds.length) throw new Error('A booking changed in this transaction has no view');
  return recordBookingEventsOf(tx, views, types, at, eventId);
}

/**
 * recordBookingEvents with the views given: the bookings as the change left them, which the caller built
 * from what it read in the unit and wrote (a checkout from the rows it inserted, `toBooking`; a cancel or
 * a payment from its locked read, `recordAsWritten`), so nothing it just wrote is read again. Returns `views`.
 */
export async function recordBookingEventsOf(
  tx: Stores,
  views: readonly Booking[],
  types: readonly BookingEventType[],
  at: string,
  eventId?: EventIdSource,
): Promise<Booking[]> {
  if (views.length === 0 || types.length === 0) return [];
  for (const view of views) {
    const payload = bookingPayload(view);
    for (const type of types)
      await recordEvent(tx, { id: eventId?.(type, view.id), brandId: view.brandId, type, resourceId: view.id, payload, at });
  }
  return [...views];
}

export async function recordBookingEvent(
  tx: Stores,
  type: BookingEventType,
  bookingId: string,
  at: string,
  eventId?: EventIdSource,
): Promise<void> {
  await recordBookingEvents(tx, [bookingId], [type], at, eventId);
}

/**
 * The events of an accepted cancel item. `before` is the state the effect was computed from;
 * `refundSettled` says a refund of the item just succeeded.
 * - All active participants of a processing or confirmed booking cancelled: `booking.cancelled` (also
 *   when a full refund makes the status `refunded` at once), never `participants_cancelled` as well.
 * - Some of them cancelled: `booking.participants_cancelled`.
 * - Every settled refund, partial or full: `booking.refunded` (its `amountRefunded` shows the total).
 * Nothing for a change that changes nothing (cancelling a cancelled booking).
 */
export function cancellationEventTypes(before: BookingState, effect: CancellationEffect, refundSettled: boolean): BookingEventType[] {
  const active = before.participants.filter((p) => p.cancelledAt === null).length;
  const cancelled = effect.cancelParticipantIds.length;
  const types: BookingEventType[] = [];
  // The booking is cancelled when its last active participants are: held places or, refunded, none.
  const cancellable = holdsPlaces(before.status) || before.status === 'refunded';
  if (cancellable && cancelled > 0 && cancelled === active) types.push('booking.cancelled');
  else if (cancelled > 0) types.push('booking.participants_cancelled');
  if (refundSettled) types.push('booking.refunded');
  return types;
}
