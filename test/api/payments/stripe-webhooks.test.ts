/**
 * POST /v1/webhooks/stripe: events signed as Stripe signs them (the SDK's test header), verified by the
 * SDK on the raw body. Success confirms, a declined card keeps the hold, repeats and strays change nothing.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { startApp } from '../../support/app.ts';
import { STRIPE_NOW, stripeProcessor, stripeWorld } from '../../support/stripe-world.ts';

const w = await stripeWorld();

beforeEach(() => {
  w.clock.now = new Date(STRIPE_NOW);
});

/** A checkout of two adults in a fresh session: its cart, booking, intent and client secret. */
async function checkedOut(capacity = 10) {
  const session = await w.session(w.sail, capacity);
  const cartId = randomUUID();
  const res = await w.checkout(session, { cartId });
  expect(res.status).toBe(201);
  const [bookingId] = await w.bookingIds(cartId);
  return { session, cartId, bookingId: bookingId!, intent: await w.intentOfCart(cartId), secret: res.body.paymentIntentSecret as string };
}

describe('payment_intent.succeeded', () => {
  it('confirms the bookings and pays the cart, once however often it is delivered', async () => {
    const co = await checkedOut();
    const webhook = w.paid(co.secret);
    expect(await w.deliver(webhook)).toEqual({ status: 200, body: { received: true } });
    expect(await w.state.booking(co.bookingId)).toEqual({ status: 'confirmed', holdExpiresAt: null, refundedMinor: 0 });
    expect(await w.state.intentStatus(co.intent.id)).toBe('succeeded');
    expect(await w.state.cartStatus(co.cartId)).toBe('paid');
    expect(await w.state.reserved(co.session.id)).toBe(2);
    expect(await w.events(co.bookingId)).toEqual(['booking.created', 'booking.confirmed']);

    // Stripe delivers at least once: the same event again, then a stale failure, change nothing.
    const before = await w.state.snapshot();
    expect(await w.deliver(webhook)).toEqual({ status: 200, body: { received: true } });
    const failed = w.fake.webhook(
      'payment_intent.payment_failed',
      { ...w.fake.intentOf(co.intent.reference), status: 'requires_payment_method' },
      { at: w.clock.now },
    );
    expect((await w.deliver(failed)).status).toBe(200);
    expect(await w.state.snapshot()).toEqual(before);
    expect(await w.events(co.bookingId)).toEqual(['booking.created', 'booking.confirmed']);
  });

  it('keeps the hold after a declined card, and confirms when the next card pays', async () => {
    const co = await checkedOut();
    const declined = w.fake.webhook(
      'payment_intent.payment_failed',
      { ...w.fake.intentOf(co.intent.reference), status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } },
      { at: w.clock.now },
    );
    expect((await w.deliver(declined)).status).toBe(200);
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'processing' });
    expect(await w.state.intentStatus(co.intent.id)).toBe('requires_payment');
    expect(await w.state.reserved(co.session.id)).toBe(2);

    expect((await w.deliver(w.paid(co.secret))).status).toBe(200);
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'confirmed' });
    expect(await w.events(co.bookingId)).toEqual(['booking.created', 'booking.confirmed']);
  });
});

describe('verification', () => {
  it.each([
    ['signed with another secret', { secret: 'whsec_someone_else' }],
    ['signed more than 5 minutes ago', { at: new Date(Date.parse(STRIPE_NOW) - 301_000) }],
  ])('refuses an event %s: 400, nothing changed', async (_name, options) => {
    const co = await checkedOut();
    const intent = w.fake.pay(w.fake.intentBySecret(co.secret).id);
    const before = await w.state.snapshot();
    const res = await w.deliver(w.fake.webhook('payment_intent.succeeded', intent, { at: w.clock.now, ...options }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'Stripe-Signature' } });
    expect(await w.state.snapshot()).toEqual(before);
  });

  it('refuses a body changed after signing, and a delivery without a signature', async () => {
    const co = await checkedOut();
    const webhook = w.paid(co.secret);
    const tampered = { ...webhook, body: webhook.body.replace('"livemode":false', '"livemode":true') };
    expect((await w.deliver(tampered)).status).toBe(400);
    expect((await w.deliver({ body: webhook.body, headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'processing' });
  });
});

describe('events that are not ours', () => {
  it('acknowledges an unknown intent, another account’s intent and another event type, changing nothing', async () => {
    const co = await checkedOut();
    const intent = w.fake.intentOf(co.intent.reference);
    const before = await w.state.snapshot();
    const unknown = w.fake.webhook('payment_intent.succeeded', { ...intent, id: 'pi_unknown', status: 'succeeded' }, { at: w.clock.now });
    const otherAccount = w.fake.webhook(
      'payment_intent.succeeded',
      { ...intent, status: 'succeeded' },
      { at: w.clock.now, account: 'acct_other' },
    );
    const otherType = w.fake.webhook('customer.created', { id: 'cus_1', object: 'customer' }, { at: w.clock.now });
    for (const webhook of [unknown, otherAccount, otherType])
      expect(await w.deliver(webhook)).toEqual({ status: 200, body: { received: true } });
    expect(await w.state.snapshot()).toEqual(before);
  });
});

describe('two gateways', () => {
  it('confirm once when both receive the same event at the same time', async () => {
    const other = await startApp(w.db, {
      now: () => w.clock.now,
      payments: stripeProcessor(w.fake, () => w.clock.now),
      intentReconciler: null,
    });
    const co = await checkedOut();
    const webhook = w.paid(co.secret);
    const answers = await Promise.all([w.deliver(webhook), w.deliver(webhook, other), w.deliver(webhook), w.deliver(webhook, other)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'confirmed' });
    expect(await w.events(co.bookingId)).toEqual(['booking.created', 'booking.confirmed']);
    expect(await w.state.reserved(co.session.id)).toBe(2);
  });
});
