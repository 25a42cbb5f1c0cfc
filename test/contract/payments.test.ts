/**
 * The payments store (src/domain/payments/store.ts) as a contract: finding an intent, the bookings it
 * pays (in cart item order), settling an outcome (status, participants, cart, credit taken again). Then
 * its guards, raced (guards.ts).
 */
import { describe, expect, it } from 'vitest';
import { createBooking, createSession, plainPricing } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createCart, createPaymentIntent } from '../../fixtures/factories/carts.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../fixtures/factories/checkout.ts';
import { createCheckout } from '../../fixtures/factories/checkouts.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { freshDb } from '../support/db.ts';
import { guardWorld, paymentGuards } from './guards.ts';
import type { IntentSelector } from '../../src/domain/payments/store.ts';

/** Text in byte order (ids here are ASCII, where JavaScript's comparison is the bytes'). */
const inByteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const db = await freshDb();
const { database } = db;

const brand = await createBrand(db);
const other = await createBrand(db);
const { experience } = await createExperience(db, brand.id);
const session = (day: number) => createSession(db, experience, { startLocal: `2026-12-0${day}T09:00:00`, capacity: 10 });
const [s1, s2, s3] = [await session(1), await session(2), await session(3)];
const gift = await createCreditCode(db, brand.id, { code: 'GIFT-A', balanceMinor: 10_000 });
await createCreditCode(db, other.id, { code: 'GIFT-A', balanceMinor: 999 });

// A checkout awaiting payment: two bookings, the first with credit from GIFT-A and a cancelled participant.
const held = await createCheckout(db, {
  brandId: brand.id,
  items: [
    { session: s1, participants: [{}, {}, { cancelledAt: '2026-11-21T10:00:00.000Z' }], credit: { code: gift, amountMinor: 1_500 } },
    { session: s2, participants: [{}] },
  ],
});
const [heldFirst, heldSecond] = held.bookings.map((b) => b.booking);
const racing = await guardWorld(db);
const paid = await createPaidBooking(db, {
  brandId: brand.id,
  session: s3,
  participants: [{ priceMinor: 3_000 }, { priceMinor: 2_000, cancelledAt: '2026-11-22T08:00:00.000Z' }],
});

describe('store contract: payments', () => {
  it('finds an intent by processor reference, secret hash or id', async () => {
    const intent = {
      id: held.intent.id,
      cartId: held.cart.id,
      processor: 'sandbox',
      processorReference: held.reference,
      status: 'requires_payment',
    };
    expect(await database.payments.findIntentByReference('sandbox', held.reference)).toStrictEqual(intent);
    expect(await database.payments.findIntentByReference('other-processor', held.reference)).toBeUndefined();
    expect(await database.payments.findIntentBySecretHash(held.intent.secretHash)).toStrictEqual(intent);
    expect(await database.payments.findIntentBySecretHash('no-such-hash')).toBeUndefined();
    expect(await database.payments.findIntentById(held.intent.id)).toStrictEqual(intent);
    expect(await database.payments.findIntentById('no-such-intent')).toBeUndefined();
  });

  it('reads the bookings an intent pays, by cart position then id, with their active participants', async () => {
    expect(await database.payments.bookingsOfIntent(held.intent.id)).toStrictEqual([
      {
        id: heldFirst!.id,
        brandId: brand.id,
        sessionId: s1.id,
        status: 'processing',
        publishableHold: false,
        currency: 'EUR',
        amountMinor: 13_500,
        amountRefundedMinor: 0,
        pricing: {
          tiersMinor: 15_000,
          addOns: [],
          subtotalMinor: 15_000,
          discounts: [{ kind: 'credit', code: 'GIFT-A', amountMinor: 1_500 }],
          netMinor: 13_500,
          taxes: [],
          totalMinor: 13_500,
        },
        activeParticipants: 2,
        record: expect.objectContaining({ booking: expect.objectContaining({ id: heldFirst!.id }) }),
      },
      {
        id: heldSecond!.id,
        brandId: brand.id,
        sessionId: s2.id,
        status: 'processing',
        publishableHold: false,
        currency: 'EUR',
        amountMinor: 4_500,
        amountRefundedMinor: 0,
        pricing: plainPricing(4_500),
        activeParticipants: 1,
        record: expect.objectContaining({ booking: expect.objectContaining({ id: heldSecond!.id }) }),
      },
    ]);
    expect(await database.payments.bookingsOfIntent(paid.intent.id)).toStrictEqual([
      {
        id: paid.booking.id,
        brandId: brand.id,
        sessionId: s3.id,
        status: 'confirmed',
        publishableHold: false,
        currency: 'EUR',
        amountMinor: 5_000,
        amountRefundedMinor: 0,
        pricing: plainPricing(5_000),
        activeParticipants: 1,
        record: expect.objectContaining({ booking: expect.objectContaining({ id: paid.booking.id }) }),
      },
    ]);
    // Each one's record is the one its view is built from.
    for (const row of await database.payments.bookingsOfIntent(held.intent.id))
      expect(row.record).toStrictEqual((await database.bookings.findBookingRecords([row.id]))[0]);
    expect(await database.payments.bookingsOfIntent('no-such-intent')).toEqual([]);

    // Written last position first, two of one position.
    const cart = await createCart(db, brand.id);
    const intent = await createPaymentIntent(db, cart);
    const item = async (cartPosition: number) =>
      (
        await createBooking(db, {
          brandId: brand.id,
          session: s1,
          overrides: { cartId: cart.id, paymentIntentId: intent.id, cartPosition },
        })
      ).booking.id;
    const [oneA, zero, oneB] = [await item(1), await item(0), await item(1)];
    expect((await database.payments.bookingsOfIntent(intent.id)).map((b) => b.id)).toEqual([zero, ...[oneA, oneB].sort(inByteOrder)]);
  });

  it('settles an intent read locked by reference or secret hash, from the statuses given only', async () => {
    const cart = await createCart(db, brand.id);
    const intent = await createPaymentIntent(db, cart);
    const read = { id: intent.id, cartId: cart.id, processor: 'sandbox', processorReference: intent.processorReference };
    const settle = (selector: IntentSelector, status: 'succeeded' | 'failed', from: Array<'requires_payment' | 'failed'>, at: string) =>
      database.transaction((tx) => tx.payments.settleIntentOf(selector, status, from, at));
    const bySecret = { processor: 'sandbox', secretHash: intent.secretHash };
    const byReference = { processor: 'sandbox', reference: intent.processorReference };
    // Another processor's, or no such intent: undefined, nothing written.
    expect(
      await settle({ processor: 'stripe', secretHash: intent.secretHash }, 'failed', ['requires_payment'], '2026-11-25T12:00:00.000Z'),
    ).toBeUndefined();
    expect(
      await settle({ processor: 'sandbox', reference: 'no-such-reference' }, 'failed', ['requires_payment'], '2026-11-25T12:00:00.000Z'),
    ).toBeUndefined();
    // Not from the status it has: read, not written.
    expect(await settle(bySecret, 'succeeded', ['failed'], '2026-11-25T12:00:00.000Z')).toStrictEqual({
      intent: { ...read, status: 'requires_payment' },
      changed: false,
    });
    expect(await db.row('paymentIntents', { id: intent.id })).toMatchObject({ status: 'requires_payment' });
    expect(await settle(bySecret, 'failed', ['requires_payment'], '2026-11-25T13:00:00.000Z')).toStrictEqual({
      intent: { ...read, status: 'requires_payment' },
      changed: true,
    });
    expect(await db.row('paymentIntents', { id: intent.id })).toMatchObject({
      status: 'failed',
      updatedAt: '2026-11-25T13:00:00.000Z',
      processorCheckAt: null,
    });
    expect(await settle(byReference, 'succeeded', ['requires_payment', 'failed'], '2026-11-25T14:00:00.000Z')).toStrictEqual({
      intent: { ...read, status: 'failed' },
      changed: true,
    });
    expect(await settle(byReference, 'succeeded', ['requires_payment', 'failed'], '2026-11-25T15:00:00.000Z')).toStrictEqual({
      intent: { ...read, status: 'succeeded' },
      changed: false,
    });
    expect(await db.row('paymentIntents', { id: intent.id })).toMatchObject({ status: 'succeeded', updatedAt: '2026-11-25T14:00:00.000Z' });
  });

  it("reads a payment's bookings (as bookingsOfIntent) and its cart's checkouts (as checkoutsOfCart) together", async () => {
    for (const intent of [held.intent, paid.intent]) {
      const cartId = intent.cartId;
      const alone = {
        bookings: await database.payments.bookingsOfIntent(intent.id),
        checkouts: await database.carts.checkoutsOfCart(cartId),
      };
      expect(alone.bookings.length).toBeGreaterThan(0);
      expect(alone.checkouts.intents.map((i) => i.id)).toContain(intent.id);
      expect(await database.payments.paymentOfIntent({ id: intent.id, cartId })).toStrictEqual(alone);
      expect(await database.transaction((tx) => tx.payments.paymentOfIntent({ id: intent.id, cartId }))).toStrictEqual(alone);
    }
    // No booking: the cart's checkouts still.
    const cart = await createCart(db, brand.id);
    const empty = await createPaymentIntent(db, cart);
    const payment = await database.transaction((tx) => tx.payments.paymentOfIntent({ id: empty.id, cartId: cart.id }));
    expect(payment.bookings).toEqual([]);
    expect(payment.checkouts.intents.map((i) => i.id)).toEqual([empty.id]);
  });

  it('settles a payment: intent status, participants, cart, credit taken again', async () => {
    await database.payments.setIntentStatus(held.intent.id, 'succeeded', '2026-11-25T13:00:00.000Z');
    expect((await database.payments.findIntentByReference('sandbox', held.reference))!.status).toBe('succeeded');
    expect(await db.row('paymentIntents', { id: held.intent.id })).toMatchObject({
      status: 'succeeded',
      updatedAt: '2026-11-25T13:00:00.000Z',
    });

    // Only the still-active participants are cancelled, at `at`; the one cancelled before keeps its time.
    await database.payments.cancelActiveParticipants(heldFirst!.id, '2026-11-25T13:00:00.000Z');
    const people = (await database.bookings.findBookingRecords([heldFirst!.id])).flatMap((record) => record.participants);
    expect(people.map((p) => p.cancelledAt)).toEqual(['2026-11-25T13:00:00.000Z', '2026-11-25T13:00:00.000Z', '2026-11-21T10:00:00.000Z']);
    expect((await database.payments.bookingsOfIntent(held.intent.id)).map((b) => b.activeParticipants)).toEqual([0, 1]);

    await database.payments.markCartPaid(held.cart.id, '2026-11-25T13:00:00.000Z');
    expect(await database.carts.findCartRow(held.cart.id)).toStrictEqual({
      id: held.cart.id,
      brandId: brand.id,
      confirmationCode: held.cart.confirmationCode,
      status: 'paid',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-25T13:00:00.000Z',
      holdKeyKind: null,
      holdClient: null,
    });

    // A payment's confirmations and its cart, written together: each booking confirmed, its hold gone.
    await database.payments.settlePayment([heldFirst!.id, heldSecond!.id], held.cart.id, '2026-11-25T14:00:00.000Z');
    const settled = await database.bookings.findBookingRecords([heldFirst!.id, heldSecond!.id]);
    expect(settled.map((r) => [r.booking.status, r.booking.holdExpiresAt, r.booking.updatedAt])).toEqual([
      ['confirmed', null, '2026-11-25T14:00:00.000Z'],
      ['confirmed', null, '2026-11-25T14:00:00.000Z'],
    ]);
    expect(await database.carts.findCartRow(held.cart.id)).toMatchObject({ status: 'paid', updatedAt: '2026-11-25T14:00:00.000Z' });

    // The hold lapsed meanwhile: its credit was given back; the late payment takes it again, by code.
    await database.holds.returnCreditRedemptions([heldFirst!.id]);
    expect((await database.checkout.creditCodesByCode(brand.id, ['GIFT-A']))[0]!.balanceMinor).toBe(10_000);
    const again = (n: number, code: string, amountMinor: number, brandId = brand.id) => ({
      id: `again-${n}`,
      bookingId: heldFirst!.id,
      brandId,
      code,
      amountMinor,
    });
    expect(await database.payments.redeemCreditAgain(again(1, 'GIFT-A', 1_500))).toBe(true);
    expect(await database.payments.redeemCreditAgain(again(2, 'gift-a', 1))).toBe(false);
    expect(await database.payments.redeemCreditAgain(again(3, 'GIFT-A', 999, other.id))).toBe(true);
    expect(await database.payments.redeemCreditAgain(again(4, 'GIFT-A', 1, other.id))).toBe(false);
    expect(await database.payments.redeemCreditAgain(again(5, 'GIFT-A', 8_501))).toBe(false);
    expect(await database.payments.redeemCreditAgain(again(6, 'NO-SUCH-CODE', 1))).toBe(false);
    expect((await database.checkout.creditCodesByCode(brand.id, ['GIFT-A']))[0]!.balanceMinor).toBe(8_500);
    expect((await database.checkout.creditCodesByCode(other.id, ['GIFT-A']))[0]!.balanceMinor).toBe(0);
    expect((await db.rows('creditRedemptions', { bookingId: heldFirst!.id })).map((r) => r.id).sort()).toEqual(['again-1', 'again-3']);
    // The redemptions are recorded: returning them gives the credit back, to each brand's own code.
    await database.holds.returnCreditRedemptions([heldFirst!.id]);
    expect((await database.checkout.creditCodesByCode(brand.id, ['GIFT-A']))[0]!.balanceMinor).toBe(10_000);
    expect((await database.checkout.creditCodesByCode(other.id, ['GIFT-A']))[0]!.balanceMinor).toBe(999);
  });
});

describe('store contract: payments guards, raced', () => {
  paymentGuards(() => ({ db, gateways: [database], w: racing }));
});
