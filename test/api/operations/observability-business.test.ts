/** Business metrics: bookings and refunds counters, and the queue gauges read from the database at scrape time. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { guest } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createWaitlistEntry } from '../../../fixtures/factories/waitlists.ts';
import { createWebhookEndpoint, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { sample, scrape } from '../../support/metrics.ts';
import { TestProcessor } from '../../support/processors.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
// Adult 45.50 + 23 % VAT = 55.97 EUR.
const { experience } = await createExperience(db, brand.id);
const processor = new TestProcessor({ now: () => NOW });
// Recorded before the app starts: counters count from the start of the process.
await recordTestEvent(db, { brandId: brand.id, type: 'booking.created' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => NOW, payments: processor });
});

let day = 0;
const session = () => createSession(db, experience, { startLocal: `2026-12-${String(++day).padStart(2, '0')}T09:00:00` });
const bookings = (text: string, event: string) => sample(text, 'bookings_total', { event });
const refunds = (text: string, outcome: string) => sample(text, 'refunds_total', { outcome });

async function paidBooking(): Promise<string> {
  const s = await session();
  const cartId = randomUUID();
  const body = { data: [{ experienceId: experience.id, sessionTime: s.startLocal.slice(0, 16), participants: [guest('Ana')] }] };
  const created = await t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, { key, body });
  expect(created.status).toBe(201);
  const paid = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
    body: { paymentIntentSecret: created.body.paymentIntentSecret, outcome: 'succeeded' },
  });
  expect(paid.body).toEqual({ paymentIntentStatus: 'succeeded' });
  const cart = await t.gql(
    `query($b: UUID!, $c: UUID!) { cart(brandId: $b, cartId: $c) { bookings { uuid } } }`,
    { b: brand.id, c: cartId },
    { key },
  );
  return cart.body.data.cart.bookings[0].uuid;
}

const refund = (bookingId: string, refundAmount: number) =>
  t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings: [{ bookingId, refundAmount }] } });

describe('bookings and refunds counters', () => {
  it('counts committed booking events since start and every refund by outcome, with the refunded amount', async () => {
    const before = await scrape(t);
    expect(bookings(before, 'created')).toBe(0);

    const bookingId = await paidBooking();
    expect((await refund(bookingId, 10)).body.errors).toEqual([]);
    processor.decline();
    expect((await refund(bookingId, 5)).body.errors[0].code).toBe('PAYMENT_PROCESSOR_ERROR');
    processor.failure = new Error('socket hang up');
    expect((await refund(bookingId, 2.5)).body.errors[0].code).toBe('PAYMENT_PROCESSOR_ERROR');
    processor.failure = null;

    const text = await scrape(t);
    expect([bookings(text, 'created'), bookings(text, 'confirmed'), bookings(text, 'refunded'), bookings(text, 'cancelled')]).toEqual([
      1, 1, 1, 0,
    ]);
    expect([refunds(text, 'succeeded'), refunds(text, 'declined'), refunds(text, 'unknown')]).toEqual([1, 1, 1]);
    expect(sample(text, 'refunded_amount_minor_total', { currency: 'EUR' })).toBe(1000);
    // Per-item outcomes of a cancel request are data of a 200 answer, not request errors.
    expect(sample(text, 'errors_total', { api: 'rest', code: 'PAYMENT_PROCESSOR_ERROR' })).toBeUndefined();

    // Each event is counted once, however often the metrics are scraped.
    expect(bookings(await scrape(t), 'created')).toBe(1);
  });

  it('counts a checkout hold while it lasts, its failure, and a cancellation', async () => {
    const s = await session();
    const held = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key,
      body: { data: [{ experienceId: experience.id, sessionTime: s.startLocal.slice(0, 16), participants: [guest('Rui')] }] },
    });
    expect(sample(await scrape(t), 'holds_active')).toBe(1);
    await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
      body: { paymentIntentSecret: held.body.paymentIntentSecret, outcome: 'failed' },
    });
    expect(sample(await scrape(t), 'holds_active')).toBe(0);
    const bookingId = await paidBooking();
    expect((await t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings: [{ bookingId, cancel: true }] } })).body.errors).toEqual(
      [],
    );

    const text = await scrape(t);
    expect([bookings(text, 'created'), bookings(text, 'failed'), bookings(text, 'confirmed'), bookings(text, 'cancelled')]).toEqual([
      3, 1, 2, 1,
    ]);
  });
});

describe('queue gauges', () => {
  it('reads holds, waitlist offers and webhook deliveries from the database at every scrape', async () => {
    const fresh = await freshDb();
    const b = await createBrand(fresh);
    const exp = (await createExperience(fresh, b.id)).experience;
    const s = await createSession(fresh, exp, { startLocal: '2026-12-20T09:00:00' });
    const app = await startApp(fresh, { now: () => NOW });
    const gauges = (text: string) =>
      ['holds_active', 'waitlist_offers_active', 'webhook_deliveries_pending', 'webhook_deliveries_failed'].map((name) =>
        sample(text, name),
      );
    expect(gauges(await scrape(app))).toEqual([0, 0, 0, 0]);

    await createBooking(fresh, {
      brandId: b.id,
      session: s,
      status: 'processing',
      overrides: { holdExpiresAt: '2026-11-25T12:15:00.000Z' },
    });
    await createBooking(fresh, { brandId: b.id, session: s, status: 'confirmed' });
    const waitlist = await createWaitlist(fresh, exp.id);
    await createWaitlistEntry(fresh, {
      waitlist,
      session: s,
      brandId: b.id,
      position: 1,
      status: 'offered',
      offerExpiresAt: '2026-11-26T12:00:00.000Z',
    });
    await createWaitlistEntry(fresh, { waitlist, session: s, brandId: b.id, position: 2 });
    await createWebhookEndpoint(fresh, b.id, { url: 'https://hooks.example.test/a' });
    await createWebhookEndpoint(fresh, b.id, { url: 'https://hooks.example.test/b' });
    await recordTestEvent(fresh, { brandId: b.id, type: 'booking.confirmed' });
    expect(gauges(await scrape(app))).toEqual([1, 1, 2, 0]);

    // Either of the two deliveries: the one of the first endpoint.
    const [first] = await fresh.rows('webhookDeliveries', {}, ['createdAt', 'id']);
    await fresh.update('webhookDeliveries', { id: first!.id }, { status: 'failed' });
    const text = await scrape(app);
    expect(gauges(text)).toEqual([1, 1, 1, 1]);
    expect(sample(text, 'bookings_total', { event: 'confirmed' })).toBe(1);
  });
});
