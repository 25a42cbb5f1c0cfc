import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../../fixtures/factories/checkout.ts';
import { createCheckout } from '../../../fixtures/factories/checkouts.ts';
import { paymentState } from '../../support/payment-state.ts';
import { TestProcessor } from '../../support/processors.ts';

const NOW = '2026-11-25T12:00:00.000Z';
const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const processor = new TestProcessor({ now: () => new Date(NOW) });
const state = paymentState(db);
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(NOW), payments: processor });
});
beforeEach(() => {
  processor.refundCalls.length = 0;
  processor.failure = null;
});

let day = 0;
const session = (capacity = 10) => {
  day += 1;
  return createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00`, capacity });
};
const confirm = (paymentIntentSecret: unknown, outcome: unknown = 'succeeded') =>
  t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret, outcome } });
const view = async (bookingId: string) => (await t.rest('GET', `/v1/bookings/${bookingId}`, { key })).body;
/** Two guests at 45.00 each. */
const two = [{ priceMinor: 4500 }, { priceMinor: 4500 }];

describe('sandbox confirm: succeeded', () => {
  it('confirms the processing bookings, pays the cart and keeps the places they already held', async () => {
    const s = await session();
    const co = await createCheckout(db, { brandId: brand.id, items: [{ session: s, participants: two }, { session: s }] });
    expect(await state.reserved(s.id)).toBe(3);

    const res = await confirm(co.secret);
    expect(res).toMatchObject({ status: 200, body: { paymentIntentStatus: 'succeeded' } });
    for (const { booking } of co.bookings)
      expect(await state.booking(booking.id)).toEqual({ status: 'confirmed', holdExpiresAt: null, refundedMinor: 0 });
    expect(await state.intentStatus(co.intent.id)).toBe('succeeded');
    expect(await state.cartStatus(co.cart.id)).toBe('paid');
    expect(await state.reserved(s.id)).toBe(3);
    expect(processor.refundCalls).toEqual([]);

    const shown = await view(co.bookings[0]!.booking.id);
    expect(shown).toMatchObject({ status: 'confirmed', amount: 90, amountRefunded: 0, cartId: co.cart.id });
    expect(shown.participants.map((p: any) => p.cancelledAt)).toEqual([null, null]);
  });

  it('needs no API key: the secret is the credential', async () => {
    const co = await createCheckout(db, { brandId: brand.id, items: [{ session: await session() }] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/sandbox/payment_intents/confirm',
      payload: { paymentIntentSecret: co.secret, outcome: 'succeeded' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('confirms a booking whose hold lapsed when its places are still free, taking them and its credit again', async () => {
    const s = await session(3);
    const code = await createCreditCode(db, brand.id, { code: `LATE${day}`, balanceMinor: 2000 });
    const co = await createCheckout(db, {
      brandId: brand.id,
      items: [{ session: s, participants: two, credit: { code, amountMinor: 1000 } }],
      intent: { status: 'canceled' },
    });
    // The lapse, as the hold sweeper leaves it: failed, places and credit given back.
    await db.run("UPDATE bookings SET status = 'failed', hold_expires_at = NULL WHERE id = ?", co.bookings[0]!.booking.id);
    await db.run('UPDATE sessions SET reserved = 0 WHERE id = ?', s.id);
    await db.run('DELETE FROM credit_redemptions WHERE booking_id = ?', co.bookings[0]!.booking.id);
    await db.run('UPDATE credit_codes SET balance_minor = 2000 WHERE id = ?', code.id);

    expect((await confirm(co.secret)).body).toEqual({ paymentIntentStatus: 'succeeded' });
    expect(await state.booking(co.bookings[0]!.booking.id)).toEqual({ status: 'confirmed', holdExpiresAt: null, refundedMinor: 0 });
    expect(await state.reserved(s.id)).toBe(2);
    expect(await state.balance(code.id)).toBe(1000);
    expect(await state.redemptions(co.bookings[0]!.booking.id)).toEqual([{ amountMinor: 1000 }]);
    expect(await state.cartStatus(co.cart.id)).toBe('paid');
    expect(processor.refundCalls).toEqual([]);
    expect((await view(co.bookings[0]!.booking.id)).status).toBe('confirmed');
  });

  it('refunds in full a booking whose hold lapsed when others took its places meanwhile', async () => {
    const s = await session(3);
    const co = await createCheckout(db, {
      brandId: brand.id,
      items: [{ session: s, participants: two, status: 'failed' }],
      intent: { status: 'canceled' },
    });
    await createBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    const booking = co.bookings[0]!.booking;

    expect((await confirm(co.secret)).body).toEqual({ paymentIntentStatus: 'succeeded' });
    expect(await state.booking(booking.id)).toEqual({ status: 'refunded', holdExpiresAt: null, refundedMinor: 9000 });
    expect(await state.ledger(booking.id)).toEqual([{ amountMinor: 9000, status: 'succeeded' }]);
    expect(processor.refundCalls).toEqual([
      { intentReference: co.reference, amountMinor: 9000, currency: 'EUR', idempotencyKey: expect.any(String) },
    ]);
    expect(await state.reserved(s.id)).toBe(2);
    expect(await state.cancelledAt(booking.id)).toEqual([NOW, NOW]);
    expect(await state.cartStatus(co.cart.id)).toBe('paid');
    expect(await view(booking.id)).toMatchObject({ status: 'refunded', amount: 90, amountRefunded: 90 });
  });

  it('refunds a lapsed booking whose credit was spent meanwhile, leaving the places it could have taken free', async () => {
    const s = await session(5);
    const code = await createCreditCode(db, brand.id, { code: `GONE${day}`, balanceMinor: 0 });
    const co = await createCheckout(db, {
      brandId: brand.id,
      items: [{ session: s, status: 'failed', overrides: { pricing: creditPricing(code.code) } }],
    });
    await confirm(co.secret);
    expect(await state.booking(co.bookings[0]!.booking.id)).toMatchObject({ status: 'refunded', refundedMinor: 4500 });
    expect(await state.reserved(s.id)).toBe(0);
    expect(await state.balance(code.id)).toBe(0);
    expect(await state.redemptions(co.bookings[0]!.booking.id)).toEqual([]);
  });

  it('refunds in full a booking the partner cancelled while the guest was paying, and confirms the rest of the cart', async () => {
    const s = await session();
    const co = await createCheckout(db, { brandId: brand.id, items: [{ session: s }, { session: s, participants: two }] });
    const [kept, cancelled] = co.bookings.map((b) => b.booking.id) as [string, string];
    expect(
      (await t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings: [{ bookingId: cancelled, cancel: true }] } })).body.errors,
    ).toEqual([]);
    expect(await state.reserved(s.id)).toBe(1);

    await confirm(co.secret);
    expect(await state.booking(kept)).toMatchObject({ status: 'confirmed' });
    expect(await state.booking(cancelled)).toEqual({ status: 'refunded', holdExpiresAt: null, refundedMinor: 9000 });
    expect(await state.ledger(cancelled)).toEqual([{ amountMinor: 9000, status: 'succeeded' }]);
    expect(await state.reserved(s.id)).toBe(1);
    expect(await state.cartStatus(co.cart.id)).toBe('paid');
    expect(await view(cancelled)).toMatchObject({ status: 'refunded', amountRefunded: 90 });
  });

  it('never honours the payment of a checkout a later one replaced: it is refunded and the cart stays open', async () => {
    const s = await session();
    const old = await createCheckout(db, { brandId: brand.id, items: [{ session: s, status: 'failed' }], intent: { status: 'canceled' } });
    const later = await createCheckout(db, {
      brandId: brand.id,
      cart: old.cart,
      items: [{ session: s }],
      intent: { createdAt: '2026-11-21T10:00:00.000Z' },
    });

    await confirm(old.secret);
    expect(await state.booking(old.bookings[0]!.booking.id)).toMatchObject({ status: 'refunded', refundedMinor: 4500 });
    expect(await state.booking(later.bookings[0]!.booking.id)).toMatchObject({ status: 'processing' });
    expect(await state.reserved(s.id)).toBe(1);
    expect(await state.cartStatus(old.cart.id)).toBe('open');
  });

  it('when the processor declines the automatic refund, leaves the booking cancelled and paid so the partner can refund it', async () => {
    const s = await session();
    const co = await createCheckout(db, { brandId: brand.id, items: [{ session: s }] });
    const id = co.bookings[0]!.booking.id;
    await t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings: [{ bookingId: id, cancel: true }] } });
    processor.decline();

    expect(await confirm(co.secret)).toMatchObject({ status: 200, body: { paymentIntentStatus: 'succeeded' } });
    expect(await state.booking(id)).toMatchObject({ status: 'cancelled', refundedMinor: 0 });
    expect(await state.ledger(id)).toEqual([{ amountMinor: 4500, status: 'failed' }]);
    expect(await state.cartStatus(co.cart.id)).toBe('open');

    processor.failure = null;
    const refund = await t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings: [{ bookingId: id, refundAmount: 45 }] } });
    expect(refund.body.items[0]).toMatchObject({ status: 'refunded', amountRefunded: 45 });
  });
});

describe('sandbox confirm: failed', () => {
  it('fails the processing bookings, releases their places and gives their credit back', async () => {
    const s = await session();
    const code = await createCreditCode(db, brand.id, { code: `FAIL${day}`, balanceMinor: 3000 });
    const co = await createCheckout(db, {
      brandId: brand.id,
      items: [{ session: s, participants: two, credit: { code, amountMinor: 1000 } }, { session: s }],
    });
    expect([await state.reserved(s.id), await state.balance(code.id)]).toEqual([3, 2000]);

    expect(await confirm(co.secret, 'failed')).toMatchObject({ status: 200, body: { paymentIntentStatus: 'failed' } });
    for (const { booking } of co.bookings)
      expect(await state.booking(booking.id)).toEqual({ status: 'failed', holdExpiresAt: null, refundedMinor: 0 });
    expect(await state.reserved(s.id)).toBe(0);
    expect(await state.balance(code.id)).toBe(3000);
    expect(await state.redemptions(co.bookings[0]!.booking.id)).toEqual([]);
    expect(await state.intentStatus(co.intent.id)).toBe('failed');
    expect(await state.cartStatus(co.cart.id)).toBe('open');
    const shown = await view(co.bookings[0]!.booking.id);
    expect(shown).toMatchObject({ status: 'failed', amountRefunded: 0 });
    expect(shown.participants.map((p: any) => p.cancelledAt)).toEqual([null, null]);
  });

  it('changes nothing after a success: the money was captured', async () => {
    const co = await createCheckout(db, { brandId: brand.id, items: [{ session: await session() }] });
    await confirm(co.secret);
    const before = await state.snapshot();
    expect((await confirm(co.secret, 'failed')).body).toEqual({ paymentIntentStatus: 'succeeded' });
    expect(await state.snapshot()).toEqual(before);
    expect((await view(co.bookings[0]!.booking.id)).status).toBe('confirmed');
  });

  it('changes nothing for an intent whose holds already lapsed (canceled)', async () => {
    const s = await session();
    const co = await createCheckout(db, { brandId: brand.id, items: [{ session: s, status: 'failed' }], intent: { status: 'canceled' } });
    const before = await state.snapshot();
    expect((await confirm(co.secret, 'failed')).body).toEqual({ paymentIntentStatus: 'canceled' });
    expect(await state.snapshot()).toEqual(before);
  });
});

describe('sandbox confirm: repeats and bad input', () => {
  it('a repeated outcome changes nothing: no second refund, no second release', async () => {
    const s = await session(2);
    const refunded = await createCheckout(db, { brandId: brand.id, items: [{ session: s, status: 'failed' }] });
    await createBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    await confirm(refunded.secret);
    const failed = await createCheckout(db, { brandId: brand.id, items: [{ session: await session() }] });
    await confirm(failed.secret, 'failed');
    const before = await state.snapshot();

    expect((await confirm(refunded.secret)).body).toEqual({ paymentIntentStatus: 'succeeded' });
    expect((await confirm(failed.secret, 'failed')).body).toEqual({ paymentIntentStatus: 'failed' });
    expect(await state.snapshot()).toEqual(before);
    expect(processor.refundCalls).toHaveLength(1);
  });

  it('two deliveries racing refund once', async () => {
    const s = await session(1);
    const co = await createCheckout(db, { brandId: brand.id, items: [{ session: s, status: 'failed' }] });
    await createBooking(db, { brandId: brand.id, session: s });
    processor.hold();
    const racing = Promise.all([confirm(co.secret), confirm(co.secret)]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    processor.release();
    expect((await racing).map((r) => r.status)).toEqual([200, 200]);
    expect(processor.refundCalls).toHaveLength(1);
    expect(await state.ledger(co.bookings[0]!.booking.id)).toEqual([{ amountMinor: 4500, status: 'succeeded' }]);
  });

  it('is 404 for an unknown secret', async () => {
    const res = await confirm('pi_sbx_nothing_secret_nothing');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'paymentIntentSecret' } });
  });

  it.each([
    ['an unknown outcome', { paymentIntentSecret: 's', outcome: 'refunded' }, 'outcome'],
    ['no outcome', { paymentIntentSecret: 's' }, 'outcome'],
    ['no secret', { outcome: 'failed' }, 'paymentIntentSecret'],
    ['an empty secret', { paymentIntentSecret: '', outcome: 'failed' }, 'paymentIntentSecret'],
    ['a secret that is not a string', { paymentIntentSecret: { value: 's' }, outcome: 'failed' }, 'paymentIntentSecret'],
    ['an unknown field', { paymentIntentSecret: 's', outcome: 'failed', amount: 1 }, 'amount'],
  ])('is 400 VALIDATION_FAILED for %s', async (_name, body, field) => {
    const res = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });
});

describe('sandbox confirm with another processor', () => {
  it('does not exist (404) unless the processor is the sandbox', async () => {
    const real = {
      name: 'real',
      createIntent: async () => ({ reference: 'pi_real', clientSecret: 'cs_real' }),
      refund: async () => ({ reference: 're_real' }),
      parseWebhook: () => {
        throw new Error('not used');
      },
    };
    const other = await startApp(await freshDb(), { payments: real });
    const res = await other.rest('POST', '/v1/sandbox/payment_intents/confirm', {
      body: { paymentIntentSecret: 'cs_real', outcome: 'succeeded' },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

function creditPricing(code: string) {
  return {
    tiersMinor: 5500,
    addOns: [],
    subtotalMinor: 5500,
    discounts: [{ kind: 'credit' as const, code, amountMinor: 1000 }],
    netMinor: 4500,
    taxes: [],
    totalMinor: 4500,
  };
}
