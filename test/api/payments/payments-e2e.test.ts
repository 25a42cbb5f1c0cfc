import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { paymentState } from '../../support/payment-state.ts';
import { TestProcessor } from '../../support/processors.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id, {}, { priceTiers: [{ name: 'Adult', priceMinor: 5000 }], taxes: [] });
const processor = new TestProcessor({ now: () => NOW });
const state = paymentState(db);
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => NOW, payments: processor });
});

let day = 0;
async function checkout() {
  day += 1;
  const session = await createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00` });
  const cartId = randomUUID();
  const res = await t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, {
    key,
    body: {
      data: [
        {
          experienceId: experience.id,
          sessionTime: session.startLocal,
          participants: [
            { firstName: 'Ana', lastName: 'Silva', emailAddress: 'ana@example.test', priceTierName: 'Adult' },
            { firstName: 'Rui', lastName: 'Silva', priceTierName: 'Adult' },
          ],
        },
      ],
    },
  });
  expect(res.status).toBe(201);
  const ids = (await db.all('SELECT id FROM bookings WHERE cart_id = ?', cartId)) as Array<{ id: string }>;
  return { cartId, session, secret: res.body.paymentIntentSecret as string, bookingId: ids[0]!.id };
}
const getBooking = async (id: string) => (await t.rest('GET', `/v1/bookings/${id}`, { key })).body;

describe('checkout, then the guest pays in the sandbox', () => {
  it('checkout -> sandbox confirm succeeded -> the booking is confirmed and the cart paid', async () => {
    const co = await checkout();
    expect(await getBooking(co.bookingId)).toMatchObject({ status: 'processing', amount: 100, amountRefunded: 0 });

    const res = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
      body: { paymentIntentSecret: co.secret, outcome: 'succeeded' },
    });
    expect(res).toMatchObject({ status: 200, body: { paymentIntentStatus: 'succeeded' } });
    expect(await getBooking(co.bookingId)).toMatchObject({ status: 'confirmed', amount: 100, amountRefunded: 0, cartId: co.cartId });
    expect(await state.cartStatus(co.cartId)).toBe('paid');
    expect(await state.reserved(co.session.id)).toBe(2);
  });

  it('checkout -> sandbox confirm failed -> the booking failed and its places are free again', async () => {
    const co = await checkout();
    const res = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
      body: { paymentIntentSecret: co.secret, outcome: 'failed' },
    });
    expect(res.body).toEqual({ paymentIntentStatus: 'failed' });
    expect((await getBooking(co.bookingId)).status).toBe('failed');
    expect(await state.reserved(co.session.id)).toBe(0);
  });
});
