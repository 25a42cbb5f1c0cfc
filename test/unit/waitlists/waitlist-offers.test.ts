/**
 * Offers of freed places, straight on the domain: who is offered what, when offers end, and that
 * places held for offers stay out of everyone else's reach.
 */
import { describe, expect, it } from 'vitest';
import { expireDueOffers, offerFreedPlaces, releaseSessionPlaces } from '../../../src/domain/waitlists/offers.ts';
import { freshDb } from '../../support/db.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { inTurn } from '../../../fixtures/factories/in-turn.ts';
import { createWaitlistEntry } from '../../../fixtures/factories/waitlists.ts';
import { placeInvariants } from '../../support/waitlist-world.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const TTL = 60;
const db = await freshDb();
const brand = await createBrand(db);
const sail = (await createExperience(db, brand.id)).experience;
const waitlist = await createWaitlist(db, sail.id);

let day = 0;
/** A session with `free` of its 10 places on sale (the rest reserved) and a line of parties. */
async function sessionWithLine(free: number, parties: number[], startLocal?: string) {
  day += 1;
  const s = await createSession(db, sail, { startLocal: startLocal ?? `2027-01-${String(day).padStart(2, '0')}T18:00:00`, capacity: 10 });
  const booking =
    free < 10
      ? await createBooking(db, { brandId: brand.id, session: s, participants: Array.from({ length: 10 - free }, () => ({})) })
      : null;
  const entries = await inTurn(parties, (partySize, i) =>
    createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: i + 1, partySize }),
  );
  return { s, entries, booking };
}
const row = async (id: string) =>
  (await db.one('SELECT status, offer_expires_at AS expires FROM waitlist_entries WHERE id = ?', id)) as {
    status: string;
    expires: string | null;
  };
const held = (sessionId: string) => db.value<number>('SELECT held_for_offers FROM sessions WHERE id = ?', sessionId);

describe('offerFreedPlaces', () => {
  it.each([
    [2, [3, 2, 1], [2]],
    [3, [3, 2, 1], [3]],
    [4, [3, 2, 1], [3, 1]],
    [5, [1, 1, 1], [1, 1, 1]],
    [1, [2, 2], []],
    [0, [1], []],
  ])('with %i places on sale and parties %j in line offers %j', async (free, parties, offeredSizes) => {
    const { s, entries } = await sessionWithLine(free, parties);
    const offered = await db.database.transaction(async (tx) => offerFreedPlaces(tx, s.id, NOW, TTL));
    expect(offered.map((id) => entries.find((e) => e.id === id)!.partySize)).toEqual(offeredSizes);
    const total = offeredSizes.reduce((a, b) => a + b, 0);
    expect(await placeInvariants(db, s.id)).toEqual({ capacity: 10, reserved: 10 - free, held: total });
    for (const id of offered) expect(await row(id)).toEqual({ status: 'offered', expires: '2026-11-25T12:01:00.000Z' });
  });

  it('walks only waiting entries, and offers nothing more while nothing more is free', async () => {
    const { s, entries } = await sessionWithLine(2, [1, 1]);
    await createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: 3, partySize: 1, status: 'cancelled' });
    await db.database.transaction(async (tx) => offerFreedPlaces(tx, s.id, NOW, TTL));
    expect(await db.database.transaction(async (tx) => offerFreedPlaces(tx, s.id, NOW, TTL))).toEqual([]);
    expect(await inTurn(entries, async (e) => (await row(e.id)).status)).toEqual(['offered', 'offered']);
    expect(await held(s.id)).toBe(2);
  });

  it('offers nothing once the session has started, and no offer outlives the start', async () => {
    const started = await sessionWithLine(2, [1], '2026-11-25T11:30:00');
    expect(await db.database.transaction(async (tx) => offerFreedPlaces(tx, started.s.id, NOW, TTL))).toEqual([]);
    // 12:00:30 in Lisbon in November is 12:00:30 UTC: 30 seconds after the clock, before the TTL ends.
    const soon = await sessionWithLine(2, [1], '2026-11-25T12:00:30');
    await db.database.transaction(async (tx) => offerFreedPlaces(tx, soon.s.id, NOW, TTL));
    expect(await row(soon.entries[0]!.id)).toEqual({ status: 'offered', expires: '2026-11-25T12:00:30.000Z' });
  });
});

describe('releaseSessionPlaces', () => {
  it('gives reserved places back and offers them at once', async () => {
    const { s, entries, booking } = await sessionWithLine(0, [2]);
    await db.seed(async (seeder, tx) => {
      // As a cancellation does: the participants change and their places are released together (one unit of work).
      await seeder.query("UPDATE participants SET cancelled_at = '2026-11-25T12:00:00.000Z' WHERE booking_id = ? AND position < 2", [
        booking!.booking.id,
      ]);
      await releaseSessionPlaces(tx, s.id, 2, NOW, TTL);
    });
    expect((await row(entries[0]!.id)).status).toBe('offered');
    expect(await placeInvariants(db, s.id)).toEqual({ capacity: 10, reserved: 8, held: 2 });
  });

  it('leaves the offer to the caller when asked to defer it', async () => {
    const { s, entries } = await sessionWithLine(0, [2]);
    const deferred = new Set<string>();
    await db.database.transaction(async (tx) => releaseSessionPlaces(tx, s.id, 2, NOW, TTL, deferred));
    expect([...deferred]).toEqual([s.id]);
    expect((await row(entries[0]!.id)).status).toBe('waiting');
    expect(await held(s.id)).toBe(0);
  });
});

describe('expireDueOffers', () => {
  it('expires offers due at or before now and passes their places to the next entries that fit', async () => {
    const { s } = await sessionWithLine(3, []);
    const due = await createWaitlistEntry(db, {
      waitlist,
      session: s,
      brandId: brand.id,
      position: 1,
      partySize: 2,
      status: 'offered',
      offerExpiresAt: NOW.toISOString(),
    });
    const running = await createWaitlistEntry(db, {
      waitlist,
      session: s,
      brandId: brand.id,
      position: 2,
      partySize: 1,
      status: 'offered',
      offerExpiresAt: '2026-11-25T12:00:00.001Z',
    });
    const big = await createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: 3, partySize: 3 });
    const pair = await createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: 4, partySize: 2 });

    expect(await db.database.transaction(async (tx) => expireDueOffers(tx, NOW, TTL))).toEqual([due.id]);
    expect(await inTurn([due, running, big, pair], async (e) => (await row(e.id)).status)).toEqual([
      'expired',
      'offered',
      'waiting',
      'offered',
    ]);
    expect(await placeInvariants(db, s.id)).toEqual({ capacity: 10, reserved: 7, held: 3 });
    const types = await db.values('SELECT type FROM events WHERE resource_id IN (?, ?) ORDER BY sequence', due.id, pair.id);
    expect(types).toEqual(['waitlist.expired', 'waitlist.offered']);
    expect(await db.database.transaction(async (tx) => expireDueOffers(tx, NOW, TTL))).toEqual([]);
  });
});

describe('places held for offers', () => {
  it('cannot be taken by a checkout, nor held twice beyond capacity', async () => {
    const { s } = await sessionWithLine(2, [2]);
    await db.database.transaction(async (tx) => offerFreedPlaces(tx, s.id, NOW, TTL));
    expect(await db.database.capacity.takePlaces(s.id, 1)).toBe(false);
    expect(await db.database.waitlists.holdForOffer(s.id, 1)).toBe(false);
    // The schema's own CHECK, in each engine's words.
    await expect(db.run('UPDATE sessions SET held_for_offers = held_for_offers + 1 WHERE id = ?', s.id)).rejects.toThrow(
      db.engine === 'sqlite' ? /CHECK constraint failed/ : /violates check constraint/,
    );
    expect(await placeInvariants(db, s.id)).toEqual({ capacity: 10, reserved: 8, held: 2 });
  });
});
