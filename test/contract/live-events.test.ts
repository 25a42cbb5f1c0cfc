/**
 * The port's live reads (src/domain/outbox/store.ts, src/domain/shared/database.ts): events of every
 * brand after a sequence, the last sequence, and the hint that units with events committed. Then a
 * reader woken by hints, raced by writers: it reads every event once, in order.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBrand } from '../../fixtures/factories/brands.ts';
import type { EventInsert } from '../../src/domain/outbox/store.ts';
import { freshDb } from '../support/db.ts';
import { waitFor } from '../support/webhook-receiver.ts';

const db = await freshDb();
const { database } = db;

const event = (brandId: string, n: number, type = 'booking.created'): EventInsert => ({
  id: randomUUID(),
  brandId,
  type,
  resourceId: `resource-${n}`,
  payload: { n },
  createdAt: new Date(Date.parse('2027-02-01T10:00:00.000Z') + n * 1000).toISOString(),
});

describe('store contract: live reads of the events', () => {
  it('pages the events of every brand after a sequence, oldest first, and knows the last sequence', async () => {
    expect(await database.events.lastEventSequence()).toBe(0);
    expect(await database.events.findEventsAfter(0, 10)).toStrictEqual([]);
    const [a, b] = [await createBrand(db), await createBrand(db, { name: 'Other' })];
    const inputs = [1, 2, 3, 4, 5].map((n) => event(n % 2 === 0 ? b.id : a.id, n));
    for (const input of inputs) await database.events.insertEvent(input);
    const all = inputs.map((input, i) => ({ ...input, sequence: i + 1 }));

    expect(await database.events.lastEventSequence()).toBe(5);
    expect(await database.events.findEventsAfter(0, 10)).toStrictEqual(all);
    expect(await database.events.findEventsAfter(0, 2)).toStrictEqual(all.slice(0, 2));
    expect(await database.events.findEventsAfter(2, 2)).toStrictEqual(all.slice(2, 4));
    expect(await database.events.findEventsAfter(4, 500)).toStrictEqual(all.slice(4));
    expect(await database.events.findEventsAfter(5, 500)).toStrictEqual([]);
  });

  it('hints after a unit of work with events commits, its events readable by then, until the listener is removed', async () => {
    const brand = await createBrand(db, { name: 'Hinted' });
    const before = await database.events.lastEventSequence();
    const seenAtHint: number[] = [];
    let kept = 0;
    let hinted = 0;
    const stop = database.onEventsCommitted(() => {
      hinted += 1;
      void database.events.lastEventSequence().then((last) => seenAtHint.push(last));
    });
    const keep = database.onEventsCommitted(() => (kept += 1));

    await database.transaction(async (tx) => {
      await tx.events.insertEvent(event(brand.id, 1));
      await tx.events.insertEvent(event(brand.id, 2));
    });
    await waitFor('the hint', () => seenAtHint.length > 0, 2000);
    // Read as the hint came: the unit's events were committed.
    expect(seenAtHint[0]).toBe(before + 2);

    // Outside a unit of work an event commits alone, and is hinted too.
    await database.events.insertEvent(event(brand.id, 3));
    await waitFor('the second hint', () => seenAtHint.includes(before + 3), 2000);

    stop();
    const hintsBefore = hinted;
    const keptBefore = kept;
    await database.transaction((tx) => tx.events.insertEvent(event(brand.id, 4)));
    // The listener still there hears of it; the one removed does not.
    await waitFor('the kept listener', () => kept > keptBefore, 2000);
    expect(hinted).toBe(hintsBefore);
    keep();
  });

  it('wakes a reader paging by sequence often enough to read every event of racing writers, once and in order', async () => {
    const brand = await createBrand(db, { name: 'Raced' });
    let position = await database.events.lastEventSequence();
    const read: EventInsert[] = [];
    let reading: Promise<void> | null = null;
    let again = false;
    const readOn = async () => {
      do {
        again = false;
        for (;;) {
          const page = await database.events.findEventsAfter(position, 7);
          if (page.length === 0) break;
          position = page[page.length - 1]!.sequence;
          read.push(...page.map(({ sequence: _sequence, ...rest }) => rest));
        }
      } while (again);
      reading = null;
    };
    const stop = database.onEventsCommitted(() => {
      if (reading) again = true;
      else reading = readOn();
    });
    const written = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        database.transaction(async (tx) => {
          const pair = [event(brand.id, 100 + 2 * i), event(brand.id, 101 + 2 * i, 'booking.confirmed')];
          for (const e of pair) await tx.events.insertEvent(e);
          return pair;
        }),
      ),
    );
    await waitFor('every event read', () => read.length >= 48, 5000);
    stop();
    const committed = await database.events.findEventPage(brand.id, 0, null, 100);
    expect(read.map((e) => e.id)).toStrictEqual(committed.map((e) => e.id));
    expect(new Set(read.map((e) => e.id)).size).toBe(48);
    expect(read.map((e) => e.id).sort()).toStrictEqual(
      written
        .flat()
        .map((e) => e.id)
        .sort(),
    );
  });
});
