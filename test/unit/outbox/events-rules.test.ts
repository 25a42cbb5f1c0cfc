/** Which booking events a cancel item makes, for every kind of change (and none for no change). */
import { describe, expect, it } from 'vitest';
import { cancellationEventTypes } from '../../../src/domain/bookings/booking-events.ts';
import { cancellationEffect, type BookingState, type BookingStatus, type CancelRequest } from '../../../src/domain/cancellation/rules.ts';

const AT = '2026-11-25T12:00:00.000Z';

function state(status: BookingStatus, cancelled: boolean[] = [false, false], refundedMinor = 0, otherPendingRefunds = 0): BookingState {
  return {
    status,
    amountMinor: 10_000,
    amountRefundedMinor: refundedMinor,
    paid: true,
    paymentMethod: 'credit-card',
    otherPendingRefunds,
    participants: cancelled.map((c, i) => ({ id: `p${i}`, cancelledAt: c ? AT : null })),
  };
}

const request = (cancel: boolean, participantIds: string[] | null = null, refundMinor: number | null = null): CancelRequest => ({
  cancel,
  participantIds,
  refundMinor,
});

/** With a refund, the state is read after it settled: its amount is in amountRefundedMinor. */
const cases: Array<[string, BookingState, CancelRequest, string[]]> = [
  ['cancel a confirmed booking', state('confirmed'), request(true), ['booking.cancelled']],
  ['cancel a processing booking', state('processing'), request(true), ['booking.cancelled']],
  ['cancel one of two participants', state('confirmed'), request(false, ['p0']), ['booking.participants_cancelled']],
  ['cancel the last active participant', state('confirmed', [true, false]), request(false, ['p1']), ['booking.cancelled']],
  ['list every participant at once', state('confirmed'), request(false, ['p0', 'p1']), ['booking.cancelled']],
  ['list only already-cancelled participants', state('confirmed', [true, false]), request(false, ['p0']), []],
  ['cancel a cancelled booking', state('cancelled', [true, true]), request(true), []],
  // A refunded booking with guests still active (refunded before full refunds cancelled them): cancelling it is a cancellation (no places move).
  ['cancel a refunded booking', state('refunded', [false, false], 10_000), request(true), ['booking.cancelled']],
  ['refund part of a confirmed booking', state('confirmed', [false, false], 3000), request(false, null, 3000), ['booking.refunded']],
  // A full refund is a cancellation with refund: its guests go with their places.
  [
    'refund all of a confirmed booking',
    state('confirmed', [false, false], 10_000),
    request(false, null, 10_000),
    ['booking.cancelled', 'booking.refunded'],
  ],
  [
    'refund all while another refund is pending',
    state('confirmed', [false, false], 10_000, 1),
    request(false, null, 5000),
    ['booking.refunded'],
  ],
  ['refund a cancelled booking', state('cancelled', [true, true], 10_000), request(false, null, 10_000), ['booking.refunded']],
  [
    'cancel with a partial refund',
    state('confirmed', [false, false], 4550),
    request(true, null, 4550),
    ['booking.cancelled', 'booking.refunded'],
  ],
  [
    'cancel with a full refund',
    state('confirmed', [false, false], 10_000),
    request(true, null, 10_000),
    ['booking.cancelled', 'booking.refunded'],
  ],
  [
    'cancel one participant with a refund',
    state('confirmed', [false, false], 5000),
    request(false, ['p1'], 5000),
    ['booking.participants_cancelled', 'booking.refunded'],
  ],
];

describe('cancellationEventTypes', () => {
  it.each(cases)('%s', (_, before, req, expected) => {
    expect(cancellationEventTypes(before, cancellationEffect(before, req), req.refundMinor !== null)).toEqual(expected);
  });
});
