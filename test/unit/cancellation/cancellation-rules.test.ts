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
    paymentMethod: 'credit-card',
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

const statuses: BookingStatus[] = ['processing', 'confirmed', 'failed', 'cancelled', 'refunded'];

type Outcome = ReturnType<typeof outcome>;
const done = (status: BookingStatus, cancelled: string[], released: number): Outcome => ({ status, cancelled, released });

/**
 * Every status x every kind of request: the spec's table (any booking with `cancel: true` becomes
 * cancelled; listed participants get `cancelledAt`; a refund adds to `amountRefunded`) and the decided
 * moves. A request that would change nothing is refused with a code saying why (docs/rest.md, "Cancel
 * and refund"). Each row names the state it starts from (see `booking`) and the request.
 */
const table: Record<
  string,
  {
    state: (status: BookingStatus) => BookingState;
    request: (status: BookingStatus) => CancelRequest;
    expected: Record<BookingStatus, Outcome>;
  }
> = {
  'cancel: true': {
    state: (s) => booking(s),
    request: () => cancel,
    expected: {
      processing: done('cancelled', ['p1', 'p2'], 2),
      confirmed: done('cancelled', ['p1', 'p2'], 2),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: 'BOOKING_ALREADY_CANCELLED',
      // Refunded: its places went back when it was refunded; its guests are cancelled now, money unchanged.
      refunded: done('cancelled', ['p1', 'p2'], 0),
    },
  },
  'one participant': {
    state: (s) => booking(s),
    request: () => only('p1'),
    expected: {
      processing: done('processing', ['p1'], 1),
      confirmed: done('confirmed', ['p1'], 1),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: 'PARTICIPANT_ALREADY_CANCELLED',
      refunded: done('refunded', ['p1'], 0),
    },
  },
  'every participant': {
    state: (s) => booking(s),
    request: () => only('p1', 'p2'),
    expected: {
      processing: done('cancelled', ['p1', 'p2'], 2),
      confirmed: done('cancelled', ['p1', 'p2'], 2),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: 'PARTICIPANT_ALREADY_CANCELLED',
      refunded: done('cancelled', ['p1', 'p2'], 0),
    },
  },
  'a participant already cancelled': {
    state: (s) => booking(s, s === 'cancelled' ? {} : p1Cancelled),
    request: () => only('p1'),
    expected: {
      processing: 'PARTICIPANT_ALREADY_CANCELLED',
      confirmed: 'PARTICIPANT_ALREADY_CANCELLED',
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: 'PARTICIPANT_ALREADY_CANCELLED',
      refunded: 'PARTICIPANT_ALREADY_CANCELLED',
    },
  },
  'the last active participant': {
    state: (s) => booking(s, s === 'cancelled' ? {} : p1Cancelled),
    request: () => only('p2'),
    expected: {
      processing: done('cancelled', ['p2'], 1),
      confirmed: done('cancelled', ['p2'], 1),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: 'PARTICIPANT_ALREADY_CANCELLED',
      refunded: done('cancelled', ['p2'], 0),
    },
  },
  'a stranger among the participants': {
    state: (s) => booking(s),
    request: () => only('p1', 'p9'),
    expected: {
      processing: 'PARTICIPANT_NOT_IN_BOOKING',
      confirmed: 'PARTICIPANT_NOT_IN_BOOKING',
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: 'PARTICIPANT_NOT_IN_BOOKING',
      refunded: 'PARTICIPANT_NOT_IN_BOOKING',
    },
  },
  'a partial refund': {
    state: (s) => booking(s),
    request: () => refund(3000),
    expected: {
      processing: 'BOOKING_NOT_PAID',
      confirmed: done('confirmed', [], 0),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: done('cancelled', [], 0),
      refunded: 'REFUND_EXCEEDS_BALANCE',
    },
  },
  'a refund of what is left': {
    state: (s) => booking(s),
    request: (s) => refund(s === 'refunded' ? 1 : 10000),
    expected: {
      processing: 'BOOKING_NOT_PAID',
      // A full refund is a cancellation with refund: the places go back with their participants.
      confirmed: done('refunded', ['p1', 'p2'], 2),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: done('refunded', [], 0),
      refunded: 'REFUND_EXCEEDS_BALANCE',
    },
  },
  'a refund above the balance': {
    state: (s) => booking(s),
    request: () => refund(10001),
    expected: {
      processing: 'BOOKING_NOT_PAID',
      confirmed: 'REFUND_EXCEEDS_BALANCE',
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: 'REFUND_EXCEEDS_BALANCE',
      refunded: 'REFUND_EXCEEDS_BALANCE',
    },
  },
  'cancel + a partial refund': {
    state: (s) => booking(s),
    request: () => refund(4000, { cancel: true }),
    expected: {
      processing: 'BOOKING_NOT_PAID',
      confirmed: done('cancelled', ['p1', 'p2'], 2),
      failed: 'BOOKING_NOT_CANCELLABLE',
      // The refund changes the booking; the cancellation was done before.
      cancelled: done('cancelled', [], 0),
      refunded: 'REFUND_EXCEEDS_BALANCE',
    },
  },
  'cancel + a full refund': {
    state: (s) => booking(s),
    request: () => refund(10000, { cancel: true }),
    expected: {
      processing: 'BOOKING_NOT_PAID',
      confirmed: done('refunded', ['p1', 'p2'], 2),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: done('refunded', [], 0),
      refunded: 'REFUND_EXCEEDS_BALANCE',
    },
  },
  'one participant + a full refund': {
    state: (s) => booking(s),
    request: () => refund(10000, { participantIds: ['p1'] }),
    expected: {
      processing: 'BOOKING_NOT_PAID',
      confirmed: done('refunded', ['p1', 'p2'], 2),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: done('refunded', [], 0),
      refunded: 'REFUND_EXCEEDS_BALANCE',
    },
  },
  'participants narrowing cancel: true': {
    state: (s) => booking(s),
    request: () => ({ ...only('p1'), cancel: true }),
    expected: {
      processing: done('processing', ['p1'], 1),
      confirmed: done('confirmed', ['p1'], 1),
      failed: 'BOOKING_NOT_CANCELLABLE',
      cancelled: 'PARTICIPANT_ALREADY_CANCELLED',
      refunded: done('refunded', ['p1'], 0),
    },
  },
};

describe('booking state rules (the spec transition table + decided moves), every status x every request', () => {
  const rows = Object.entries(table).flatMap(([name, row]) =>
    statuses.map((status) => [`${name} on ${status}`, row.state(status), row.request(status), row.expected[status]] as const),
  );

  it.each(rows)('%s', (_, state, request, expected) => {
    expect(outcome(state, request)).toEqual(expected);
  });

  it('has an answer for every status in every row', () => {
    expect(rows).toHaveLength(Object.keys(table).length * statuses.length);
  });

  it('refuses refunds of a booking never paid (a free one), confirmed or cancelled', () => {
    expect(outcome(booking('confirmed', { paid: false }), refund(1000))).toBe('BOOKING_NOT_PAID');
    expect(outcome(booking('cancelled', { paid: false }), refund(1000))).toBe('BOOKING_NOT_PAID');
  });

  it.each(['pay-upon-arrival', 'pay-later', 'room-charge', 'member-number'] as const)(
    'refuses a refund of a booking paid by %s, outside Tessera, saying so',
    (paymentMethod) => {
      expect(refusal(booking('confirmed', { paid: false, paymentMethod }), refund(1000), 'bookings.0')).toEqual({
        code: 'BOOKING_NOT_PAID',
        message: `The booking is paid by ${paymentMethod}, outside Tessera: no money was taken here, so none can be refunded here`,
      });
      expect(outcome(booking('confirmed', { paid: false, paymentMethod }), cancel)).toEqual(done('cancelled', ['p1', 'p2'], 2));
    },
  );

  it('keeps a booking confirmed when another refund is still pending, though the total reached the amount', () => {
    expect(outcome(booking('confirmed', { amountRefundedMinor: 7000, otherPendingRefunds: 1 }), refund(3000))).toEqual(
      done('confirmed', [], 0),
    );
    expect(outcome(booking('confirmed', { amountRefundedMinor: 7000 }), refund(3000))).toEqual(done('refunded', ['p1', 'p2'], 2));
  });

  it('names the stranger participant by its position in the request', () => {
    expect(refusal(booking('confirmed'), only('p1', 'p9'), 'bookings.3')).toMatchObject({
      code: 'PARTICIPANT_NOT_IN_BOOKING',
      field: 'bookings.3.participants.1',
    });
  });

  it('names the participants when all of them were already cancelled', () => {
    expect(refusal(booking('confirmed', p1Cancelled), only('p1'), 'bookings.2')).toMatchObject({
      code: 'PARTICIPANT_ALREADY_CANCELLED',
      field: 'bookings.2.participants',
    });
  });

  it('refuses a failed booking before looking at its participants', () => {
    expect(refusal(booking('failed'), only('p9'), 'bookings.0')?.code).toBe('BOOKING_NOT_CANCELLABLE');
  });
});
