/**
 * The sessions store (src/domain/availability/store.ts) as a contract: a session found by its local
 * start, and the sessions of a range by start, with the experience's waitlist. (Taking and giving back
 * places, the capacity store, is places.test.ts's.)
 */
import { describe, expect, it } from 'vitest';
import { createSession } from '../../fixtures/factories/bookings.ts';
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
