import { describe, expect, it } from 'vitest';
import {
  cancellationEffect,
  refusal,
  type BookingState,
  type BookingStatus,
  type CancelRequest,
} from '../../../src/domain/cancellation/rules.ts';

/** A booking of 100.00 with participants p1 and p2 (both active unless said), paid unless processing or failed. */
function booking(status: BookingStatus, over: Partial<BookingState> = {}): BookingState {
  return {
    status,
    amountMinor: 10000,
    amountRefundedMinor: status === 'refunded' ? 10000 : 0,
    paid: status !== 'processing' && status !== 'failed',
    otherPendingRefunds: 0,
    participants: [
      { id: 'p1', cancelledAt: status === 'cancelled' ? 'earlier' : null },
      { id: 'p2', cancelledAt: status === 'cancelled' ? 'earlier' : null },
    ],
    ...over,
  };
}

const cancel: CancelRequest = { cancel: true, participantIds: null, refundMinor: null };
const only = (...ids: string[]): CancelRequest => ({ cancel: false, participantIds: ids, refundMinor: null });
const refund = (minor: number, extra: Partial<CancelRequest> = {}): CancelRequest => ({
  cancel: false,
  participantIds: null,
  refundMinor: minor,
  ...extra,
});

/** What a request ends in: the refusal's code, or the effect once its refund (if any) succeeded. */
function outcome(state: BookingState, request: CancelRequest) {
  const refused = refusal(state, request, 'bookings.0');
  if (refused) return refused.code;
  const after = { ...state, amountRefundedMinor: state.amountRefundedMinor + (request.refundMinor ?? 0) };
  const { status, cancelParticipantIds, releasePlaces } = cancellationEffect(after, request);
  return { status, cancelled: cancelParticipantIds, released: releasePlaces };
}

const p1Cancelled = {
  participants: [
    { id: 'p1', cancelledAt: 'earlier' },
    { id: 'p2', cancelledAt: null },
  ],
};

describe('booking state rules (spec transition table + decided moves), from every status', () => {
  const rows: Array<[string, BookingState, CancelRequest, ReturnType<typeof outcome>]> = [
    // cancel: true -> cancelled, every active participant cancelled, held places back
    ['cancel processing', booking('processing'), cancel, { status: 'cancelled', cancelled: ['p1', 'p2'], released: 2 }],
    ['cancel confirmed', booking('confirmed'), cancel, { status: 'cancelled', cancelled: ['p1', 'p2'], released: 2 }],
    [
      'cancel confirmed, one already out',
      booking('confirmed', p1Cancelled),
      cancel,
      { status: 'cancelled', cancelled: ['p2'], released: 1 },
    ],
    ['cancel cancelled is a no-op', booking('cancelled'), cancel, { status: 'cancelled', cancelled: [], released: 0 }],
    ['cancel refunded is a no-op', booking('refunded'), cancel, { status: 'refunded', cancelled: [], released: 0 }],
    ['cancel failed', booking('failed'), cancel, 'BOOKING_NOT_CANCELLABLE'],
    // participants: only those; the last one out cancels the booking
    ['one participant of processing', booking('processing'), only('p1'), { status: 'processing', cancelled: ['p1'], released: 1 }],
    ['one participant of confirmed', booking('confirmed'), only('p2'), { status: 'confirmed', cancelled: ['p2'], released: 1 }],
    [
      'every participant of confirmed',
      booking('confirmed'),
      only('p1', 'p2'),
      { status: 'cancelled', cancelled: ['p1', 'p2'], released: 2 },
    ],
    ['the last active participant', booking('confirmed', p1Cancelled), only('p2'), { status: 'cancelled', cancelled: ['p2'], released: 1 }],
    [
      'an already cancelled participant',
      booking('confirmed', p1Cancelled),
      only('p1'),
      { status: 'confirmed', cancelled: [], released: 0 },
    ],
    ['participants of cancelled', booking('cancelled'), only('p1'), { status: 'cancelled', cancelled: [], released: 0 }],
    ['participants of refunded', booking('refunded'), only('p1'), { status: 'refunded', cancelled: [], released: 0 }],
    ['participants of failed', booking('failed'), only('p1'), 'BOOKING_NOT_CANCELLABLE'],
    ['a stranger', booking('confirmed'), only('p1', 'p9'), 'PARTICIPANT_NOT_IN_BOOKING'],
    [
      'participants narrow cancel: true',
      booking('confirmed'),
      { ...only('p1'), cancel: true },
      { status: 'confirmed', cancelled: ['p1'], released: 1 },
    ],
    // refunds: the running total never passes the amount; reaching it refunds the booking
    ['partial refund of confirmed', booking('confirmed'), refund(3000), { status: 'confirmed', cancelled: [], released: 0 }],
    ['full refund of confirmed', booking('confirmed'), refund(10000), { status: 'refunded', cancelled: [], released: 2 }],
    [
      'last part of a refund',
      booking('confirmed', { amountRefundedMinor: 7000 }),
      refund(3000),
      { status: 'refunded', cancelled: [], released: 2 },
    ],
    [
      'full, another refund still pending',
      booking('confirmed', { amountRefundedMinor: 7000, otherPendingRefunds: 1 }),
      refund(3000),
      { status: 'confirmed', cancelled: [], released: 0 },
    ],
    ['refund above the balance', booking('confirmed', { amountRefundedMinor: 7000 }), refund(3001), 'REFUND_EXCEEDS_BALANCE'],
    ['partial refund of cancelled', booking('cancelled'), refund(3000), { status: 'cancelled', cancelled: [], released: 0 }],
    ['full refund of cancelled', booking('cancelled'), refund(10000), { status: 'refunded', cancelled: [], released: 0 }],
    ['refund of refunded', booking('refunded'), refund(1), 'REFUND_EXCEEDS_BALANCE'],
    ['refund of processing', booking('processing'), refund(1000), 'BOOKING_NOT_PAID'],
    ['refund of failed', booking('failed'), refund(1000), 'BOOKING_NOT_CANCELLABLE'],
    ['refund of an unpaid (free) confirmed', booking('confirmed', { paid: false }), refund(1000), 'BOOKING_NOT_PAID'],
    ['refund of a cancelled never paid', booking('cancelled', { paid: false }), refund(1000), 'BOOKING_NOT_PAID'],
    // refund with cancellation
    [
      'cancel + partial refund',
      booking('confirmed'),
      refund(4000, { cancel: true }),
      { status: 'cancelled', cancelled: ['p1', 'p2'], released: 2 },
    ],
    [
      'cancel + full refund',
      booking('confirmed'),
      refund(10000, { cancel: true }),
      { status: 'refunded', cancelled: ['p1', 'p2'], released: 2 },
    ],
    [
      'participant + full refund',
      booking('confirmed'),
      refund(10000, { participantIds: ['p1'] }),
      { status: 'refunded', cancelled: ['p1'], released: 2 },
    ],
    ['cancel + refund of processing', booking('processing'), refund(1000, { cancel: true }), 'BOOKING_NOT_PAID'],
    ['cancel + refund above the balance', booking('confirmed'), refund(10001, { cancel: true }), 'REFUND_EXCEEDS_BALANCE'],
  ];

  it.each(rows)('%s', (_, state, request, expected) => {
    expect(outcome(state, request)).toEqual(expected);
  });

  it('names the stranger participant by its position in the request', () => {
    expect(refusal(booking('confirmed'), only('p1', 'p9'), 'bookings.3')).toMatchObject({
      code: 'PARTICIPANT_NOT_IN_BOOKING',
      field: 'bookings.3.participants.1',
    });
  });

  it('refuses a failed booking before looking at its participants', () => {
    expect(refusal(booking('failed'), only('p9'), 'bookings.0')?.code).toBe('BOOKING_NOT_CANCELLABLE');
  });
});
