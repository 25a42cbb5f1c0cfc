import { describe, expect, it } from 'vitest';
import { freshDb } from '../support/db.ts';
import { contractFixtures, race } from './world.ts';

const db = await freshDb();
const { database } = db;
const fixtures = contractFixtures(db);

describe('store contract: places', () => {
  it('takes places only while they remain: 20 racing takes of 1 for 5 places, exactly 5 succeed', async () => {
    const session = await fixtures.session(5);
    expect(await race(database, 20, (tx) => tx.capacity.takePlaces(session.id, 1))).toBe(5);
    expect(await database.capacity.takePlaces(session.id, 1)).toBe(false);
    await database.capacity.releasePlaces(session.id, 2);
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
});
