/** Checkout (spec operation 4): quotes, what a checkout creates, auth and processor failures. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../../src/domain/access/secrets.ts';
import { guest } from '../../support/checkout.ts';
import { CHECKOUT_NOW, checkoutWorld } from '../../support/checkout-world.ts';

const { db, rows, payments, brand, keys, sail, t, session, at, checkout, gqlCheckout } = await checkoutWorld();

describe('quotes (getOnlyTotalNetAmount: true)', () => {
  it('answers 200 with the total only, and holds, writes and charges nothing', async () => {
    const s = await session();
    const cartId = randomUUID();
    const calls = payments.intentCalls;
    const body = {
      getOnlyTotalNetAmount: true,
      data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana'), guest('Rui', 'Child')] }],
    };
    const res = await checkout(body, cartId);
    // 45.50 + 20.00 = 65.50; VAT 23 % = 15.065 -> 15.07; 80.57.
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ totalNetAmount: 80.57 });
    const g = await gqlCheckout(body, cartId);
    expect(g.body.data.createPaymentIntent).toEqual({ totalNetAmount: 80.57, paymentIntentSecret: null, cart: null });
    expect(await rows.cart(cartId)).toBeUndefined();
    expect(await rows.bookingsOfCart(cartId)).toEqual([]);
    expect(await rows.reserved(s.id)).toBe(0);
    expect(payments.intentCalls).toBe(calls);
  });
});

describe('creating a payment intent', () => {
  it('creates one processing booking per item, sharing the cart code, holding places for the TTL', async () => {
    const first = await session();
    const second = await session();
    const cartId = randomUUID();
    const res = await checkout(
      {
        data: [
          {
            experienceId: sail.id,
            sessionTime: at(first),
            participants: [guest('Ana', 'Adult', { emailAddress: 'ana@example.test', phoneNumber: '+351 900' }), guest('Rui', 'Child')],
            notes: 'Birthday',
          },
          {
            experienceId: sail.id,
            sessionTime: `${at(second)}:00`,
            sessionDuration: 120,
            participants: [guest('Eva')],
            internalNotes: 'VIP',
          },
        ],
      },
      cartId,
    );
    expect(res.status).toBe(201);
    // 80.57 + (45.50 + 10.47 VAT) = 136.54
    expect(res.body.totalNetAmount).toBe(136.54);
    expect(res.body.paymentIntentSecret).toMatch(/^pi_sbx_/);

    const cart = (await rows.cart(cartId))!;
    expect(cart.status).toBe('open');
    expect(cart.confirmationCode).toMatch(/^[2-9A-HJKMNP-TV-Z]{8}$/);
    const made = await rows.bookingsOfCart(cartId);
    expect(made.map((b) => [b.status, b.cartPosition, b.amountMinor, b.cartConfirmationCode, b.holdExpiresAt])).toEqual([
      ['processing', 0, 8057, cart.confirmationCode, '2026-11-25T12:15:00.000Z'],
      ['processing', 1, 5597, cart.confirmationCode, '2026-11-25T12:15:00.000Z'],
    ]);
    expect(new Set(made.map((b) => b.confirmationCode)).size).toBe(2);
    expect(await rows.reserved(first.id)).toBe(2);
    expect(await rows.reserved(second.id)).toBe(1);

    const [intent] = await rows.intentsOfCart(cartId);
    expect(intent).toMatchObject({ status: 'requires_payment', amountMinor: 13654, currency: 'EUR', processor: 'sandbox' });
    expect(intent!.secretHash).toBe(hashSecret(res.body.paymentIntentSecret));
    const stored = JSON.stringify(await db.all('SELECT * FROM payment_intents WHERE cart_id = ?', cartId));
    expect(stored).not.toContain(res.body.paymentIntentSecret);
    expect(made.every((b) => b.paymentIntentId === intent!.id)).toBe(true);

    const view = await t().rest('GET', `/v1/bookings/${made[0]!.id}`, { key: keys.brand });
    expect(view.body).toMatchObject({
      cartId,
      cartConfirmationCode: cart.confirmationCode,
      amount: 80.57,
      amountRefunded: 0,
      currency: 'EUR',
      status: 'processing',
      paymentMethod: 'credit-card',
      notes: 'Birthday',
      internalNotes: null,
      createdAt: CHECKOUT_NOW,
      event: { timezone: 'Europe/Lisbon', startDateTime: first.startLocal },
      experience: { id: sail.id, title: 'Sunset Sail' },
    });
    expect(view.body.purchaser).toEqual({
      id: expect.any(String),
      firstName: 'Ana',
      lastName: 'Silva',
      emailAddress: 'ana@example.test',
      phoneNumber: '+351 900',
    });
    expect(view.body.participants.map((p: any) => [p.firstName, p.priceTierName, p.emailAddress, p.cancelledAt])).toEqual([
      ['Ana', 'Adult', 'ana@example.test', null],
      ['Rui', 'Child', null, null],
    ]);
    const other = await t().rest('GET', `/v1/bookings/${made[1]!.id}`, { key: keys.brand });
    expect(other.body.internalNotes).toBe('VIP');
    // The whole cart has one purchaser.
    expect(other.body.purchaser).toEqual(view.body.purchaser);
  });

  it('uses the top-level purchaser when one is sent', async () => {
    const s = await session();
    const cartId = randomUUID();
    const purchaser = { firstName: 'Marta', lastName: 'Reis', emailAddress: 'marta@example.test' };
    const res = await checkout({ purchaser, data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')] }] }, cartId);
    expect(res.status).toBe(201);
    const [booking] = await rows.bookingsOfCart(cartId);
    const view = await t().rest('GET', `/v1/bookings/${booking!.id}`, { key: keys.brand });
    expect(view.body.purchaser).toEqual({
      id: expect.any(String),
      firstName: 'Marta',
      lastName: 'Reis',
      emailAddress: 'marta@example.test',
      phoneNumber: null,
    });
    expect(view.body.participants.map((p: any) => p.firstName)).toEqual(['Ana']);
  });

  it('keeps accessCode, resource fields and the metadata with the booking', async () => {
    const s = await session();
    const cartId = randomUUID();
    await checkout(
      {
        data: [
          {
            experienceId: sail.id,
            sessionTime: at(s),
            participants: [guest('Ana')],
            accessCode: 'VIP-2027',
            resourceGroupId: 'boat-2',
            resourceQuantity: 1,
            metadata: { partnerRef: 'ORD-77', tags: ['a'] },
          },
        ],
      },
      cartId,
    );
    const [booking] = await rows.bookingsOfCart(cartId);
    expect(JSON.parse(booking!.metadata!)).toEqual({
      accessCode: 'VIP-2027',
      resourceGroupId: 'boat-2',
      resourceQuantity: 1,
      partner: { partnerRef: 'ORD-77', tags: ['a'] },
    });
  });

  it('answers 201 through an organization key acting for the brand in the path', async () => {
    const s = await session();
    const res = await checkout(
      { data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')] }] },
      randomUUID(),
      keys.org,
    );
    expect(res.status).toBe(201);
    expect(await rows.reserved(s.id)).toBe(1);
  });

  it('gives the GraphQL face the same checkout, with the cart and its bookings', async () => {
    const s = await session();
    const cartId = randomUUID();
    const g = await gqlCheckout(
      { data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana'), guest('Rui', 'Child')] }] },
      cartId,
    );
    const payload = g.body.data.createPaymentIntent;
    expect(payload.totalNetAmount).toBe(80.57);
    expect(payload.paymentIntentSecret).toMatch(/^pi_sbx_/);
    const [booking] = await rows.bookingsOfCart(cartId);
    // The answer's ids are global: the same cart and booking objects that reading the cart by its raw id answers.
    const read = await t().gql(
      `query($b: UUID!, $c: UUID!) { cart(brandId: $b, cartId: $c) { id uuid bookings { id uuid } } }`,
      { b: brand.id, c: cartId },
      { key: keys.brand },
    );
    expect(read.body.data.cart).toEqual({
      id: expect.any(String),
      uuid: cartId,
      bookings: [{ id: expect.any(String), uuid: booking!.id }],
    });
    expect(payload.cart).toEqual({
      id: read.body.data.cart.id,
      status: 'OPEN',
      confirmationCode: (await rows.cart(cartId))!.confirmationCode,
      paymentIntentStatus: 'REQUIRES_PAYMENT',
      totalAmount: 80.57,
      currency: 'EUR',
      bookings: [
        {
          id: read.body.data.cart.bookings[0].id,
          status: 'PROCESSING',
          confirmationCode: booking!.confirmationCode,
          cartConfirmationCode: (await rows.cart(cartId))!.confirmationCode,
          amount: 80.57,
        },
      ],
    });
    expect(await rows.reserved(s.id)).toBe(2);
  });
});

describe('auth and the processor', () => {
  const body = async () => ({ data: [{ experienceId: sail.id, sessionTime: at(await session()), participants: [guest('Ana')] }] });

  it('needs a key (401) acting for the path brand (403), on both faces', async () => {
    expect((await checkout(await body(), randomUUID(), '')).status).toBe(401);
    const wrong = await checkout(await body(), randomUUID(), keys.outsider);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('FORBIDDEN');
    expect((await gqlCheckout(await body(), randomUUID(), '')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await gqlCheckout(await body(), randomUUID(), keys.outsider)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('answers 502 PAYMENT_PROCESSOR_ERROR when the processor fails, holding nothing', async () => {
    const b = await body();
    const cartId = randomUUID();
    payments.failIntents = true;
    const res = await checkout(b, cartId);
    const g = await gqlCheckout(b, cartId);
    payments.failIntents = false;
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('PAYMENT_PROCESSOR_ERROR');
    expect(g.body.errors[0].extensions.code).toBe('PAYMENT_PROCESSOR_ERROR');
    expect(await rows.cart(cartId)).toBeUndefined();
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for a retried checkout: one hold, one intent, the same secret', async () => {
    const s = await session();
    const cartId = randomUUID();
    const body = { data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')] }] };
    const headers = { 'idempotency-key': `checkout-${cartId}` };
    const url = `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`;
    const first = await t().rest('POST', url, { key: keys.brand, body, headers });
    const retry = await t().rest('POST', url, { key: keys.brand, body, headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await rows.intentsOfCart(cartId)).toHaveLength(1);
    expect((await rows.bookingsOfCart(cartId)).map((b) => b.status)).toEqual(['processing']);
    expect(await rows.reserved(s.id)).toBe(1);
  });
});
