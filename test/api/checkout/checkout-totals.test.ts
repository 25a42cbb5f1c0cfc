/** Checkout amounts to the minor unit, in EUR and JPY, through both faces; carts that cost nothing. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { guest } from '../../support/checkout.ts';
import { createCoupon, createCreditCode } from '../../../fixtures/factories/checkout.ts';
import { checkoutWorld } from '../../support/checkout-world.ts';

const { db, rows, payments, brand, sister, keys, sail, photos, foodWalk, sake, t, session, at, checkout, gqlCheckout } =
  await checkoutWorld();

describe('exact totals', () => {
  it('EUR: tiers + add-ons, then percentage, amount, coupon and credit discounts, then VAT', async () => {
    const s = await session();
    const coupon = await createCoupon(db, brand.id, { code: 'SPRING5', amountOffMinor: 500, percentOffBasisPoints: null });
    const credit = await createCreditCode(db, brand.id, { code: 'GIFT-ANA', balanceMinor: 5000 });
    const item = {
      experienceId: sail.id,
      sessionTime: at(s),
      participants: [guest('Ana'), guest('Rui'), guest('Eva', 'Child')],
      listingAddOns: [{ addOnId: photos.id, quantity: 2 }],
      discountPercentage: 10,
      discountAmount: 2.5,
      couponCode: 'spring5',
      appliedCreditCodes: [{ code: 'gift-ana', appliedValue: 20, sequence: 1 }],
    };
    // 2 x 45.50 + 20.00 + 2 x 10.00 = 131.00; -10 % = 117.90; -2.50 = 115.40; -5.00 coupon = 110.40;
    // -20.00 credit = 90.40; VAT 23 % = 20.792 -> 20.79; total 111.19.
    const quote = await checkout({ getOnlyTotalNetAmount: true, data: [item] });
    expect(quote.body).toEqual({ totalNetAmount: 111.19 });
    const g = await gqlCheckout({ getOnlyTotalNetAmount: true, data: [item] });
    expect(g.body.data.createPaymentIntent.totalNetAmount).toBe(111.19);
    expect(await rows.balance(credit.id)).toBe(5000);

    const cartId = randomUUID();
    const res = await checkout({ data: [item] }, cartId);
    expect(res.body.totalNetAmount).toBe(111.19);
    expect(await rows.balance(credit.id)).toBe(3000);
    const [booking] = await rows.bookingsOfCart(cartId);
    const pricing = JSON.parse((await db.value('SELECT pricing FROM bookings WHERE id = ?', booking!.id)) as string);
    expect(pricing).toEqual({
      tiersMinor: 11100,
      addOns: [{ addOnId: photos.id, name: 'Photo pack', quantity: 2, unitPriceMinor: 1000, totalMinor: 2000 }],
      subtotalMinor: 13100,
      discounts: [
        { kind: 'percentage', amountMinor: 1310 },
        { kind: 'amount', amountMinor: 250 },
        { kind: 'coupon', code: coupon.code, amountMinor: 500 },
        { kind: 'credit', code: 'GIFT-ANA', amountMinor: 2000 },
      ],
      netMinor: 9040,
      taxes: [{ name: 'VAT', rateBasisPoints: 2300, amountMinor: 2079 }],
      totalMinor: 11119,
    });
    expect((await rows.intentsOfCart(cartId))[0]!.amountMinor).toBe(11119);
  });

  it('JPY: whole yen throughout, the percentage coupon and tax rounded half up', async () => {
    const s = await session(foodWalk);
    await createCoupon(db, sister.id, { code: 'TOKYO15', percentOffBasisPoints: 1500 });
    const credit = await createCreditCode(db, sister.id, { code: 'YEN1000', balanceMinor: 1000 });
    const item = {
      experienceId: foodWalk.id,
      sessionTime: at(s),
      participants: [guest('Aoi'), guest('Ren'), guest('Mei', 'Child')],
      listingAddOns: [{ addOnId: sake.id, quantity: 1 }],
      couponCode: 'TOKYO15',
      appliedCreditCodes: [{ code: 'YEN1000', appliedValue: 1000, sequence: 1 }],
    };
    // 8000 x 2 + 4000 + 1500 = 21500; -15 % (3225) = 18275; -1000 = 17275; tax 10 % = 1727.5 -> 1728; 19003.
    const cartId = randomUUID();
    const res = await checkout({ data: [item] }, cartId, keys.sister, sister.id);
    expect(res.status).toBe(201);
    expect(res.body.totalNetAmount).toBe(19003);
    expect(await rows.balance(credit.id)).toBe(0);
    const [booking] = await rows.bookingsOfCart(cartId);
    const view = await t().rest('GET', `/v1/bookings/${booking!.id}`, { key: keys.sister });
    expect(view.body).toMatchObject({ amount: 19003, currency: 'JPY', event: { timezone: 'Asia/Tokyo', startDateTime: s.startLocal } });
    expect((await rows.intentsOfCart(cartId))[0]).toMatchObject({ amountMinor: 19003, currency: 'JPY' });
  });

  it('adds up several items, and a credit code shared by two items is drawn down across them', async () => {
    const [a, b] = [await session(), await session()];
    const credit = await createCreditCode(db, brand.id, { code: 'SHARED', balanceMinor: 3000 });
    const items = [
      {
        experienceId: sail.id,
        sessionTime: at(a),
        participants: [guest('Ana')],
        appliedCreditCodes: [{ code: 'SHARED', appliedValue: 20, sequence: 1 }],
      },
      {
        experienceId: sail.id,
        sessionTime: at(b),
        participants: [guest('Rui')],
        appliedCreditCodes: [{ code: 'SHARED', appliedValue: 10, sequence: 1 }],
      },
    ];
    // 45.50 - 20 = 25.50 + VAT 5.865 -> 5.87 = 31.37; 45.50 - 10 = 35.50 + VAT 8.165 -> 8.17 = 43.67.
    const res = await checkout({ data: items });
    expect(res.body.totalNetAmount).toBe(75.04);
    expect(await rows.balance(credit.id)).toBe(0);
  });
});

describe('carts that cost nothing', () => {
  it('are confirmed and paid at once: no intent, no secret, no hold', async () => {
    const s = await session();
    await createCoupon(db, brand.id, { code: 'FREEBIE', percentOffBasisPoints: 10_000 });
    const cartId = randomUUID();
    const calls = payments.intentCalls;
    const res = await checkout(
      { data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')], couponCode: 'FREEBIE' }] },
      cartId,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      totalNetAmount: 0,
      cartConfirmationCode: expect.any(String),
      bookings: [{ id: expect.any(String), confirmationCode: expect.any(String), status: 'confirmed' }],
    });
    expect(payments.intentCalls).toBe(calls);
    expect((await rows.cart(cartId))!.status).toBe('paid');
    expect(await rows.intentsOfCart(cartId)).toEqual([]);
    expect((await rows.bookingsOfCart(cartId)).map((b) => [b.status, b.holdExpiresAt, b.paymentIntentId])).toEqual([
      ['confirmed', null, null],
    ]);
    expect(await rows.reserved(s.id)).toBe(1);

    const again = await checkout({ data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')] }] }, cartId);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CART_ALREADY_PAID');
    const g = await gqlCheckout({ data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')] }] }, cartId);
    expect(g.body.errors[0].extensions.code).toBe('CART_ALREADY_PAID');
    expect(await rows.reserved(s.id)).toBe(1);
  });
});
