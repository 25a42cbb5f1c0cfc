import { describe, expect, it } from 'vitest';
import { parseCancelItems, type CancelItemInput } from '../../../src/domain/cancellation/input.ts';
import { DomainError } from '../../../src/domain/shared/errors.ts';

const A = '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001';
const B = '6f1c0a52-3d4e-4c1a-9b7e-0b0000000002';

function fieldOf(items: CancelItemInput[]): string | undefined {
  try {
    parseCancelItems(items);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    return (error as DomainError).details?.field;
  }
  return undefined;
}

describe('cancel request shape, shared by both faces', () => {
  it.each<[string, CancelItemInput[], string]>([
    ['no items', [], 'bookings'],
    ['101 items', Array.from({ length: 101 }, () => ({ bookingId: A, cancel: true })), 'bookings'],
    ['an item asking for nothing', [{ bookingId: A, cancel: true }, { bookingId: B }], 'bookings.1'],
    ['nulls only (GraphQL)', [{ bookingId: A, cancel: null, participants: null, refundAmount: null }], 'bookings.0'],
    ['cancel: false', [{ bookingId: A, cancel: false, refundAmount: 5 }], 'bookings.0.cancel'],
    ['empty participants', [{ bookingId: A, participants: [] }], 'bookings.0.participants'],
    ['a participant twice', [{ bookingId: A, participants: [B, A, B] }], 'bookings.0.participants.2'],
    ['a participant id that is no UUID', [{ bookingId: A, participants: [B, 'x'] }], 'bookings.0.participants.1'],
    ['a booking id that is no UUID', [{ bookingId: 'TST00001', cancel: true }], 'bookings.0.bookingId'],
    ['a zero refund', [{ bookingId: A, refundAmount: 0 }], 'bookings.0.refundAmount'],
    ['a negative refund', [{ bookingId: A, refundAmount: -1 }], 'bookings.0.refundAmount'],
    ['an infinite refund', [{ bookingId: A, refundAmount: Infinity }], 'bookings.0.refundAmount'],
    [
      'the same booking twice',
      [
        { bookingId: A, cancel: true },
        { bookingId: A, refundAmount: 1 },
      ],
      'bookings.1.bookingId',
    ],
  ])('refuses %s, naming %s', (_, items, field) => {
    expect(fieldOf(items)).toBe(field);
  });

  it('accepts 100 items and normalises omitted fields', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      bookingId: `6f1c0a52-3d4e-4c1a-9b7e-${String(i).padStart(12, '0')}`,
      cancel: true,
    }));
    expect(parseCancelItems(items)).toHaveLength(100);
    expect(parseCancelItems([{ bookingId: A, participants: [B], refundAmount: 12.5 }])).toEqual([
      { bookingId: A, cancel: false, participantIds: [B], refundAmount: 12.5 },
    ]);
  });
});
