import { describe, expect, it } from 'vitest';
import { freshDb } from '../support/db.ts';
import { contractFixtures, race } from './world.ts';
import { createWaitlist } from '../../fixtures/factories/availability.ts';

const db = await freshDb();
const { database } = db;
const fixtures = contractFixtures(db);

describe('store contract: places', () => {
  it('takes places only while they remain: 20 racing takes of 1 for 5 places, exactly 5 succeed', async () => {
    const session = await fixtures.session(5);
    expect(await race(database, 20, (tx) => tx.capacity.takePlaces(session.id, 1))).toBe(5);
    expect(await database.capacity.takePlaces(session.id, 1)).toBe(false);
    // The session as the release left it, as the waitlists store reads it.
    const released = await database.capacity.releasePlaces(session.id, 2);
    expect(released).toStrictEqual(await database.waitlists.findSessionById(session.id));
    expect(released).toMatchObject({ id: session.id, capacity: 5, reserved: 3 });
    expect(await database.capacity.releasePlaces(session.id, 0)).toBeUndefined();
    expect(await database.capacity.releasePlaces('no-such-session', 1)).toBeUndefined();
    expect(await database.capacity.takePlaces(session.id, 2)).toBe(true);
    expect(await database.capacity.takePlaces(session.id, 1)).toBe(false);
  });

  it('never sells places held for a waitlist offer, and gives them back when the offer ends', async () => {
    const session = await fixtures.session(4);
    expect(await database.waitlists.holdForOffer(session.id, 3)).toBe(true);
    expect(await database.capacity.takePlaces(session.id, 2)).toBe(false);
    expect(await database.waitlists.holdForOffer(session.id, 2)).toBe(false);
    expect(await database.capacity.takePlaces(session.id, 1)).toBe(true);
    await database.waitlists.releaseOfferHold(session.id, 3);
    expect(await race(database, 6, (tx) => tx.capacity.takePlaces(session.id, 1))).toBe(3);
  });

  it("takes a checkout item's places (within the share when given), answering with the session as the take left it and its waitlist", async () => {
    const { experience, session } = await fixtures.sessionOf(8);
    const waitlist = await createWaitlist(db, experience.id);
    const asRead = async () => (await database.sessions.findSessionsByIds([session.id]))[0]!;
    const taken = await race(database, 6, async (tx) => 'taken' in (await tx.capacity.takeItemPlaces(session.id, 1, 50)));
    expect(taken).toBe(4);
    const last = await database.capacity.takeItemPlaces(session.id, 3, null);
    expect(last).toStrictEqual({ taken: { session: (await asRead()).session, waitlistId: waitlist.id } });
    expect(last).toMatchObject({ taken: { session: { reserved: 7, publishableHeld: 4 } } });
    expect(await database.capacity.takeItemPlaces(session.id, 2, null)).toStrictEqual({ refused: 'sold-out' });
    expect(await database.capacity.takeItemPlaces(session.id, 1, 50)).toStrictEqual({ refused: 'share-exhausted' });
    expect(await database.capacity.takeItemPlaces(session.id, 2, 100)).toStrictEqual({ refused: 'sold-out' });
    const { session: noWaitlist } = await fixtures.sessionOf(2);
    expect(await database.capacity.takeItemPlaces(noWaitlist.id, 2, null)).toMatchObject({ taken: { waitlistId: null } });
  });

  it('takes publishable holds only within the share: of 12 racing holds of 1 on 8 places at 50 %, exactly 4 pass', async () => {
    const session = await fixtures.session(8);
    const stored = async () => db.row('sessions', { id: session.id });
    expect(await race(database, 12, async (tx) => (await tx.capacity.takePublishablePlaces(session.id, 1, 50)) === 'taken')).toBe(4);
    expect(await stored()).toMatchObject({ reserved: 4, publishableHeld: 4 });
    expect(await database.capacity.takePublishablePlaces(session.id, 1, 50)).toBe('share-exhausted');
    // Beyond the share, places are still on sale to other takes.
    expect(await database.capacity.takePlaces(session.id, 3)).toBe(true);
    // A hold paid leaves the share and keeps its place; the share is free again for one.
    await database.capacity.leavePublishableShare(session.id, 1);
    expect(await stored()).toMatchObject({ reserved: 7, publishableHeld: 3 });
    expect(await database.capacity.takePublishablePlaces(session.id, 2, 50)).toBe('sold-out');
    expect(await database.capacity.takePublishablePlaces(session.id, 1, 50)).toBe('taken');
    expect(await database.capacity.takePublishablePlaces(session.id, 1, 100)).toBe('sold-out');
    // A hold that fails gives its place and its share back.
    await database.capacity.releasePlaces(session.id, 2);
    await database.capacity.leavePublishableShare(session.id, 2);
    expect(await stored()).toMatchObject({ reserved: 6, publishableHeld: 2 });
    expect(await database.capacity.takePublishablePlaces(session.id, 0, 0)).toBe('taken');
    expect(await database.capacity.takePublishablePlaces(session.id, 1, 25)).toBe('share-exhausted');
    expect(await database.capacity.takePublishablePlaces(session.id, 2, 50)).toBe('taken');
    expect(await stored()).toMatchObject({ reserved: 8, publishableHeld: 4 });
  });

  it('rounds the share down: 50 % of 5 places is 2; 0 % holds nothing; outside a unit too', async () => {
    const session = await fixtures.session(5);
    expect(await database.capacity.takePublishablePlaces(session.id, 3, 50)).toBe('share-exhausted');
    expect(await database.capacity.takePublishablePlaces(session.id, 2, 50)).toBe('taken');
    expect(await database.capacity.takePublishablePlaces(session.id, 1, 50)).toBe('share-exhausted');
    const none = await fixtures.session(5);
    expect(await database.capacity.takePublishablePlaces(none.id, 1, 0)).toBe('share-exhausted');
    expect(await database.capacity.takePublishablePlaces('no-such-session', 1, 50)).toBe('sold-out');
  });
});
