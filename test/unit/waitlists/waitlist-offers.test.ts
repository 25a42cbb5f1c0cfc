import { portOf } from '../../support/db.ts';
/**
 * Offers of freed places, straight on the domain: who is offered what, when offers end, and that
 * places held for offers stay out of everyone else's reach.
 */
import { describe, expect, it } from 'vitest';
import { takePlaces } from '../../../src/db/sqlite/stores/availability/capacity.ts';
import { holdForOffer } from '../../../src/db/sqlite/stores/waitlists/waitlists.ts';
import { expireDueOffers, offerFreedPlaces, releaseSessionPlaces } from '../../../src/domain/waitlists/offers.ts';
import { freshDb } from '../../support/db.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createWaitlistEntry } from '../../../fixtures/factories/waitlists.ts';
import { placeInvariants } from '../../support/waitlist-world.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const TTL = 60;
const db = freshDb();
const brand = createBrand(db);
const sail = createExperience(db, brand.id).experience;
const waitlist = createWaitlist(db, sail.id);

let day = 0;
/** A session with `free` of its 10 places on sale (the rest reserved) and a line of parties. */
function sessionWithLine(free: number, parties: number[], startLocal?: string) {
  day += 1;
  const s = createSession(db, sail, { startLocal: startLocal ?? `2027-01-${String(day).padStart(2, '0')}T18:00:00`, capacity: 10 });
  const booking =
    free < 10 ? createBooking(db, { brandId: brand.id, session: s, participants: Array.from({ length: 10 - free }, () => ({})) }) : null;
  const entries = parties.map((partySize, i) =>
    createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: i + 1, partySize }),
  );
  return { s, entries, booking };
}
const row = (id: string) =>
  db.$client.prepare('SELECT status, offer_expires_at AS expires FROM waitlist_entries WHERE id = ?').get(id) as {
    status: string;
    expires: string | null;
  };
const held = (sessionId: string) =>
  db.$client.prepare('SELECT held_for_offers FROM sessions WHERE id = ?').pluck().get(sessionId) as number;

describe('offerFreedPlaces', () => {
  it.each([
    [2, [3, 2, 1], [2]],
    [3, [3, 2, 1], [3]],
    [4, [3, 2, 1], [3, 1]],
    [5, [1, 1, 1], [1, 1, 1]],
    [1, [2, 2], []],
    [0, [1], []],
  ])('with %i places on sale and parties %j in line offers %j', async (free, parties, offeredSizes) => {
    const { s, entries } = sessionWithLine(free, parties);
    const offered = await portOf(db).transaction(async (tx) => offerFreedPlaces(tx, s.id, NOW, TTL));
    expect(offered.map((id) => entries.find((e) => e.id === id)!.partySize)).toEqual(offeredSizes);
    const total = offeredSizes.reduce((a, b) => a + b, 0);
    expect(placeInvariants(db, s.id)).toEqual({ capacity: 10, reserved: 10 - free, held: total });
    for (const id of offered) expect(row(id)).toEqual({ status: 'offered', expires: '2026-11-25T12:01:00.000Z' });
  });

  it('walks only waiting entries, and offers nothing more while nothing more is free', async () => {
    const { s, entries } = sessionWithLine(2, [1, 1]);
    createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: 3, partySize: 1, status: 'cancelled' });
    await portOf(db).transaction(async (tx) => offerFreedPlaces(tx, s.id, NOW, TTL));
    expect(await portOf(db).transaction(async (tx) => offerFreedPlaces(tx, s.id, NOW, TTL))).toEqual([]);
    expect(entries.map((e) => row(e.id).status)).toEqual(['offered', 'offered']);
    expect(held(s.id)).toBe(2);
  });

  it('offers nothing once the session has started, and no offer outlives the start', async () => {
    const started = sessionWithLine(2, [1], '2026-11-25T11:30:00');
    expect(await portOf(db).transaction(async (tx) => offerFreedPlaces(tx, started.s.id, NOW, TTL))).toEqual([]);
    // 12:00:30 in Lisbon in November is 12:00:30 UTC: 30 seconds after the clock, before the TTL ends.
    const soon = sessionWithLine(2, [1], '2026-11-25T12:00:30');
    await portOf(db).transaction(async (tx) => offerFreedPlaces(tx, soon.s.id, NOW, TTL));
    expect(row(soon.entries[0]!.id)).toEqual({ status: 'offered', expires: '2026-11-25T12:00:30.000Z' });
  });
});

describe('releaseSessionPlaces', () => {
  it('gives reserved places back and offers them at once', async () => {
    const { s, entries, booking } = sessionWithLine(0, [2]);
    await portOf(db).transaction(async (tx) => {
      // As a cancellation does: the participants change and their places are released together (one connection).
      db.$client
        .prepare("UPDATE participants SET cancelled_at = '2026-11-25T12:00:00.000Z' WHERE booking_id = ? AND position < 2")
        .run(booking!.booking.id);
      await releaseSessionPlaces(tx, s.id, 2, NOW, TTL);
    });
    expect(row(entries[0]!.id).status).toBe('offered');
    expect(placeInvariants(db, s.id)).toEqual({ capacity: 10, reserved: 8, held: 2 });
  });

  it('leaves the offer to the caller when asked to defer it', async () => {
    const { s, entries } = sessionWithLine(0, [2]);
    const deferred = new Set<string>();
    await portOf(db).transaction(async (tx) => releaseSessionPlaces(tx, s.id, 2, NOW, TTL, deferred));
    expect([...deferred]).toEqual([s.id]);
    expect(row(entries[0]!.id).status).toBe('waiting');
    expect(held(s.id)).toBe(0);
  });
});

describe('expireDueOffers', () => {
  it('expires offers due at or before now and passes their places to the next entries that fit', async () => {
    const { s } = sessionWithLine(3, []);
    const due = createWaitlistEntry(db, {
      waitlist,
      session: s,
      brandId: brand.id,
      position: 1,
      partySize: 2,
      status: 'offered',
      offerExpiresAt: NOW.toISOString(),
    });
    const running = createWaitlistEntry(db, {
      waitlist,
      session: s,
      brandId: brand.id,
      position: 2,
      partySize: 1,
      status: 'offered',
      offerExpiresAt: '2026-11-25T12:00:00.001Z',
    });
    const big = createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: 3, partySize: 3 });
    const pair = createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: 4, partySize: 2 });

    expect(await portOf(db).transaction(async (tx) => expireDueOffers(tx, NOW, TTL))).toEqual([due.id]);
    expect([due, running, big, pair].map((e) => row(e.id).status)).toEqual(['expired', 'offered', 'waiting', 'offered']);
    expect(placeInvariants(db, s.id)).toEqual({ capacity: 10, reserved: 7, held: 3 });
    const types = db.$client.prepare('SELECT type FROM events WHERE resource_id IN (?, ?) ORDER BY sequence').pluck().all(due.id, pair.id);
    expect(types).toEqual(['waitlist.expired', 'waitlist.offered']);
    expect(await portOf(db).transaction(async (tx) => expireDueOffers(tx, NOW, TTL))).toEqual([]);
  });
});

describe('places held for offers', () => {
  it('cannot be taken by a checkout, nor held twice beyond capacity', async () => {
    const { s } = sessionWithLine(2, [2]);
    await portOf(db).transaction(async (tx) => offerFreedPlaces(tx, s.id, NOW, TTL));
    expect(takePlaces(db, s.id, 1)).toBe(false);
    expect(holdForOffer(db, s.id, 1)).toBe(false);
    expect(() => db.$client.prepare('UPDATE sessions SET held_for_offers = held_for_offers + 1 WHERE id = ?').run(s.id)).toThrow(
      /CHECK constraint failed/,
    );
    expect(placeInvariants(db, s.id)).toEqual({ capacity: 10, reserved: 8, held: 2 });
  });
});
