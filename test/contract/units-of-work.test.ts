import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../support/db.ts';
import { AT, contractFixtures } from './world.ts';

const db = await freshDb();
const { database } = db;
const fixtures = contractFixtures(db);

describe('store contract: units of work', () => {
  it('commits all of a transaction or, when it throws, none of it: events, deliveries and places alike', async () => {
    const session = await fixtures.session(3);
    const { id: brandId } = await fixtures.brand();
    const event = { brandId, type: 'booking.created', resourceId: randomUUID(), payload: { n: 1 }, createdAt: AT };
    await expect(
      database.transaction(async (tx) => {
        await tx.capacity.takePlaces(session.id, 3);
        await tx.events.insertEvent({ ...event, id: randomUUID() });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await database.events.findEventPage(brandId, 0, null, 10)).toEqual([]);
    expect(await database.capacity.takePlaces(session.id, 3)).toBe(true);
    const id = randomUUID();
    await database.transaction(async (tx) => tx.events.insertEvent({ ...event, id }));
    expect((await database.events.findEventPage(brandId, 0, null, 10)).map((e) => e.id)).toEqual([id]);
  });

  it('numbers events in the order their transactions commit', async () => {
    const { id: brandId } = await fixtures.brand();
    const committed: string[] = [];
    await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const id = randomUUID();
        await database.transaction((tx) =>
          tx.events.insertEvent({ id, brandId, type: 'booking.created', resourceId: `r${i}`, payload: {}, createdAt: AT }),
        );
        committed.push(id);
      }),
    );
    const page = await database.events.findEventPage(brandId, 0, null, 10);
    expect(page.map((e) => e.id)).toEqual(committed);
    expect(new Set(page.map((e) => e.sequence)).size).toBe(5);
  });

  it('undoes only a failed savepoint’s writes', async () => {
    const session = await fixtures.session(5);
    await database.transaction(async (tx) => {
      expect(await tx.capacity.takePlaces(session.id, 2)).toBe(true);
      await expect(
        tx.savepoint(async (sp) => {
          await sp.capacity.takePlaces(session.id, 3);
          throw new Error('not honoured');
        }),
      ).rejects.toThrow('not honoured');
    });
    expect(await database.capacity.takePlaces(session.id, 4)).toBe(false);
    expect(await database.capacity.takePlaces(session.id, 3)).toBe(true);
  });

  it('changes the data version when something is committed, and only then', async () => {
    const before = await database.dataVersion();
    expect(await database.dataVersion()).toBe(before);
    const session = await fixtures.session(2);
    const afterSetup = await database.dataVersion();
    await database.capacity.takePlaces(session.id, 1);
    expect(await database.dataVersion()).not.toBe(afterSetup);
  });
});
