/**
 * A publishable client's budget of unpaid places lives in the database: two gateways of one PostgreSQL
 * database (two apps, each with its own pool, in one process, as gateway processes of one deployment) count
 * the same holds, one after the other and when checkouts race on both (src/domain/checkout/hold-budget.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type Connection } from '../../src/db/connect.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { CheckoutTestProcessor, checkoutRows, guest } from '../support/checkout.ts';
import { freshPostgresDb, type TestDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand, createPublishableKey } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';

const SHOP = 'https://shop.example';
const now = () => new Date('2026-11-25T12:00:00.000Z');
let db: (TestDb & { url: string }) | undefined;
let second: Connection | undefined;
if (adminUrl) {
  db = await freshPostgresDb();
  second = await connect(db.url);
  afterAll(() => second!.database.close());
}

describePostgres('hold budgets on two PostgreSQL gateways', () => {
  const processors = [new CheckoutTestProcessor({ now }), new CheckoutTestProcessor({ now })];
  let gateways: TestApp[] = [];
  beforeAll(async () => {
    gateways = [
      await startApp(db!, { now, payments: processors[0] }),
      await startApp({ ...db!, database: second!.database } as TestDb, { now, payments: processors[1] }),
    ];
  });

  async function world() {
    // Every place open to publishable holds: this file is about the client budget, not the share.
    const brand = await createBrand(db!, { publishableHoldSharePercent: 100 });
    const key = (await createPublishableKey(db!, brand.id, [SHOP])).secret;
    const { experience } = await createExperience(db!, brand.id);
    const sessions = [
      await createSession(db!, experience, { startLocal: '2026-12-01T09:00:00', capacity: 8 }),
      await createSession(db!, experience, { startLocal: '2026-12-01T15:00:00', capacity: 8 }),
    ];
    /** Checkout `i` of the hoarding script (2 guests, a fresh cart), on gateway `i % 2`. */
    const checkout = (i: number) =>
      gateways[i % 2]!.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
        key,
        headers: { origin: SHOP },
        body: {
          data: [{ experienceId: experience.id, sessionTime: sessions[i % 2]!.startLocal, participants: [guest('Ana'), guest('Rui')] }],
        },
      });
    const held = async () => (await checkoutRows(db!).reserved(sessions[0]!.id)) + (await checkoutRows(db!).reserved(sessions[1]!.id));
    return { checkout, held };
  }

  it("counts the hoarding script's holds on both gateways together: 10 places, then 429 on either", async () => {
    const w = await world();
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await w.checkout(i)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(await w.held()).toBe(10);
  });

  it('keeps racing checkouts of one client on both gateways within its budget', async () => {
    const w = await world();
    // Each gateway's four checkouts all pass the early check before any is written: the units of work decide.
    for (const processor of processors) processor.holdUntil(4);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => w.checkout(i)));
    for (const processor of processors) processor.holdUntil(1);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(await w.held()).toBe(10);
  });
});
