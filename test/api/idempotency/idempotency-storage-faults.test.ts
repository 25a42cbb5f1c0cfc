/**
 * When the Idempotency-Key record cannot be written as the answer goes out (the database full or failing
 * in the `onSend` hook): the answer the request earned still goes out in the API's shape, never Fastify's
 * default body with SQL in it; a key whose request failed with a 5xx is released once the database takes
 * writes again, so the retry runs again as documented.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb, type TestDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { TestProcessor } from '../../support/processors.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
/** Opening a payment intent fails while `intentsDown` (PAYMENT_PROCESSOR_ERROR, 502). */
class Processor extends TestProcessor {
  intentsDown = false;
  override async createIntent(input: Parameters<TestProcessor['createIntent']>[0]) {
    if (this.intentsDown) throw new Error('processor unreachable');
    return super.createIntent(input);
  }
}
const processor = new Processor();
const logs: Array<{ msg?: string; idempotencyKey?: string }> = [];
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, {
    now: () => new Date('2026-11-25T12:00:00.000Z'),
    payments: processor,
    logStream: { write: (line) => logs.push(JSON.parse(line)) },
  });
});

/** Makes `UPDATE` or `DELETE` on idempotency_keys fail, as a full disk or a failing database would; returns the undo. */
async function failIdempotencyWrites(on: 'UPDATE' | 'DELETE', database: TestDb = db): Promise<() => Promise<void>> {
  if (database.engine === 'postgresql') {
    await database.run(
      `CREATE OR REPLACE FUNCTION fail_idempotency_write() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'simulated write failure'; END $$ LANGUAGE plpgsql`,
    );
    await database.run(
      `CREATE TRIGGER fail_idempotency_write BEFORE ${on} ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION fail_idempotency_write()`,
    );
    return () => database.run('DROP TRIGGER fail_idempotency_write ON idempotency_keys');
  }
  await database.run(
    `CREATE TRIGGER fail_idempotency_write BEFORE ${on} ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'simulated write failure'); END`,
  );
  return () => database.run('DROP TRIGGER fail_idempotency_write');
}

let undo: (() => Promise<void>) | undefined;
afterEach(async () => {
  await undo?.();
  undo = undefined;
  processor.intentsDown = false;
});

let day = 0;
async function paidBooking() {
  day += 1;
  const session = await createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00` });
  return (await createPaidBooking(db, { brandId: brand.id, session, participants: [{ priceMinor: 5000 }] })).booking;
}

const refund = (bookingId: string, idempotencyKey: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/bookings/cancel',
    payload: { bookings: [{ bookingId, refundAmount: 10 }] },
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
  });

describe('an Idempotency-Key record that cannot be written', () => {
  it('sends the answer the request earned (the refund was made) when storing it fails, and logs why', async () => {
    const booking = await paidBooking();
    undo = await failIdempotencyWrites('UPDATE');
    const res = await refund(booking.id, 'store-fails');
    expect(res.statusCode).toBe(200);
    expect(res.json().items[0]).toMatchObject({ id: booking.id, amountRefunded: 10 });
    expect(res.body).not.toMatch(/idempotency_keys|simulated|statusCode/);
    expect(logs.some((line) => line.msg?.includes('answer could not be stored') && line.idempotencyKey === 'store-fails')).toBe(true);
  });

  it('answers a 5xx in the API shape when releasing its key fails, and releases the key once writes work again', async () => {
    const session = await createSession(db, experience, { startLocal: '2026-12-20T09:00:00' });
    const cartId = crypto.randomUUID();
    const checkout = () =>
      t.app.inject({
        method: 'POST',
        url: `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`,
        payload: {
          data: [
            {
              experienceId: experience.id,
              sessionTime: session.startLocal,
              participants: [{ firstName: 'Ana', lastName: 'Reis', priceTierName: 'Adult' }],
            },
          ],
        },
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'release-fails' },
      });
    processor.intentsDown = true;
    undo = await failIdempotencyWrites('DELETE');
    const failed = await checkout();
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toMatchObject({ code: 'PAYMENT_PROCESSOR_ERROR' });
    expect(failed.body).not.toMatch(/idempotency_keys|simulated|statusCode/);
    await undo();
    undo = undefined;
    processor.intentsDown = false;
    // Released in the background as soon as the database takes the write (retried with short waits).
    await expect.poll(() => db.count('idempotencyKeys', { key: 'release-fails' }), { timeout: 5000, interval: 100 }).toBe(0);
    const retry = await checkout();
    expect([retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([201, undefined]);
  });
});
