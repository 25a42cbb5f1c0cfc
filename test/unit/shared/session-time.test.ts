import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/shared/errors.ts';
import { availabilityRange, normalizeSessionTime, sessionForItem } from '../../../src/domain/availability/sessions.ts';
import { freshDb } from '../../support/db.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const LISBON = 'Europe/Lisbon';
const TOKYO = 'Asia/Tokyo';

function failure(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('normalizeSessionTime', () => {
  it.each([
    ['local, minutes', '2026-11-22T09:30', LISBON, '2026-11-22T09:30:00'],
    ['local, seconds', '2026-11-22T09:30:15', LISBON, '2026-11-22T09:30:15'],
    ['leap day', '2028-02-29T10:00', LISBON, '2028-02-29T10:00:00'],
    ['just before the spring gap (Lisbon 29 March 2026)', '2026-03-29T00:59:59', LISBON, '2026-03-29T00:59:59'],
    ['first minute after the gap', '2026-03-29T02:00', LISBON, '2026-03-29T02:00:00'],
    ['a time that happens twice (Lisbon 25 October 2026) is one local time', '2026-10-25T01:30', LISBON, '2026-10-25T01:30:00'],
    ['Z into winter time (UTC+0)', '2026-11-22T18:00:00Z', LISBON, '2026-11-22T18:00:00'],
    ['Z into summer time (UTC+1) on the DST day', '2026-03-29T17:00:00Z', LISBON, '2026-03-29T18:00:00'],
    ['an instant in the gap becomes the wall-clock time after it', '2026-03-29T01:30:00Z', LISBON, '2026-03-29T02:30:00'],
    ['both instants of the repeated hour, first (UTC+1)', '2026-10-25T00:30:00Z', LISBON, '2026-10-25T01:30:00'],
    ['both instants of the repeated hour, second (UTC+0)', '2026-10-25T01:30:00Z', LISBON, '2026-10-25T01:30:00'],
    ['an offset from another zone', '2026-11-22T18:30+09:00', LISBON, '2026-11-22T09:30:00'],
    ['a negative offset crossing midnight', '2026-11-21T19:30:00-05:00', TOKYO, '2026-11-22T09:30:00'],
    ["the zone's own offset", '2026-11-22T09:30:00+09:00', TOKYO, '2026-11-22T09:30:00'],
  ])('%s: %s in %s -> %s', (_, input, zone, expected) => {
    expect(normalizeSessionTime(input, zone, 'data.0.sessionTime')).toBe(expected);
  });

  it.each([
    ['an impossible date', '2026-02-30T10:00'],
    ['29 February of a common year', '2026-02-29T10:00'],
    ['month 13', '2026-13-01T10:00'],
    ['hour 24', '2026-11-22T24:00'],
    ['minute 60', '2026-11-22T10:60'],
    ['second 60', '2026-11-22T10:00:60'],
    ['a local time in the spring gap', '2026-03-29T01:30'],
    ['the first minute of the gap', '2026-03-29T01:00:00'],
    ['a space instead of T', '2026-11-22 10:00'],
    ['hours only', '2026-11-22T10'],
    ['a date only', '2026-11-22'],
    ['fractional seconds', '2026-11-22T10:00:00.000'],
    ['an offset without colon', '2026-11-22T10:00+0100'],
    ['an offset beyond 14 hours', '2026-11-22T10:00+15:00'],
    ['offset minutes of 60', '2026-11-22T10:00+01:60'],
    ['a zone name', '2026-11-22T10:00[Europe/Lisbon]'],
    ['empty', ''],
  ])('rejects %s (%j) as VALIDATION_FAILED naming the field', (_, input) => {
    const error = failure(() => normalizeSessionTime(input, LISBON, 'data.1.sessionTime'));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({ field: 'data.1.sessionTime' });
  });
});

describe('availabilityRange', () => {
  it.each([
    ['one day', '2026-11-22', '2026-11-22', '2026-11-23'],
    ['across a year end', '2026-12-30', '2027-01-02', '2027-01-03'],
    ['92 days, both included', '2026-01-01', '2026-04-02', '2026-04-03'],
    ['over the DST change', '2026-03-28', '2026-03-30', '2026-03-31'],
    ['a leap day', '2028-02-28', '2028-02-29', '2028-03-01'],
    ['a year below 100 (not 1900 and after)', '0050-12-31', '0051-01-01', '0051-01-02'],
  ])('%s: %s..%s covers local starts before %s', (_, from, to, before) => {
    expect(availabilityRange(from, to)).toEqual({ fromLocal: from, beforeLocal: before });
  });

  it.each([
    ['from', 'not a date', '2026-11-22', 'from'],
    ['from', '2026-02-30', '2026-03-01', 'from'],
    ['to', '2026-11-22', '2026-11-31', 'to'],
    ['to', '2027-02-01', '2027-02-29', 'to (no leap day in 2027)'],
    ['to', '2026-11-22', '2026-13-01', 'to (month 13)'],
    ['to', '2026-11-22', '22/11/2026', 'to'],
    ['to', '2026-11-22', '2026-11-21', 'to (before from)'],
    ['to', '2026-01-01', '2026-04-03', 'to (93 days)'],
  ])('names %s: %s..%s', (field, from, to) => {
    const error = failure(() => availabilityRange(from, to));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({ field });
  });
});

// A describe's body cannot await: sessionForItem's world is made at the top level.
const db = await freshDb();
const brand = await createBrand(db);
const { experience } = await createExperience(db, brand.id);
const session = await createSession(db, experience, { startLocal: '2026-03-29T18:00:00' });

describe('sessionForItem', () => {
  it('finds the session by its local start, written locally or with an offset', async () => {
    for (const sessionTime of ['2026-03-29T18:00', '2026-03-29T18:00:00', '2026-03-29T17:00:00Z', '2026-03-29T18:00:00+01:00']) {
      expect((await sessionForItem({ db: db.database }, { experience, sessionTime, field: 'data.0.sessionTime' })).id).toBe(session.id);
    }
  });

  it('answers SESSION_NOT_FOUND with the field when no session starts then', async () => {
    const error = await rejection(
      sessionForItem({ db: db.database }, { experience, sessionTime: '2026-03-29T18:00:00Z', field: 'data.2.sessionTime' }),
    );
    expect(error.code).toBe('SESSION_NOT_FOUND');
    expect(error.details).toEqual({ field: 'data.2.sessionTime', startDateTime: '2026-03-29T19:00:00', timezone: LISBON });
  });

  it('validates the time before looking', async () => {
    const error = await rejection(
      sessionForItem({ db: db.database }, { experience, sessionTime: '2026-03-29T01:30', field: 'data.0.sessionTime' }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
  });
});
