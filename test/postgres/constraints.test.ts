/**
 * The invariants the PostgreSQL schema enforces by itself, as the SQLite one does: a session never holds
 * more places than its capacity, a booking never refunds more than its amount, and one live waitlist
 * entry per email and session.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closePostgres, migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { bookings, sessions, waitlistEntries, waitlists } from '../../src/db/postgres/schema/index.ts';
import type { WaitlistEntryStatus } from '../../src/domain/shared/values.ts';
import { createPgSession, pgBookingRow } from '../../fixtures/factories/postgres.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';

/** The server's error under Drizzle's wrapper: its SQLSTATE and the constraint it names. */
async function refusal(write: Promise<unknown>): Promise<{ code: string; constraint: string }> {
  const error = await write.then(
    () => expect.fail('the write was accepted'),
    (e: unknown) => e as { cause?: { code: string; constraint: string } },
  );
  return { code: error.cause!.code, constraint: error.cause!.constraint };
}

describePostgres('the PostgreSQL schema constraints', () => {
  const database = freshPostgresDatabase();
  let db: PgDb;
  beforeAll(async () => {
    db = openPostgres(database.url());
    await migratePostgres(db);
  });
  afterAll(() => closePostgres(db));

  it('refuses a session whose reserved and held places exceed its capacity', async () => {
    const { session } = await createPgSession(db, { capacity: 4, reserved: 4 });

    expect(await refusal(db.update(sessions).set({ reserved: 5 }).where(eq(sessions.id, session.id)))).toEqual({
      code: '23514',
      constraint: 'sessions_reserved_within_capacity',
    });
    expect(await refusal(db.update(sessions).set({ reserved: 3, heldForOffers: 2 }).where(eq(sessions.id, session.id)))).toEqual({
      code: '23514',
      constraint: 'sessions_reserved_within_capacity',
    });
    expect(await refusal(createPgSession(db, { capacity: 2, reserved: 3 }))).toMatchObject({
      constraint: 'sessions_reserved_within_capacity',
    });
    const [stored] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(stored).toMatchObject({ capacity: 4, reserved: 4, heldForOffers: 0 });
  });

  it('refuses a refund above the booking amount, and takes one up to it', async () => {
    const seeded = await createPgSession(db, { capacity: 4 });

    expect(await refusal(db.insert(bookings).values(pgBookingRow(seeded, { amountMinor: 5000, amountRefundedMinor: 5001 })))).toEqual({
      code: '23514',
      constraint: 'bookings_refund_within_amount',
    });
    const booking = pgBookingRow(seeded, { amountMinor: 5000 });
    await db.insert(bookings).values(booking);
    await db.update(bookings).set({ amountRefundedMinor: 5000 }).where(eq(bookings.id, booking.id));
    expect(await refusal(db.update(bookings).set({ amountRefundedMinor: 5001 }).where(eq(bookings.id, booking.id)))).toEqual({
      code: '23514',
      constraint: 'bookings_refund_within_amount',
    });
  });

  it('keeps one live waitlist entry per email and session, whatever the ended ones', async () => {
    const { brand, experience, session } = await createPgSession(db, { capacity: 2, reserved: 2 });
    const waitlist = { id: randomUUID(), experienceId: experience.id };
    await db.insert(waitlists).values(waitlist);
    const person = { firstName: 'Eva', lastName: 'Reis', emailAddress: 'eva@guest.test', phoneNumber: null, answers: [] };
    const entry = (position: number, status: WaitlistEntryStatus) => ({
      id: randomUUID(),
      waitlistId: waitlist.id,
      sessionId: session.id,
      brandId: brand.id,
      status,
      position,
      partySize: 1,
      purchaser: person,
      purchaserEmailKey: 'eva@guest.test',
      participants: [person],
      updatedAt: '2026-05-01T12:00:00.000Z',
    });

    await db.insert(waitlistEntries).values([entry(1, 'expired'), entry(2, 'cancelled'), entry(3, 'waiting')]);
    expect(await refusal(db.insert(waitlistEntries).values(entry(4, 'offered')))).toEqual({
      code: '23505',
      constraint: 'waitlist_entries_live_email_idx',
    });
    await db.insert(waitlistEntries).values(entry(4, 'converted'));
    expect(await db.$count(waitlistEntries, eq(waitlistEntries.sessionId, session.id))).toBe(4);
  });
});
