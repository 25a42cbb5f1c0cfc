/**
 * What a cancel request costs in SQL as it grows. Each item is its own transaction (a failed item
 * changes nothing, the others go ahead), so what the item reads and writes inside it is truly per
 * item; nothing is read before the loop (each item's locked read of its booking is also its visibility
 * check) and what is needed after it is read once, in batches; the views it answers with are the ones each item's unit took for its
 * events, never read again. And no statement is built or compiled per
 * item: everything an item runs is prepared once per connection.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.ts';
import { freshSqliteDb } from '../support/db.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { times } from '../../fixtures/factories/in-turn.ts';
import { createWebhookEndpoint } from '../../fixtures/factories/webhooks.ts';
import { CHECKOUT_NOW } from '../support/clock.ts';
import { compiledStatements, countStatements } from '../support/statements.ts';

const db = freshSqliteDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const session = await createSession(db, experience, { capacity: 1_000 });
// One subscribed endpoint: every booking event also queues a delivery.
await createWebhookEndpoint(db, brand.id, { url: 'https://hooks.example.test/tessera', events: ['booking.cancelled'] });
const fresh = (n: number) => times(n, async () => (await createBooking(db, { brandId: brand.id, session })).booking.id);
let t: TestApp;

beforeAll(async () => {
  // At CHECKOUT_NOW: the session (1 December 2026) is ahead, so giving places back asks its waiting line.
  t = await startApp(db, { now: () => new Date(CHECKOUT_NOW) });
  // Prepares what every cancel runs, so the counts below are what a running server pays.
  expect((await cancelOf(await fresh(1))).result.body.errors).toEqual([]);
});

/** Statements executed and statements compiled (`prepare`) while cancelling `ids` whole. */
async function cancelOf(ids: string[]) {
  const { count, sql, result } = await countStatements(db.connection, () =>
    compiledStatements(db.connection, () =>
      t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings: ids.map((bookingId) => ({ bookingId, cancel: true })) } }),
    ),
  );
  return { count, sql, result: result.result, prepared: result.sql.length };
}

describe('POST /v1/bookings/cancel cost', () => {
  // Per item: BEGIN; the booking, its pending refunds and its view's record (booking, participants,
  // answers), read once: the event's view is built from it and what the unit wrote; the participants and
  // booking updates; the event, the brand's endpoints and the delivery; the places given back (the UPDATE
  // returns the session) and its waiting line; COMMIT. (15 when the view was read again after the updates.)
  const PER_ITEM = 14;

  it(`runs ${PER_ITEM} statements per item and a fixed few per request, all of them prepared before`, async () => {
    const one = await cancelOf(await fresh(1));
    const ten = await cancelOf(await fresh(10));
    for (const { result } of [one, ten]) {
      expect(result.status).toBe(200);
      expect(result.body.errors).toEqual([]);
      expect(result.body.items.map((b: { status: string }) => b.status)).toEqual(result.body.items.map(() => 'cancelled'));
    }
    expect(ten.result.body.items).toHaveLength(10);
    // Per request: the data version, under which the API key found by the request before stands (bookings leave
    // it as it was: src/db/unversioned-tables.ts); the views answered are the items' own, taken for their
    // events; each item's unit checks visibility with its locked read: no read of every item before the loop.
    expect(one.count).toBe(1 + PER_ITEM);
    expect(ten.count).toBe(1 + 10 * PER_ITEM);
    expect(ten.sql.filter((s) => s.startsWith('select "bookings"."id", "bookings"."brand_id", "bookings"."session_id"'))).toHaveLength(10);
    // Once a first request has run, nothing is built or compiled again, whatever the number of items.
    expect(one.prepared).toBe(0);
    expect(ten.prepared).toBe(0);
  });

  it('answers 100 items with the same per-item cost', async () => {
    const hundred = await cancelOf(await fresh(100));
    expect(hundred.result.body.items).toHaveLength(100);
    expect(hundred.count).toBe(1 + 100 * PER_ITEM);
    expect(hundred.prepared).toBe(0);
  });
});
