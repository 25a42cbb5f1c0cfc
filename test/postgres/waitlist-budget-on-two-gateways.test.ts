/**
 * A publishable client's waitlist budget lives in the database: two gateways of one PostgreSQL database
 * (two apps, each with its own pool) count the same entries when joins of one client race on both; the
 * client's advisory lock (`lockHoldClient`, taken first in the join's unit) lets them count in turn.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type Connection } from '../../src/db/connect.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { freshPostgresDb, type TestDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand, createPublishableKey } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';

const now = () => new Date('2026-11-25T12:00:00.000Z');
let db: (TestDb & { url: string }) | undefined;
let second: Connection | undefined;
if (adminUrl) {
  db = await freshPostgresDb();
  second = await connect(db.url);
  afterAll(() => second!.database.close());
}

describePostgres('waitlist budgets on two PostgreSQL gateways', () => {
  let gateways: TestApp[] = [];
  beforeAll(async () => {
    gateways = [await startApp(db!, { now }), await startApp({ ...db!, database: second!.database } as TestDb, { now })];
  });

  it('lets exactly 3 of 6 racing joins of parties of 3 from one client through, on either gateway', async () => {
    const brand = await createBrand(db!);
    const key = (await createPublishableKey(db!, brand.id, ['https://shop.example'])).secret;
    const { experience } = await createExperience(db!, brand.id, { minimumRequiredToBook: 1, maximumAllowedToBook: 6 });
    const waitlist = await createWaitlist(db!, experience.id);
    // Six sold-out sessions: no session row is shared, only the client's lock orders the joins.
    const sessions: Array<Awaited<ReturnType<typeof createSession>>> = [];
    for (let day = 1; day <= 6; day++) {
      const s = await createSession(db!, experience, { startLocal: `2026-12-0${day}T10:00:00`, capacity: 2 });
      await createBooking(db!, { brandId: brand.id, session: s, participants: [{}, {}] });
      sessions.push(s);
    }
    const join = (i: number) =>
      gateways[i % 2]!.rest('POST', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries`, {
        key,
        body: {
          sessionStartDate: sessions[i]!.startLocal.slice(0, 10),
          sessionStartTime: sessions[i]!.startLocal.slice(11, 16),
          sessionDuration: sessions[i]!.durationMinutes,
          purchaser: { firstName: 'Ana', lastName: 'Reis', emailAddress: `racer-${i}@example.test` },
          participants: Array.from({ length: 3 }, (_, j) => ({ firstName: `G${j}`, lastName: 'Reis', priceTierName: 'Adult' })),
        },
      });
    const answers = await Promise.all(sessions.map((_, i) => join(i)));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    expect(
      await db!.value<number>(
        "SELECT coalesce(sum(party_size), 0)::int FROM waitlist_entries WHERE brand_id = ? AND status = 'waiting'",
        brand.id,
      ),
    ).toBe(9);
  });
});
