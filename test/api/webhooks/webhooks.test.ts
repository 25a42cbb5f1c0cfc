import { createHmac } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createCheckout } from '../../../fixtures/factories/checkouts.ts';
import { paymentState } from '../../support/payment-state.ts';
import { TestProcessor } from '../../support/processors.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const SECRET = 'whsec_test_tessera';
const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
/** The app's processor; the tests sign with it (same secret, same clock) as the processor would. */
const processor = new TestProcessor({ webhookSecret: SECRET, now: () => NOW });
const state = paymentState(db);
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => NOW, payments: processor });
});
beforeEach(() => {
  processor.refundCalls.length = 0;
});

let day = 0;
const session = (capacity = 10) => {
  day += 1;
  return createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00`, capacity });
};
/** A checkout of two guests on `s` (a fresh session when none is given). */
const checkout = async (s?: Awaited<ReturnType<typeof session>>) =>
  createCheckout(db, { brandId: brand.id, items: [{ session: s ?? (await session()), participants: [{}, {}] }] });
const signed = (
  reference: string,
  type: 'payment_intent.succeeded' | 'payment_intent.payment_failed' = 'payment_intent.succeeded',
  signer: SandboxProcessor = processor,
) => signer.signEvent({ type, intentReference: reference });
const deliver = async (body: string, headers: Record<string, string>, contentType = 'application/json') => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks/payments',
    headers: { 'content-type': contentType, ...headers },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
};

describe('POST /v1/webhooks/payments with a genuine signature', () => {
  it('confirms the bookings of a succeeded payment, with no API key', async () => {
    const s = await session();
    const co = await checkout(s);
    const event = signed(co.reference);
    expect(await deliver(event.body, event.headers)).toEqual({ status: 200, body: { received: true } });
    expect(await state.booking(co.bookings[0]!.booking.id)).toEqual({ status: 'confirmed', holdExpiresAt: null, refundedMinor: 0 });
    expect(await state.intentStatus(co.intent.id)).toBe('succeeded');
    expect(await state.cartStatus(co.cart.id)).toBe('paid');
    expect(await state.reserved(s.id)).toBe(2);
    expect((await t.rest('GET', `/v1/bookings/${co.bookings[0]!.booking.id}`, { key })).body).toMatchObject({
      status: 'confirmed',
      amountRefunded: 0,
    });
  });

  it('fails the bookings of a failed payment and releases their places', async () => {
    const s = await session();
    const co = await checkout(s);
    const event = signed(co.reference, 'payment_intent.payment_failed');
    expect((await deliver(event.body, event.headers)).status).toBe(200);
    expect(await state.booking(co.bookings[0]!.booking.id)).toMatchObject({ status: 'failed' });
    expect(await state.intentStatus(co.intent.id)).toBe('failed');
    expect(await state.reserved(s.id)).toBe(0);
    expect((await t.rest('GET', `/v1/bookings/${co.bookings[0]!.booking.id}`, { key })).body.status).toBe('failed');
  });

  it('accepts the JSON content type with a charset', async () => {
    const co = await checkout();
    const event = signed(co.reference);
    expect((await deliver(event.body, event.headers, 'application/json; charset=utf-8')).status).toBe(200);
    expect((await state.booking(co.bookings[0]!.booking.id)).status).toBe('confirmed');
  });

  it('changes nothing when the same event is delivered again', async () => {
    const s = await session(2);
    const co = await createCheckout(db, { brandId: brand.id, items: [{ session: s, status: 'failed' }] });
    await createBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    const event = signed(co.reference);
    await deliver(event.body, event.headers);
    expect(await state.booking(co.bookings[0]!.booking.id)).toMatchObject({ status: 'refunded', refundedMinor: 4500 });
    const before = await state.snapshot();

    expect(await deliver(event.body, event.headers)).toEqual({ status: 200, body: { received: true } });
    expect(await state.snapshot()).toEqual(before);
    expect(processor.refundCalls).toHaveLength(1);
  });

  it('acknowledges an event for an unknown intent and changes nothing', async () => {
    const before = await state.snapshot();
    const event = signed('pi_sbx_unknown');
    expect(await deliver(event.body, event.headers)).toEqual({ status: 200, body: { received: true } });
    expect(await state.snapshot()).toEqual(before);
  });
});

describe('POST /v1/webhooks/payments that is not genuine', () => {
  const late = new SandboxProcessor({ webhookSecret: SECRET, now: () => new Date(NOW.getTime() - 301_000) });
  const early = new SandboxProcessor({ webhookSecret: SECRET, now: () => new Date(NOW.getTime() + 301_000) });
  const impostor = new SandboxProcessor({ webhookSecret: 'whsec_someone_else', now: () => NOW });

  const cases: Array<[string, (reference: string) => { body: string; headers: Record<string, string>; contentType?: string }]> = [
    [
      'a tampered body',
      (ref) => {
        const event = signed(ref, 'payment_intent.payment_failed');
        return { ...event, body: event.body.replace('payment_failed', 'succeeded') };
      },
    ],
    ['a signature made with another secret', (ref) => signed(ref, 'payment_intent.succeeded', impostor)],
    ['no signature header', (ref) => ({ body: signed(ref).body, headers: {} })],
    ['a malformed signature header', (ref) => ({ body: signed(ref).body, headers: { 'sandbox-signature': 'garbage' } })],
    ['a timestamp older than 5 minutes', (ref) => signed(ref, 'payment_intent.succeeded', late)],
    ['a timestamp more than 5 minutes ahead', (ref) => signed(ref, 'payment_intent.succeeded', early)],
    ['a signed body that is not JSON', (ref) => signedRaw(`not json ${ref}`)],
    [
      'a signed body that is not a payment event',
      (ref) => signedRaw(JSON.stringify({ id: 'evt_1', type: 'charge.refunded', data: { intentReference: ref } })),
    ],
  ];

  it.each(cases)('is 400 VALIDATION_FAILED for %s, changing nothing', async (_name, make) => {
    const co = await checkout();
    const before = await state.snapshot();
    const { body, headers } = make(co.reference);
    const res = await deliver(body, headers);
    expect(res.status).toBe(400);
    // The same answer whatever did not match: a forger learns nothing.
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The webhook could not be verified',
      details: { field: 'Sandbox-Signature' },
    });
    expect(await state.snapshot()).toEqual(before);
  });

  it('is 400 without a body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks/payments' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('the public payment routes in the OpenAPI document', () => {
  it('declares them without security, under their tags', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/v1/webhooks/payments'].post).toMatchObject({ tags: ['Integrations'], security: [] });
    expect(doc.paths['/v1/sandbox/payment_intents/confirm'].post).toMatchObject({ tags: ['Carts & Checkout'], security: [] });
  });
});

/** A body the app's processor signs as it is, as if the processor itself had sent it. */
function signedRaw(body: string) {
  const t0 = Math.floor(NOW.getTime() / 1000);
  const hmac = createHmac('sha256', SECRET).update(`${t0}.${body}`).digest('hex');
  return { body, headers: { 'sandbox-signature': `t=${t0},v1=${hmac}` } };
}
