import { describe, expect, it } from 'vitest';
import { parseCancelItems } from '../../../src/domain/cancellation/input.ts';
import { DomainError } from '../../../src/domain/shared/errors.ts';

const A = '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001';
const B = '6f1c0a52-3d4e-4c1a-9b7e-0b0000000002';

/** Each item's outcome: the item as read, or `{ error, field, bookingId }` of why it cannot be processed. */
function outcomes(items: unknown) {
  return parseCancelItems(items).map((entry) =>
    'error' in entry
      ? { index: entry.index, code: entry.error.code, field: entry.error.details?.field, bookingId: entry.bookingId }
      : { index: entry.index, item: entry.item },
  );
}

describe('cancel request shape, shared by both faces', () => {
  it.each<[string, unknown]>([
    ['no items', []],
    ['101 items', Array.from({ length: 101 }, () => ({ bookingId: A, cancel: true }))],
    ['not an array', { bookingId: A, cancel: true }],
    ['missing', undefined],
  ])('refuses the whole request for %s, naming bookings', (_, items) => {
    let thrown: unknown;
    try {
      parseCancelItems(items);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect({ code: (thrown as DomainError).code, field: (thrown as DomainError).details?.field }).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'bookings',
    });
  });

  it.each<[string, unknown, string, string | undefined]>([
    ['an item asking for nothing', { bookingId: A }, 'bookings.1', A],
    ['nulls only (GraphQL)', { bookingId: A, cancel: null, participants: null, refundAmount: null }, 'bookings.1', A],
    ['cancel: false', { bookingId: A, cancel: false, refundAmount: 5 }, 'bookings.1.cancel', A],
    ['cancel as text', { bookingId: A, cancel: 'true' }, 'bookings.1.cancel', A],
    ['empty participants', { bookingId: A, participants: [] }, 'bookings.1.participants', A],
    ['participants as one id', { bookingId: A, participants: B }, 'bookings.1.participants', A],
    ['a participant twice', { bookingId: A, participants: [B, A, B] }, 'bookings.1.participants.2', A],
    ['a participant id that is no UUID', { bookingId: A, participants: [B, 'x'] }, 'bookings.1.participants.1', A],
    ['a booking id that is no UUID', { bookingId: 'TST00001', cancel: true }, 'bookings.1.bookingId', 'TST00001'],
    ['no booking id', { cancel: true }, 'bookings.1.bookingId', undefined],
    ['a booking id that is a number', { bookingId: 7, cancel: true }, 'bookings.1.bookingId', undefined],
    ['a zero refund', { bookingId: A, refundAmount: 0 }, 'bookings.1.refundAmount', A],
    ['a negative refund', { bookingId: A, refundAmount: -1 }, 'bookings.1.refundAmount', A],
    ['an infinite refund', { bookingId: A, refundAmount: Infinity }, 'bookings.1.refundAmount', A],
    ['a refund as text', { bookingId: A, refundAmount: '5' }, 'bookings.1.refundAmount', A],
    ['an unknown field', { bookingId: A, cancel: true, refund: 5 }, 'bookings.1.refund', A],
    ['not an object', 'cancel all', 'bookings.1', undefined],
    ['null', null, 'bookings.1', undefined],
  ])('reports %s as an error of that item only, naming %s', (_, bad, field, bookingId) => {
    expect(outcomes([{ bookingId: B, cancel: true }, bad])).toEqual([
      { index: 0, item: { bookingId: B, cancel: true, participantIds: null, refundAmount: null } },
      { index: 1, code: 'VALIDATION_FAILED', field, bookingId },
    ]);
  });

  it('processes the first item naming a booking and reports the later ones', () => {
    const first = { bookingId: A, cancel: true };
    expect(
      outcomes([first, { bookingId: B, refundAmount: 1 }, { bookingId: A.toUpperCase(), refundAmount: 1 }]).map((o) => o.index),
    ).toEqual([0, 1, 2]);
    expect(outcomes([first, { bookingId: A.toUpperCase(), refundAmount: 1 }])[1]).toEqual({
      index: 1,
      code: 'VALIDATION_FAILED',
      field: 'bookings.1.bookingId',
      bookingId: A.toUpperCase(),
    });
    // A malformed item naming the booking first does not claim it: the later, good item is processed.
    expect(outcomes([{ bookingId: A, cancel: false }, first]).map((o) => 'item' in o)).toEqual([false, true]);
  });

  it('accepts 100 items and normalises omitted fields', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      bookingId: `6f1c0a52-3d4e-4c1a-9b7e-${String(i).padStart(12, '0')}`,
      cancel: true,
    }));
    expect(parseCancelItems(items).filter((entry) => 'item' in entry)).toHaveLength(100);
    expect(outcomes([{ bookingId: A, participants: [B], refundAmount: 12.5 }])).toEqual([
      { index: 0, item: { bookingId: A, cancel: false, participantIds: [B], refundAmount: 12.5 } },
    ]);
  });
});
