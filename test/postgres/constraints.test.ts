/**
 * The invariants the PostgreSQL schema enforces by itself, as the SQLite one does (test/sqlite/
 * booking-invariants-db.test.ts): a session never holds more places than its capacity, a booking never
 * refunds more than its amount, and one live waitlist entry per email and session. Written through the
 * seeder, past every store, so only the schema stands in the way.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import type { WaitlistEntryStatus } from '../../src/domain/shared/values.ts';
import { freshPostgresDb } from '../support/db.ts';
import { describePostgres } from '../support/postgres.ts';

/** The server's error under Drizzle's wrapper: its SQLSTATE and the constraint it names. */
async function refusal(write: Promise<unknown>): Promise<{ code: string; constraint: string }> {
  const error = await write.then(
    () => expect.fail('the write was accepted'),
    (e: unknown) => e as { cause?: { code: string; constraint: string } },
  );
  return { code: error.cause!.code, constraint: error.cause!.constraint };
}

describePostgres('the PostgreSQL schema constraints', () => {
  let db: Awaited<ReturnType<typeof freshPostgresDb>>;
  let brand: { id: string };
  let experience: { id: string; timezoneId: string };
  let day = 0;
  const session = (capacity: number, reserved = 0) =>
    createSession(db, experience, { startLocal: `2027-02-${String(++day).padStart(2, '0')}T10:00:00`, capacity, reserved });
  beforeAll(async () => {
    db = await freshPostgresDb();
    brand = await createBrand(db);
    ({ experience } = await createExperience(db, brand.id));
  });

  it('refuses a session whose reserved and held places exceed its capacity', async () => {
    const full = await session(4, 4);
    expect(await refusal(db.update('sessions', { id: full.id }, { reserved: 5 }))).toEqual({
      code: '23514',
      constraint: 'sessions_reserved_within_capacity',
    });
    expect(await refusal(db.update('sessions', { id: full.id }, { reserved: 3, heldForOffers: 2 }))).toEqual({
      code: '23514',
      constraint: 'sessions_reserved_within_capacity',
    });
    expect(await refusal(session(2, 3))).toMatchObject({ constraint: 'sessions_reserved_within_capacity' });
    expect(await db.row('sessions', { id: full.id })).toMatchObject({ capacity: 4, reserved: 4, heldForOffers: 0 });
  });

  it('refuses a refund above the booking amount, and takes one up to it', async () => {
    const on = await session(4);
    expect(await refusal(createBooking(db, { brandId: brand.id, session: on, amountMinor: 5000, amountRefundedMinor: 5001 }))).toEqual({
      code: '23514',
      constraint: 'bookings_refund_within_amount',
    });
    const { booking } = await createBooking(db, { brandId: brand.id, session: on, amountMinor: 5000 });
    await db.update('bookings', { id: booking.id }, { amountRefundedMinor: 5000 });
    expect(await refusal(db.update('bookings', { id: booking.id }, { amountRefundedMinor: 5001 }))).toEqual({
      code: '23514',
      constraint: 'bookings_refund_within_amount',
    });
  });

  it('keeps one live waitlist entry per email and session, whatever the ended ones', async () => {
    const full = await session(2, 2);
    const waitlist = await createWaitlist(db, experience.id);
    const person = { firstName: 'Eva', lastName: 'Reis', emailAddress: 'eva@guest.test', phoneNumber: null, answers: [] };
    const entry = (position: number, status: WaitlistEntryStatus) => ({
      id: randomUUID(),
      waitlistId: waitlist.id,
      sessionId: full.id,
      brandId: brand.id,
      status,
      position,
      partySize: 1,
      purchaser: person,
      purchaserEmailKey: 'eva@guest.test',
      participants: [{ ...person, priceTierName: 'Adult' }],
      createdAt: '2026-05-01T12:00:00.000Z',
      updatedAt: '2026-05-01T12:00:00.000Z',
    });

    await db.insert('waitlistEntries', [entry(1, 'expired'), entry(2, 'cancelled'), entry(3, 'waiting')]);
    expect(await refusal(db.insert('waitlistEntries', entry(4, 'offered')))).toEqual({
      code: '23505',
      constraint: 'waitlist_entries_live_email_idx',
    });
    await db.insert('waitlistEntries', entry(4, 'converted'));
    expect(await db.count('waitlistEntries', { sessionId: full.id })).toBe(4);
  });
});
