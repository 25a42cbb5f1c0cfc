/**
 * A checkout's five reads on PostgreSQL (CheckoutStore.readCheckout, one statement) are planned once per
 * connection: their lists are sent as `ARRAY[$1, $2]` of a fixed length (sql-parts.ts, `listOf`), so the
 * generic plan's cost is a custom plan's and PostgreSQL keeps it after its five custom plans. With array
 * parameters, which it plans as ten elements long, it planned the statement again on every call (0.6 to
 * 0.8 ms of planning against 0.2 to 0.3 ms of execution). The plan counts are PostgreSQL's business, so they
 * are checked here; what the statement answers, for each length and past the last, against the reads it
 * stands for, on the same connection.
 */
import { expect, it } from 'vitest';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { openPostgres } from '../../src/db/postgres/client.ts';
import { readCheckout } from '../../src/db/postgres/stores/checkout/checkout.ts';
import type { ItemStart } from '../../src/domain/checkout/store.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

describePostgres('PostgreSQL checkout reads', () => {
  it('answers as the reads it stands for at every list length, and is planned once per connection', async () => {
    const { database } = db!;
    const brand = await createBrand(db!);
    const starts: ItemStart[] = [];
    for (let i = 0; i < 10; i += 1) {
      const { experience } = await createExperience(db!, brand.id, { id: `exp-${i}` });
      const session = await createSession(db!, experience, { startLocal: `2027-01-0${(i % 9) + 1}T10:00:00` });
      starts.push({ experienceId: experience.id, startLocal: session.startLocal });
    }
    const at = '2026-11-25T12:00:00.000Z';
    // One connection, so that what it prepared and how it planned it can be read on it.
    const one = openPostgres(db!.url, { poolSize: 1 });
    try {
      const request = (count: number) => {
        const items = starts.slice(0, count);
        // An experience twice and one with no session asked: the lists are not the same length.
        const experienceIds = [
          ...items.map((item) => item.experienceId),
          ...items.slice(0, 1).map((item) => item.experienceId),
          'exp-none',
        ];
        return { brandId: brand.id, cartId: 'no-cart', experienceIds, starts: items, at };
      };
      for (const count of [0, 1, 2, 3, 5, 8, 10]) {
        const { experienceIds, starts: asked } = request(count);
        const read = await readCheckout(one, request(count));
        expect(read.experiences).toStrictEqual(await database.checkout.findCheckoutExperiences(experienceIds));
        expect(read.sessions).toStrictEqual(await database.checkout.findItemSessions(asked, at));
        expect(read.sessions.map((found) => found.session.experienceId)).toStrictEqual(asked.map((item) => item.experienceId));
        expect(read.brand?.id).toBe(brand.id);
      }
      // Two or three items with 'exp-none': lists of 4, eight calls in all, the last three on the generic plan.
      for (let i = 0; i < 6; i += 1) await readCheckout(one, request(2));
      const { rows } = await one.$client.query<{ name: string; custom_plans: string; generic_plans: string }>(
        `SELECT name, custom_plans, generic_plans FROM pg_prepared_statements WHERE name LIKE 'checkout_reads%' ORDER BY name`,
      );
      expect(rows.map((row) => [row.name, Number(row.custom_plans), Number(row.generic_plans)])).toStrictEqual([
        // Past the last length (9 and 11 experiences): an array parameter, planned at each call.
        ['checkout_reads', 2, 0],
        ['checkout_reads_1', 1, 0],
        ['checkout_reads_2', 1, 0],
        ['checkout_reads_4', 5, 3],
        ['checkout_reads_8', 1, 0],
      ]);
    } finally {
      await one.$client.end();
    }
  });
});
