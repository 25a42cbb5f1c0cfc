/**
 * Money after the happy path, with Stripe: lapsed holds cancel their intent at Stripe, a payment landing
 * after the lapse is honoured or refunded in full at once, refunds go to Stripe once (Tessera's refund id
 * as idempotency key), and a lost webhook is made good by reading the intent back.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { intentCheckDefaults } from '../../../src/domain/payments/intent-reconciler.ts';
import { startApp } from '../../support/app.ts';
import { HOLD_TTL, STRIPE_NOW, stripeProcessor, stripeWorld } from '../../support/stripe-world.ts';

const w = await stripeWorld();

beforeEach(() => {
  w.clock.now = new Date(STRIPE_NOW);
  w.fake.refundStatus = 'succeeded';
});

async function checkedOut(session: { id: string; startLocal: string }, adults = 2) {
  const cartId = randomUUID();
  const res = await w.checkout(session, { cartId, adults });
  expect(res.status).toBe(201);
  const [bookingId] = await w.bookingIds(cartId);
  return { cartId, bookingId: bookingId!, intent: await w.intentOfCart(cartId), secret: res.body.paymentIntentSecret as string };
}

const refunds = (bookingId: string) =>
  w.db.all<{ id: string; amountMinor: number; status: string; processorReference: string | null }>(
    'SELECT id, amount_minor AS "amountMinor", status, processor_reference AS "processorReference" FROM refunds WHERE booking_id = ?',
    bookingId,
  );

describe('a lapsed hold', () => {
  it('cancels its intent at Stripe, so the guest can no longer pay it', async () => {
    const s = await w.session();
    const co = await checkedOut(s);
    w.later(HOLD_TTL + 1);
    await w.sweep();
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'failed' });
    expect(await w.state.intentStatus(co.intent.id)).toBe('canceled');
    expect(await w.state.reserved(s.id)).toBe(0);

    expect(await w.reconcileIntents()).toEqual({ cancelled: 1, paid: 0, later: 0 });
    const cancels = w.fake.calls('POST', `/v1/payment_intents/${co.intent.reference}/cancel`);
    expect(cancels).toHaveLength(1);
    expect(w.fake.intentOf(co.intent.reference).status).toBe('canceled');
    expect(await w.reconcileIntents()).toEqual({ cancelled: 0, paid: 0, later: 0 });
  });

  it('is confirmed when its payment lands after the lapse and the places are still free', async () => {
    const s = await w.session();
    const co = await checkedOut(s);
    w.later(HOLD_TTL + 1);
    await w.sweep();
    expect((await w.deliver(w.paid(co.secret))).status).toBe(200);
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'confirmed', refundedMinor: 0 });
    expect(await w.state.reserved(s.id)).toBe(2);
    expect(await w.state.cartStatus(co.cartId)).toBe('paid');
    expect(await w.events(co.bookingId)).toEqual(['booking.created', 'booking.failed', 'booking.confirmed']);
    expect(w.fake.calls('POST', '/v1/refunds')).toHaveLength(0);
  });

  it('is refunded in full at once when its payment lands after the lapse and the places are taken', async () => {
    const s = await w.session(w.sail, 2);
    const late = await checkedOut(s);
    w.later(HOLD_TTL + 1);
    await w.sweep();
    const other = await checkedOut(s);
    expect(await w.state.reserved(s.id)).toBe(2);
    const before = w.fake.calls('POST', '/v1/refunds').length;

    expect((await w.deliver(w.paid(late.secret))).status).toBe(200);
    const [refund] = await refunds(late.bookingId);
    const sent = w.fake.calls('POST', '/v1/refunds').slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params).toMatchObject({
      payment_intent: late.intent.reference,
      amount: '11193',
      'metadata[tesseraRefundId]': refund!.id,
    });
    expect(sent[0]!.idempotencyKey).toBe(`tessera-refund-${refund!.id}`);
    expect(refund).toEqual({
      id: refund!.id,
      amountMinor: 11193,
      status: 'succeeded',
      processorReference: [...w.fake.refunds.keys()].at(-1),
    });
    expect(await w.state.booking(late.bookingId)).toMatchObject({ status: 'refunded', refundedMinor: 11193 });
    expect(await w.events(late.bookingId)).toEqual(['booking.created', 'booking.failed', 'booking.cancelled', 'booking.refunded']);
    // The other guest keeps the places.
    expect(await w.state.booking(other.bookingId)).toMatchObject({ status: 'processing' });
    expect(await w.state.reserved(s.id)).toBe(2);
  });

  it('records a payment Stripe took before the cancellation reached it (the webhook lost)', async () => {
    const s = await w.session();
    const co = await checkedOut(s);
    w.fake.pay(w.fake.intentBySecret(co.secret).id);
    w.later(HOLD_TTL + 1);
    await w.sweep();
    expect(await w.reconcileIntents()).toEqual({ cancelled: 0, paid: 1, later: 0 });
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'confirmed' });
    expect(await w.state.intentStatus(co.intent.id)).toBe('succeeded');
  });
});

describe('a lost webhook', () => {
  it('is made good by reading the intent back once it has waited past the bound', async () => {
    const s = await w.session();
    const co = await checkedOut(s);
    w.fake.pay(w.fake.intentBySecret(co.secret).id);
    // Before the bound (600 s) nothing is asked.
    w.later(599);
    expect(await w.reconcileIntents()).toEqual({ cancelled: 0, paid: 0, later: 0 });
    expect(w.fake.calls('GET', `/v1/payment_intents/${co.intent.reference}`)).toHaveLength(0);
    w.later(1);
    expect(await w.reconcileIntents()).toEqual({ cancelled: 0, paid: 1, later: 0 });
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'confirmed' });
    expect(await w.state.cartStatus(co.cartId)).toBe('paid');
    // The webhook arriving after all changes nothing more.
    expect(
      (await w.deliver(w.fake.webhook('payment_intent.succeeded', w.fake.intentOf(co.intent.reference), { at: w.clock.now }))).status,
    ).toBe(200);
    expect(await w.events(co.bookingId)).toEqual(['booking.created', 'booking.confirmed']);
  });

  it('is read back by the job every gateway with Stripe runs', async () => {
    const s = await w.session();
    const co = await checkedOut(s);
    w.fake.pay(w.fake.intentBySecret(co.secret).id);
    w.later(600);
    const now = () => w.clock.now;
    const gateway = await startApp(w.db, {
      now,
      payments: stripeProcessor(w.fake, now),
      intentReconciler: { ...intentCheckDefaults, intervalMs: 20 },
    });
    for (let i = 0; i < 100 && (await w.state.booking(co.bookingId))?.status !== 'confirmed'; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'confirmed' });
    expect(w.fake.calls('GET', `/v1/payment_intents/${co.intent.reference}`)).toHaveLength(1);
    // Stopped, so the tests below drive their passes alone.
    await gateway.app.close();
  });

  it('leaves an intent still unpaid at Stripe alone and asks again later', async () => {
    const s = await w.session();
    const co = await checkedOut(s);
    w.later(600);
    expect(await w.reconcileIntents()).toEqual({ cancelled: 0, paid: 0, later: 1 });
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'processing' });
    expect(await w.reconcileIntents()).toEqual({ cancelled: 0, paid: 0, later: 0 });
  });
});

describe('refunds', () => {
  async function paidBooking() {
    const s = await w.session();
    const co = await checkedOut(s);
    expect((await w.deliver(w.paid(co.secret))).status).toBe(200);
    return co;
  }
  const cancel = (bookingId: string, refundAmount: number) =>
    w.t().rest('POST', '/v1/bookings/cancel', { key: w.keys.eur, body: { bookings: [{ bookingId, cancel: true, refundAmount }] } });

  it('go to Stripe once, with Tessera’s refund id as the idempotency key', async () => {
    const co = await paidBooking();
    const before = w.fake.calls('POST', '/v1/refunds').length;
    const res = await cancel(co.bookingId, 111.93);
    expect(res.status).toBe(200);
    expect(res.body.errors ?? []).toEqual([]);
    const [refund] = await refunds(co.bookingId);
    const sent = w.fake.calls('POST', '/v1/refunds').slice(before);
    expect(sent.map((c) => [c.idempotencyKey, c.params.amount, c.params.payment_intent])).toEqual([
      [`tessera-refund-${refund!.id}`, '11193', co.intent.reference],
    ]);
    expect(refund).toMatchObject({ status: 'succeeded', amountMinor: 11193 });
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'refunded', refundedMinor: 11193 });

    // Stripe's own notice of it, and the reconciler, send nothing more.
    const stripeRefund = w.fake.refunds.get(refund!.processorReference!)!;
    expect(
      (
        await w.deliver(
          w.fake.webhook(
            'charge.refunded',
            { id: 'ch_1', object: 'charge', payment_intent: stripeRefund.payment_intent },
            { at: w.clock.now },
          ),
        )
      ).status,
    ).toBe(200);
    w.later(120);
    await w.reconcileRefunds();
    expect(w.fake.calls('POST', '/v1/refunds').slice(before)).toHaveLength(1);
    expect(await w.events(co.bookingId)).toEqual(['booking.created', 'booking.confirmed', 'booking.cancelled', 'booking.refunded']);
  });

  it('left pending at Stripe are settled by its refund.updated webhook, the refund made once', async () => {
    const co = await paidBooking();
    w.fake.refundStatus = 'pending';
    const res = await cancel(co.bookingId, 111.93);
    expect(res.body.errors.map((e: { code: string; message: string }) => [e.code, e.message])).toEqual([
      ['PAYMENT_PROCESSOR_ERROR', 'The payment processor accepted the refund and has not settled it yet; it stays pending until it does'],
    ]);
    const [pending] = await refunds(co.bookingId);
    expect(pending).toMatchObject({ status: 'pending', amountMinor: 11193 });

    const stripeRefund = [...w.fake.refunds.values()].find((r) => r.metadata.tesseraRefundId === pending!.id)!;
    stripeRefund.status = 'succeeded';
    const updated = w.fake.webhook('refund.updated', stripeRefund, { at: w.clock.now });
    expect((await w.deliver(updated)).status).toBe(200);
    expect((await refunds(co.bookingId))[0]).toMatchObject({ status: 'succeeded', processorReference: stripeRefund.id });
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'refunded', refundedMinor: 11193 });
    expect([...w.fake.refunds.values()].filter((r) => r.metadata.tesseraRefundId === pending!.id)).toHaveLength(1);
    // Delivered again: nothing more.
    expect((await w.deliver(updated)).status).toBe(200);
    expect(await w.events(co.bookingId)).toEqual(['booking.created', 'booking.confirmed', 'booking.cancelled', 'booking.refunded']);
  });

  it('left pending are settled by the reconciler asking Stripe when no webhook comes', async () => {
    const co = await paidBooking();
    w.fake.refundStatus = 'pending';
    await cancel(co.bookingId, 111.93);
    const [pending] = await refunds(co.bookingId);
    w.later(61);
    expect(await w.reconcileRefunds()).toMatchObject({ succeeded: 0, unanswered: 1 });
    [...w.fake.refunds.values()].find((r) => r.metadata.tesseraRefundId === pending!.id)!.status = 'succeeded';
    w.later(3600);
    expect(await w.reconcileRefunds()).toMatchObject({ succeeded: 1 });
    expect(await w.state.booking(co.bookingId)).toMatchObject({ status: 'refunded' });
    expect([...w.fake.refunds.values()].filter((r) => r.metadata.tesseraRefundId === pending!.id)).toHaveLength(1);
  });
});
