/**
 * The sessions store (src/domain/availability/store.ts) as a contract: a session found by its local
 * start, and the sessions of a range by start, with the experience's waitlist. (Taking and giving back
 * places, the capacity store, is places.test.ts's.) The session writes: inserted once per local start, a capacity
 * above the places taken, a cancelled session taking no places.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { freshDb } from '../support/db.ts';

const db = await freshDb();
const { database } = db;

const brand = await createBrand(db);
const { experience } = await createExperience(db, brand.id);
const { experience: other } = await createExperience(db, brand.id);
const waitlist = await createWaitlist(db, experience.id);
// Written out of start order; the other experience has sessions at the same starts.
const at = (startLocal: string, capacity = 10) => createSession(db, experience, { startLocal, capacity });
const noon = await at('2026-12-02T12:00:00', 8);
const morning = await at('2026-12-02T09:00:00');
const nextDay = await at('2026-12-03T09:00:00');
const dayBefore = await at('2026-12-01T18:30:00');
await createSession(db, other, { startLocal: '2026-12-02T09:00:00' });
await db.update('sessions', { id: noon.id }, { reserved: 3, heldForOffers: 2, publishableHeld: 1 });

/** A session as stored: the factory's row, with the places held for offers it left at their default. */
const stored = (row: Awaited<ReturnType<typeof at>>) => ({ heldForOffers: 0, publishableHeld: 0, ...row });

describe('store contract: sessions', () => {
  it('finds a session of an experience by its local start', async () => {
    expect(await database.sessions.findSessionAt(experience.id, '2026-12-02T12:00:00')).toStrictEqual({
      ...stored(noon),
      reserved: 3,
      heldForOffers: 2,
      publishableHeld: 1,
    });
    expect(noon).toMatchObject({ startsAt: '2026-12-02T12:00:00.000Z', durationMinutes: 120, capacity: 8 });
    expect(await database.sessions.findSessionAt(experience.id, '2026-12-02T09:00:00')).toStrictEqual(stored(morning));
    expect(await database.sessions.findSessionAt(experience.id, '2026-12-02T09:00')).toBeUndefined();
    expect(await database.sessions.findSessionAt(experience.id, '2026-12-04T09:00:00')).toBeUndefined();
    expect(await database.sessions.findSessionAt('no-such-experience', '2026-12-02T09:00:00')).toBeUndefined();
  });

  it('lists the sessions starting in [from, before) by start, with the experience’s waitlist (null without one)', async () => {
    const withWaitlist = (row: Awaited<ReturnType<typeof at>>, extra = {}) => ({
      session: { ...stored(row), ...extra },
      waitlistId: waitlist.id,
    });
    expect(await database.sessions.sessionsInRange(experience.id, '2026-12-01T00:00:00', '2026-12-04T00:00:00')).toStrictEqual([
      withWaitlist(dayBefore),
      withWaitlist(morning),
      withWaitlist(noon, { reserved: 3, heldForOffers: 2, publishableHeld: 1 }),
      withWaitlist(nextDay),
    ]);
    // From is in, before is out.
    expect(
      (await database.sessions.sessionsInRange(experience.id, '2026-12-02T09:00:00', '2026-12-03T09:00:00')).map((s) => s.session.id),
    ).toEqual([morning.id, noon.id]);
    expect(await database.sessions.sessionsInRange(experience.id, '2026-12-04T00:00:00', '2026-12-05T00:00:00')).toEqual([]);
    expect(await database.sessions.sessionsInRange(other.id, '2026-12-01T00:00:00', '2026-12-04T00:00:00')).toStrictEqual([
      { session: expect.objectContaining({ experienceId: other.id, startLocal: '2026-12-02T09:00:00' }), waitlistId: null },
    ]);
  });
});

describe('store contract: session writes', () => {
  const row = (startLocal: string, startsAt: string, capacity = 6) => ({
    id: randomUUID(),
    experienceId: other.id,
    startLocal,
    startsAt,
    durationMinutes: 90,
    capacity,
  });

  it('inserts the sessions an experience has no session at yet, skipping the others, and returns the ids inserted', async () => {
    const first = row('2027-03-27T10:00:00', '2027-03-27T10:00:00.000Z');
    const second = row('2027-03-29T10:00:00', '2027-03-29T09:00:00.000Z', 4);
    expect((await database.sessionWrites.insertSessions([first, second])).sort()).toEqual([first.id, second.id].sort());
    // The same starts again (new ids), with one new start: only that one is inserted.
    const third = row('2027-03-30T10:00:00', '2027-03-30T09:00:00.000Z');
    const again = [row(first.startLocal, first.startsAt), row(second.startLocal, second.startsAt), third];
    expect(await database.sessionWrites.insertSessions(again)).toEqual([third.id]);
    expect(await database.sessions.findSessionAt(other.id, second.startLocal)).toStrictEqual({
      ...second,
      reserved: 0,
      heldForOffers: 0,
      publishableHeld: 0,
      cancelledAt: null,
    });
    expect(await database.sessionWrites.insertSessions([])).toEqual([]);
  });

  it('sets a capacity only above the places taken, and a cancelled session takes no places and leaves the range', async () => {
    const s = row('2027-04-02T10:00:00', '2027-04-02T09:00:00.000Z', 6);
    await database.sessionWrites.insertSessions([s]);
    const booking = await createBooking(db, { brandId: brand.id, session: s, participants: [{}] });
    await createBooking(db, {
      brandId: brand.id,
      session: s,
      status: 'cancelled',
      participants: [{ cancelledAt: '2027-01-01T00:00:00.000Z' }],
    });
    expect(await database.sessionWrites.liveBookingsOfSession(s.id)).toEqual([booking.booking.id]);
    const taken = (await database.waitlists.findSessionById(s.id))!.reserved;
    expect(await database.capacity.takePlaces(s.id, 3 - taken)).toBe(true);
    expect(await database.waitlists.holdForOffer(s.id, 2)).toBe(true);
    expect(await database.sessionWrites.setCapacity(s.id, 4)).toBe(false);
    expect(await database.sessionWrites.setCapacity(s.id, 5)).toBe(true);
    expect(await database.sessionWrites.setCapacity('no-such-session', 5)).toBe(false);

    expect(await database.sessionWrites.markCancelled(s.id, '2027-03-01T08:00:00.000Z')).toBe(true);
    expect(await database.sessionWrites.markCancelled(s.id, '2027-03-02T08:00:00.000Z')).toBe(false);
    expect((await database.waitlists.findSessionById(s.id))?.cancelledAt).toBe('2027-03-01T08:00:00.000Z');
    expect(await database.capacity.takePlaces(s.id, 1)).toBe(false);
    expect(await database.capacity.takePublishablePlaces(s.id, 1, 100)).not.toBe('taken');
    expect(await database.sessionWrites.setCapacity(s.id, 9)).toBe(false);
    expect((await database.sessions.sessionsInRange(other.id, '2027-04-02T00:00:00', '2027-04-03T00:00:00')).length).toBe(0);
    expect(await database.waitlists.findSessionById(s.id)).toMatchObject({ capacity: 5, reserved: 3, heldForOffers: 2 });
  });
});
