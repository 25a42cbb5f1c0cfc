import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../../src/domain/cancellation/rules.ts';
import { cartIsPaid, recordsFailure, recordsSuccess, succeededAction, type IntentStatus } from '../../../src/domain/payments/rules.ts';

const booking = (status: BookingStatus, amountMinor = 9000, amountRefundedMinor = 0) => ({ status, amountMinor, amountRefundedMinor });

describe('which events an intent records', () => {
  it.each<[IntentStatus, boolean, boolean]>([
    ['requires_payment', true, true],
    ['succeeded', false, false],
    ['failed', true, false],
    ['canceled', true, false],
  ])('an intent %s records a success: %s, a failure: %s', (status, success, failure) => {
    expect(recordsSuccess(status)).toBe(success);
    expect(recordsFailure(status)).toBe(failure);
  });
});

describe('what a succeeded payment does to a booking', () => {
  it.each([
    ['processing, current checkout', booking('processing'), true, { kind: 'confirm' }],
    ['processing, replaced checkout (still held)', booking('processing'), false, { kind: 'confirm' }],
    ['failed (hold lapsed), current checkout', booking('failed'), true, { kind: 'retake', amountMinor: 9000 }],
    ['failed, replaced checkout', booking('failed'), false, { kind: 'refund', amountMinor: 9000 }],
    ['failed, replaced, nothing to pay back', booking('failed', 0), false, { kind: 'none' }],
    ['cancelled meanwhile', booking('cancelled'), true, { kind: 'refund', amountMinor: 9000 }],
    ['cancelled, partly refunded already', booking('cancelled', 9000, 2500), true, { kind: 'refund', amountMinor: 6500 }],
    ['cancelled, free', booking('cancelled', 0), true, { kind: 'none' }],
    ['confirmed', booking('confirmed'), true, { kind: 'none' }],
    ['refunded', booking('refunded', 9000, 9000), true, { kind: 'none' }],
  ])('%s', (_name, state, current, action) => {
    expect(succeededAction(state, current)).toEqual(action);
  });
});

describe('when the cart is paid', () => {
  it.each<[string, boolean, BookingStatus[], boolean]>([
    ['every booking confirmed', true, ['confirmed', 'confirmed'], true],
    ['confirmed and refunded', true, ['confirmed', 'refunded'], true],
    ['all refunded', true, ['refunded'], true],
    ['a refund still to settle (cancelled)', true, ['confirmed', 'cancelled'], false],
    ['a booking still processing', true, ['confirmed', 'processing'], false],
    ['a booking failed', true, ['failed'], false],
    ['a replaced checkout', false, ['confirmed'], false],
    ['no bookings', true, [], false],
  ])('%s: %s', (_name, current, statuses, paid) => {
    expect(cartIsPaid(current, statuses)).toBe(paid);
  });
});
