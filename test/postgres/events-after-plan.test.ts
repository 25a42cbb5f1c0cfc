/**
 * The live hub's reads on PostgreSQL (src/db/postgres/stores/outbox/events.ts) seek the events' primary
 * key, however many events there are: a page after a sequence walks the index forward from it, the last
 * sequence reads one index entry from the end, and neither sorts.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

describePostgres('PostgreSQL live reads of the events', () => {
  it('seek the primary key for a page after a sequence and for the last sequence', async () => {
    const { database, pg } = db!;
    const brand = await createBrand(db!);
    await database.transaction(async (tx) => {
      for (let n = 0; n < 3000; n += 1) {
        await tx.events.insertEvent({
          id: randomUUID(),
          brandId: brand.id,
          type: 'booking.created',
          resourceId: randomUUID(),
          payload: { n },
          createdAt: '2027-02-01T10:00:00.000Z',
        });
      }
    });
    await pg.execute(sql`ANALYZE events`);
    const plan = async (statement: string) =>
      (await pg.$client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    // The statements of findEventsAfter and lastEventSequence, as Drizzle writes them.
    const after = await plan('SELECT * FROM events WHERE events.sequence > 2500 ORDER BY events.sequence ASC LIMIT 500');
    expect(after).toMatch(/Index Scan using events_pkey/);
    expect(after).not.toMatch(/Sort/);
    const last = await plan('SELECT events.sequence FROM events ORDER BY events.sequence DESC LIMIT 1');
    expect(last).toMatch(/Index Only Scan Backward using events_pkey|Index Scan Backward using events_pkey/);
    expect(last).not.toMatch(/Sort/);

    expect(await database.events.lastEventSequence()).toBe(3000);
    const page = await database.events.findEventsAfter(2500, 500);
    expect([page.length, page[0]!.sequence, page[499]!.sequence]).toStrictEqual([500, 2501, 3000]);
  });
});
