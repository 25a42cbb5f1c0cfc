/**
 * Card checkout through Stripe: the real SDK against the tests' fake Stripe on 127.0.0.1. What Stripe is
 * asked (amount, currency, metadata, Idempotency-Key, Stripe-Account) and what a guest sees when Stripe
 * fails once, or for good.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { startApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { CONNECTED_ACCOUNT, HOLD_TTL, STRIPE_NOW, STRIPE_PUBLISHABLE_KEY, stripeWorld } from '../../support/stripe-world.ts';

const w = await stripeWorld();

beforeEach(() => {
  w.fake.requests.length = 0;
  w.clock.now = new Date(STRIPE_NOW);
});

describe('a card checkout with Stripe', () => {
  it('creates one PaymentIntent for the cart total in euro cents, and answers its client secret', async () => {
    const s = await w.session();
    const cartId = randomUUID();
    const res = await w.checkout(s, { cartId });
    expect(res.status).toBe(201);
    expect(res.body.totalNetAmount).toBe(111.93);

    const [create] = w.fake.calls('POST', '/v1/payment_intents');
    const intent = await w.intentOfCart(cartId);
    expect(create!.params).toMatchObject({ amount: '11193', currency: 'eur', 'automatic_payment_methods[enabled]': 'true' });
    expect(create!.params['metadata[brandId]']).toBe(w.eur.id);
    expect(create!.params['metadata[cartId]']).toBe(cartId);
    expect(create!.params['metadata[intentId]']).toBe(intent.id);
    // The key derives from Tessera's own intent id: a retry of this call can never make a second intent.
    expect(create!.idempotencyKey).toBe(`tessera-intent-${intent.id}`);
    expect(create!.stripeAccount).toBeNull();

    const stripeIntent = w.fake.intentOf(intent.reference);
    expect(intent.reference).toBe(stripeIntent.id);
    expect(res.body.paymentIntentSecret).toBe(stripeIntent.client_secret);
    expect(intent.status).toBe('requires_payment');
    expect(await w.state.reserved(s.id)).toBe(2);
  });

  it('sends a zero-decimal currency (JPY) as it is, on the brand’s connected account', async () => {
    const s = await w.session(w.walk);
    const cartId = randomUUID();
    const res = await w.checkout(s, { cartId, brand: 'jpy' });
    expect(res.status).toBe(201);
    expect(res.body.totalNetAmount).toBe(17600);
    const [create] = w.fake.calls('POST', '/v1/payment_intents');
    expect(create!.params).toMatchObject({ amount: '17600', currency: 'jpy' });
    expect(create!.stripeAccount).toBe(CONNECTED_ACCOUNT);
    const intent = await w.intentOfCart(cartId);
    expect(intent.reference).toBe(`${CONNECTED_ACCOUNT}/${w.fake.intentOf(intent.reference).id}`);
  });

  it('retries a Stripe 500 with the same Idempotency-Key and holds one intent', async () => {
    const s = await w.session();
    const cartId = randomUUID();
    w.fake.failNext(1, 500);
    const res = await w.checkout(s, { cartId });
    expect(res.status).toBe(201);
    const creates = w.fake.calls('POST', '/v1/payment_intents');
    expect(creates).toHaveLength(2);
    expect(creates[1]!.idempotencyKey).toBe(creates[0]!.idempotencyKey);
    const intents = [...w.fake.intents.values()].filter((i) => i.metadata.cartId === cartId);
    expect(intents).toHaveLength(1);
    expect(res.body.paymentIntentSecret).toBe(intents[0]!.client_secret);
    expect(await w.state.reserved(s.id)).toBe(2);
  });

  it('retries a 429 with the same key too', async () => {
    const s = await w.session();
    w.fake.failNext(1, 429);
    const res = await w.checkout(s);
    expect(res.status).toBe(201);
    const creates = w.fake.calls('POST', '/v1/payment_intents');
    expect(creates.map((c) => c.idempotencyKey)).toEqual([creates[0]!.idempotencyKey, creates[0]!.idempotencyKey]);
  });

  it('answers 502 PAYMENT_PROCESSOR_ERROR when Stripe keeps failing, holding and writing nothing', async () => {
    const s = await w.session();
    const cartId = randomUUID();
    w.fake.failNext(3, 500);
    const res = await w.checkout(s, { cartId });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('PAYMENT_PROCESSOR_ERROR');
    // The first call and the SDK's two retries, all with one key.
    const creates = w.fake.calls('POST', '/v1/payment_intents');
    expect(creates).toHaveLength(3);
    expect(new Set(creates.map((c) => c.idempotencyKey)).size).toBe(1);
    expect(await w.state.reserved(s.id)).toBe(0);
    expect(await w.bookingIds(cartId)).toEqual([]);
    expect(await w.db.value('SELECT count(*) FROM payment_intents WHERE cart_id = ?', cartId)).toBe(0);
  });

  it('cancels the previous intent at Stripe when the cart is checked out again', async () => {
    const s = await w.session();
    const cartId = randomUUID();
    const first = await w.checkout(s, { cartId });
    const previous = await w.intentOfCart(cartId);
    const second = await w.checkout(s, { cartId, adults: 3 });
    expect(second.status).toBe(201);
    expect(second.body.paymentIntentSecret).not.toBe(first.body.paymentIntentSecret);
    expect(await w.state.intentStatus(previous.id)).toBe('canceled');

    // The reconciler cancels it at Stripe at the latest when its hold would have lapsed.
    w.later(HOLD_TTL);
    await w.reconcileIntents();
    const cancels = w.fake.calls('POST', `/v1/payment_intents/${previous.reference}/cancel`);
    expect(cancels).toHaveLength(1);
    expect(w.fake.intentOf(previous.reference).status).toBe('canceled');
    // Asked once: a second pass finds nothing due for it.
    await w.reconcileIntents();
    expect(w.fake.calls('POST', `/v1/payment_intents/${previous.reference}/cancel`)).toHaveLength(1);
  });
});

describe('the processor a browser pays with', () => {
  it('is Stripe, with its publishable key, and the sandbox routes are gone', async () => {
    const res = await w.t().rest('GET', '/v1/payments/settings');
    expect(res).toMatchObject({ status: 200, body: { processor: 'stripe', stripePublishableKey: STRIPE_PUBLISHABLE_KEY } });
    const sandbox = await w
      .t()
      .rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret: 'x', outcome: 'succeeded' } });
    expect(sandbox.status).toBe(404);
  });

  it('is the sandbox without STRIPE_SECRET_KEY, which has no Stripe webhook route', async () => {
    const sandbox = await startApp(await freshDb());
    expect(await sandbox.rest('GET', '/v1/payments/settings')).toMatchObject({
      status: 200,
      body: { processor: 'sandbox', stripePublishableKey: null },
    });
    expect((await sandbox.rest('POST', '/v1/webhooks/stripe', { body: {} })).status).toBe(404);
  });
});
