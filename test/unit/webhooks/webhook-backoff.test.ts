import { describe, expect, it } from 'vitest';
import { nextAttemptAt } from '../../../src/domain/webhooks/backoff.ts';

const createdAt = '2026-11-25T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(createdAt) + seconds * 1000);
const defaults = { createdAt, retryBaseSeconds: 10, maxAgeSeconds: 259_200 };

describe('nextAttemptAt', () => {
  it.each([
    [1, 0, '2026-11-25T12:00:10.000Z'],
    [2, 10, '2026-11-25T12:00:30.000Z'],
    [3, 30, '2026-11-25T12:01:10.000Z'],
    [4, 70, '2026-11-25T12:02:30.000Z'],
    [10, 5110, '2026-11-25T14:50:30.000Z'],
  ])('after failed attempt %i (at +%is) retries at %s', (attempts, elapsed, expected) => {
    expect(nextAttemptAt({ ...defaults, attempts, now: at(elapsed) })).toBe(expected);
  });

  it('gives up when the next attempt would fall past the maximum age', () => {
    // After 14 failures the wait is 10 * 2^13 s (22 h 45 min 20 s): from 2.5 days in, that ends past 3 days.
    expect(nextAttemptAt({ ...defaults, attempts: 14, now: at(2.5 * 86_400) })).toBeNull();
    expect(nextAttemptAt({ ...defaults, attempts: 14, now: at(86_400) })).toBe('2026-11-27T10:45:20.000Z');
  });

  it('allows an attempt exactly at the maximum age', () => {
    expect(nextAttemptAt({ ...defaults, maxAgeSeconds: 40, attempts: 2, now: at(20) })).toBe('2026-11-25T12:00:40.000Z');
    expect(nextAttemptAt({ ...defaults, maxAgeSeconds: 39, attempts: 2, now: at(20) })).toBeNull();
  });

  it('takes a fractional base (short test retries)', () => {
    expect(nextAttemptAt({ ...defaults, retryBaseSeconds: 0.05, attempts: 3, now: at(0) })).toBe('2026-11-25T12:00:00.200Z');
  });
});
