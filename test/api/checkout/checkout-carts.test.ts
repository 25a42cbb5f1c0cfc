/** Posting a cart again, and intended confirmation codes. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { guest } from '../../support/checkout.ts';
import { createCreditCode } from '../../../fixtures/factories/checkout.ts';
import { CHECKOUT_NOW, checkoutWorld } from '../../support/checkout-world.ts';

const { db, rows, clock, brand, sister, keys, sail, foodWalk, session, at, checkout, gqlCheckout } = await checkoutWorld();

describe('posting again for the same cart', () => {
  it('replaces an unpaid checkout: old bookings failed, places and credit back, old intent canceled', async () => {
    const [s, t2] = [await session(), await session()];
    const credit = await createCreditCode(db, brand.id, { code: 'AGAIN', balanceMinor: 1000 });
    const cartId = randomUUID();
    const first = await checkout(
      {
        data: [
          {
            experienceId: sail.id,
            sessionTime: at(s),
            participants: [guest('Ana'), guest('Rui')],
            appliedCreditCodes: [{ code: 'AGAIN', appliedValue: 10, sequence: 1 }],
          },
        ],
      },
      cartId,
    );
    expect(await rows.reserved(s.id)).toBe(2);
    expect(await rows.balance(credit.id)).toBe(0);
    const code = (await rows.cart(cartId))!.confirmationCode;

    clock.now = new Date('2026-11-25T12:05:00.000Z');
    // The same full credit again: what the replaced checkout redeemed counts as available.
    const second = await checkout(
      {
        data: [
          {
            experienceId: sail.id,
            sessionTime: at(t2),
            participants: [guest('Ana')],
            appliedCreditCodes: [{ code: 'AGAIN', appliedValue: 10, sequence: 1 }],
          },
        ],
      },
      cartId,
    );
    clock.now = new Date(CHECKOUT_NOW);
    expect(second.status).toBe(201);
    expect(second.body.paymentIntentSecret).not.toBe(first.body.paymentIntentSecret);
    expect(await rows.reserved(s.id)).toBe(0);
    expect(await rows.reserved(t2.id)).toBe(1);
    expect(await rows.balance(credit.id)).toBe(0);
    expect(await rows.cart(cartId)).toEqual({ status: 'open', confirmationCode: code });
    expect((await rows.bookingsOfCart(cartId)).map((b) => [b.status, b.holdExpiresAt])).toEqual([
      ['failed', null],
      ['processing', '2026-11-25T12:20:00.000Z'],
    ]);
    expect((await rows.intentsOfCart(cartId)).map((i) => i.status)).toEqual(['canceled', 'requires_payment']);
    expect(
      await db.value('SELECT count(*) FROM credit_redemptions r JOIN bookings b ON b.id = r.booking_id WHERE b.cart_id = ?', cartId),
    ).toBe(1);
  });

  it("is NOT_FOUND for another brand's cart id, revealing nothing", async () => {
    const cartId = randomUUID();
    await checkout(
      { data: [{ experienceId: foodWalk.id, sessionTime: at(await session(foodWalk)), participants: [guest('Aoi')] }] },
      cartId,
      keys.sister,
      sister.id,
    );
    const s = await session();
    const res = await checkout({ data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')] }] }, cartId);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(await rows.reserved(s.id)).toBe(0);
  });
});

describe('intendedConfirmationCode', () => {
  it('is used upper-cased when free; taken is 409 and nothing is written', async () => {
    const s = await session();
    const cartId = randomUUID();
    const res = await checkout(
      { data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')], intendedConfirmationCode: 'ord4711' }] },
      cartId,
    );
    expect(res.status).toBe(201);
    expect((await rows.bookingsOfCart(cartId))[0]!.confirmationCode).toBe('ORD4711');

    const otherCart = randomUUID();
    const taken = await checkout(
      { data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Rui')], intendedConfirmationCode: 'ORD4711' }] },
      otherCart,
    );
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'CONFIRMATION_CODE_TAKEN', details: { field: 'data.0.intendedConfirmationCode' } });
    const g = await gqlCheckout(
      { data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Rui')], intendedConfirmationCode: 'ORD4711' }] },
      otherCart,
    );
    expect(g.body.errors[0].extensions).toMatchObject({ code: 'CONFIRMATION_CODE_TAKEN', field: 'data.0.intendedConfirmationCode' });
    expect(await rows.cart(otherCart)).toBeUndefined();
    expect(await rows.reserved(s.id)).toBe(1);
  });

  it('may be sent again when the same unpaid cart is posted again', async () => {
    const s = await session();
    const cartId = randomUUID();
    const body = {
      data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')], intendedConfirmationCode: 'ORD9000' }],
    };
    expect((await checkout(body, cartId)).status).toBe(201);
    clock.now = new Date('2026-11-25T12:01:00.000Z');
    const again = await checkout(body, cartId);
    clock.now = new Date(CHECKOUT_NOW);
    expect(again.status).toBe(201);
    const made = await rows.bookingsOfCart(cartId);
    expect(made.map((b) => [b.status, b.confirmationCode])).toEqual([
      ['failed', `ORD9000~${made[0]!.id.slice(0, 8)}`],
      ['processing', 'ORD9000'],
    ]);
  });
});
