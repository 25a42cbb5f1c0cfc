/**
 * The guards of the checkout, holds, payments and API keys stores, raced: N units of work (and calls
 * outside any) started together, each doing its check and write; only those the guard allows take
 * effect. The contract (checkout, payments and access tests) races them on the one gateway of its
 * engine's database; test/postgres/guards-on-two-gateways.test.ts races the same on two gateways of one
 * PostgreSQL database (two pools in one process). Two SQLite connections in one process cannot race:
 * better-sqlite3 waits for SQLite's file lock on the event loop, which the connection holding it needs
 * to commit (gateway processes on one SQLite file can, test/api/operations/gateways.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { createBooking, createSession, plainPricing } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createCart, createPaymentIntent } from '../../fixtures/factories/carts.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../fixtures/factories/checkout.ts';
import { createCheckout } from '../../fixtures/factories/checkouts.ts';
import type { BookingInsert } from '../../src/domain/checkout/store.ts';
import type { Database, Stores, Transaction } from '../../src/domain/shared/database.ts';
import type { TestDb } from '../support/db.ts';

const at = '2026-11-25T12:15:00.000Z';

/**
 * What the racers race for, of a brand of its own. Its only lapsed holds (at `at`) are the two bookings
 * of `swept`: the database must hold no other processing booking lapsed by then.
 */
export async function guardWorld(db: TestDb) {
  const brand = await createBrand(db);
  const { experience } = await createExperience(db, brand.id);
  const session = (day: number) => createSession(db, experience, { startLocal: `2027-01-0${day}T09:00:00`, capacity: 10 });
  const [s1, s2, s3] = [await session(1), await session(2), await session(3)];

  // Somewhere for redemptions to point: a confirmed booking.
  const anchor = (await createBooking(db, { brandId: brand.id, session: s1 })).booking;
  const racedCredit = await createCreditCode(db, brand.id, { code: 'RACE-CREDIT', balanceMinor: 5_000 });
  await createCreditCode(db, brand.id, { code: 'RACE-AGAIN', balanceMinor: 5_000 });
  // Credit a failed booking redeemed, to be given back (once) by racing returns.
  const returnedCode = await createCreditCode(db, brand.id, { code: 'RACE-RETURN', balanceMinor: 10_000 });
  const returning = await createCheckout(db, {
    brandId: brand.id,
    items: [{ session: s1, status: 'failed', credit: { code: returnedCode, amountMinor: 3_000 } }],
  });
  // Two bookings of one checkout, with credit, on a session of their own, lapsed at `at`.
  const sweptCode = await createCreditCode(db, brand.id, { code: 'RACE-SWEEP', balanceMinor: 5_000 });
  const swept = await createCheckout(db, {
    brandId: brand.id,
    items: [
      { session: s2, participants: [{}, {}], credit: { code: sweptCode, amountMinor: 1_000 }, overrides: { holdExpiresAt: at } },
      { session: s2, participants: [{}, {}, {}], overrides: { holdExpiresAt: at } },
    ],
  });
  // A failed booking of an earlier checkout holds the code every racer wants.
  const codeCart = await createCheckout(db, {
    brandId: brand.id,
    items: [{ session: s3, status: 'failed', overrides: { confirmationCode: 'RACE-CODE' } }],
  });
  const attemptsCart = await createCart(db, brand.id);
  const racedIntent = await createPaymentIntent(db, await createCart(db, brand.id));
  const settledIntent = await createPaymentIntent(db, await createCart(db, brand.id));
  return { brand, experience, s2, s3, anchor, racedCredit, returning, swept, codeCart, attemptsCart, racedIntent, settledIntent };
}

export type GuardWorld = Awaited<ReturnType<typeof guardWorld>>;

/** The database the guard world is in, the gateways to race on (one or more), and the world. */
type Racing = () => { db: TestDb; gateways: Database[]; w: GuardWorld };

/** `n` units of work started together, in turn on each gateway. */
function race<T>(gateways: Database[], n: number, unit: (i: number) => (tx: Transaction) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => gateways[i % gateways.length]!.transaction(unit(i))));
}

/** The stores of gateway `i`, in turn. */
const gateway = (gateways: Database[], i: number) => gateways[i % gateways.length]!;

/** The checkout and holds stores' guards. */
export function checkoutGuards(on: Racing): void {
  const balanceOf = async (database: Database, brandId: string, code: string) =>
    (await database.checkout.creditCodesByCode(brandId, [code]))[0]!.balanceMinor;

  it('redeems credit only while the balance covers it: 8 racing redemptions of 20.00 from 50.00, exactly 2 succeed', async () => {
    const { db, gateways, w } = on();
    const redeem = (stores: Stores) =>
      stores.checkout.redeemCredit({ id: randomUUID(), bookingId: w.anchor.id, creditCodeId: w.racedCredit.id, amountMinor: 2_000 });
    // Half in units of work, half outside any.
    const outcomes = (
      await Promise.all([race(gateways, 4, () => redeem), ...[0, 1, 2, 3].map((i) => redeem(gateway(gateways, i)))])
    ).flat();
    expect(outcomes.filter(Boolean)).toHaveLength(2);
    expect(await balanceOf(db.database, w.brand.id, 'RACE-CREDIT')).toBe(1_000);
    expect(await db.count('creditRedemptions', { creditCodeId: w.racedCredit.id })).toBe(2);
  });

  it('gives redeemed credit back once, however many return it at the same time (outside a transaction too)', async () => {
    const { db, gateways, w } = on();
    const id = w.returning.bookings[0]!.booking.id;
    await Promise.all([
      race(gateways, 6, () => (tx) => tx.holds.returnCreditRedemptions([id])),
      ...[0, 1].map((i) => gateway(gateways, i).holds.returnCreditRedemptions([id])),
    ]);
    expect(await balanceOf(db.database, w.brand.id, 'RACE-RETURN')).toBe(10_000);
    expect(await db.count('creditRedemptions', { bookingId: id })).toBe(0);
  });

  it('fails a lapsed hold once when 10 sweeps race: its places and credit go back once, its intent is canceled', async () => {
    const { db, gateways, w } = on();
    const reservedOf = async () => (await db.database.sessions.findSessionAt(w.experience.id, w.s2.startLocal))!.reserved;
    expect(await reservedOf()).toBe(5);
    const failed = await race(gateways, 10, () => async (tx) => {
      const lapsed = await tx.holds.lapsedHolds(at);
      if (lapsed.length === 0) return 0;
      const ids = lapsed.map((b) => b.id);
      await tx.holds.markBookingsFailed(ids, at);
      for (const booking of lapsed) await tx.capacity.releasePlaces(booking.sessionId, booking.places);
      await tx.holds.returnCreditRedemptions(ids);
      await tx.holds.cancelIntentsWithoutHolds([...new Set(lapsed.flatMap((b) => (b.paymentIntentId ? [b.paymentIntentId] : [])))], at);
      return ids.length;
    });
    expect(failed.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await reservedOf()).toBe(0);
    expect(await balanceOf(db.database, w.brand.id, 'RACE-SWEEP')).toBe(5_000);
    expect((await db.database.payments.findIntentById(w.swept.intent.id))!.status).toBe('canceled');
    expect(await db.database.holds.processingBookings(w.swept.bookings.map((b) => b.booking.id))).toEqual([]);
  });

  it('gives a confirmation code to exactly one of 10 racing checkouts, after freeing it from the replaced booking', async () => {
    const { db, gateways, w } = on();
    const outcomes = await race(gateways, 10, (i) => async (tx) => {
      await tx.checkout.releaseCodeOfReplacedBooking(w.codeCart.cart.id, 'RACE-CODE');
      if (await tx.checkout.confirmationCodeInUse(w.brand.id, 'RACE-CODE')) return false;
      await tx.checkout.insertBooking(codeBooking(w, i), [], []);
      return true;
    });
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await db.count('bookings', { confirmationCode: 'RACE-CODE' })).toBe(1);
    expect(await db.value(`SELECT count(*) FROM bookings WHERE confirmation_code LIKE 'RACE-CODE~%'`)).toBe(1);
  });

  it("keeps a client's unpaid places within its budget: 10 racing checkouts of 2 places, budget 5, each locking the client first", async () => {
    const { db, gateways, w } = on();
    const client = `race-client-${randomUUID()}`;
    // Connections opened first: opening them would otherwise space the racers out.
    await race(gateways, 10, () => async (tx) => sleep(await tx.checkout.clientHolds(w.brand.id, client, at, 'no-cart').then(() => 20)));
    const outcomes = await race(gateways, 10, (i) => async (tx) => {
      await tx.checkout.lockHoldClient(w.brand.id, client);
      const held = await tx.checkout.clientHolds(w.brand.id, client, at, 'no-cart');
      if (held.places + 2 > 5) return false;
      // Without the lock, the others read the count meanwhile.
      await sleep(Math.random() * 15);
      const cartId = `${client}-cart-${i}`;
      const holder = { keyKind: 'publishable' as const, client };
      await tx.checkout.insertCart({ id: cartId, brandId: w.brand.id, confirmationCode: `${client}-${i}`, at, holder });
      const booking = { ...codeBooking(w, i), id: `${cartId}-booking`, cartId, confirmationCode: `${cartId}-B` };
      const person = (position: number) => ({
        id: `${cartId}-p${position}`,
        bookingId: booking.id,
        position,
        firstName: 'Rita',
        lastName: 'Sousa',
        emailAddress: null,
        phoneNumber: null,
        priceTierName: 'Adult',
        priceMinor: 2_250,
        cancelledAt: null,
      });
      await tx.checkout.insertBooking(
        { ...booking, status: 'processing', holdExpiresAt: '2026-11-25T12:20:00.000Z' },
        [person(0), person(1)],
        [],
      );
      return true;
    });
    expect(outcomes.filter(Boolean)).toHaveLength(2);
    expect(await db.database.checkout.clientHolds(w.brand.id, client, at, 'no-cart')).toEqual({
      places: 4,
      oldestExpiresAt: '2026-11-25T12:20:00.000Z',
    });
  });

  it('gives a cart code to exactly one of 10 racing new carts', async () => {
    const { db, gateways, w } = on();
    const outcomes = await race(gateways, 10, (i) => async (tx) => {
      if (await tx.checkout.confirmationCodeInUse(w.brand.id, 'RACE-CART')) return false;
      await tx.checkout.insertCart({
        id: `race-cart-${i}`,
        brandId: w.brand.id,
        confirmationCode: 'RACE-CART',
        at,
        holder: { keyKind: 'brand', client: null },
      });
      return true;
    });
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await db.count('carts', { confirmationCode: 'RACE-CART' })).toBe(1);
  });

  it('numbers 8 racing checkouts of one cart 1 to 8 (each takes the cart first, as checkout does)', async () => {
    const { db, gateways, w } = on();
    await race(gateways, 8, (i) => async (tx) => {
      await tx.carts.findCartRow(w.attemptsCart.id);
      await tx.checkout.insertPaymentIntent({
        id: `race-attempt-${i}`,
        brandId: w.brand.id,
        cartId: w.attemptsCart.id,
        processor: 'sandbox',
        processorReference: `race-attempt-${i}`,
        secretHash: `race-attempt-${i}`,
        amountMinor: 1_000,
        currency: 'EUR',
        status: 'requires_payment',
        createdAt: at,
        updatedAt: at,
      });
    });
    expect(await db.values('SELECT attempt FROM payment_intents WHERE cart_id = ? ORDER BY attempt', w.attemptsCart.id)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    expect((await db.database.carts.checkoutsOfCart(w.attemptsCart.id)).intents).toHaveLength(8);
  });
}

/** A confirmed booking with the code every racer wants, as a re-post of the code cart writes it. */
function codeBooking(w: GuardWorld, i: number): BookingInsert {
  return {
    id: `race-code-${i}`,
    brandId: w.brand.id,
    cartId: w.codeCart.cart.id,
    experienceId: w.experience.id,
    sessionId: w.s3.id,
    sessionStartLocal: w.s3.startLocal,
    paymentIntentId: null,
    confirmationCode: 'RACE-CODE',
    cartConfirmationCode: w.codeCart.cart.confirmationCode,
    cartPosition: 0,
    status: 'confirmed',
    currency: 'EUR',
    amountMinor: 4_500,
    pricing: plainPricing(4_500),
    paymentMethod: 'credit-card',
    amountDueMinor: 0,
    chargedTo: null,
    purchaserId: 'purchaser-race',
    purchaserFirstName: 'Rita',
    purchaserLastName: 'Sousa',
    purchaserEmail: 'rita@example.test',
    purchaserPhone: null,
    notes: null,
    internalNotes: null,
    metadata: null,
    holdExpiresAt: null,
    publishableHold: false,
    createdAt: at,
    updatedAt: at,
  };
}

/** The payments store's guards. */
export function paymentGuards(on: Racing): void {
  it('takes credit again by code only while it covers it: 8 racing 20.00 from 50.00, exactly 2 succeed', async () => {
    const { db, gateways, w } = on();
    const again = (stores: Stores) =>
      stores.payments.redeemCreditAgain({
        id: randomUUID(),
        bookingId: w.anchor.id,
        brandId: w.brand.id,
        code: 'RACE-AGAIN',
        amountMinor: 2_000,
      });
    // Half in units of work, half outside any.
    const outcomes = await Promise.all([
      ...[0, 1, 2, 3].map((i) => gateway(gateways, i).transaction((tx) => again(tx))),
      ...[0, 1, 2, 3].map((i) => again(gateway(gateways, i))),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(2);
    expect((await db.database.checkout.creditCodesByCode(w.brand.id, ['RACE-AGAIN']))[0]!.balanceMinor).toBe(1_000);
    const recorded = 'SELECT count(*) FROM credit_redemptions r JOIN credit_codes c ON c.id = r.credit_code_id WHERE c.code = ?';
    expect(await db.value(recorded, 'RACE-AGAIN')).toBe(2);
  });

  it('moves an intent out of requires_payment once: racing "paid" and "replaced by a new checkout" units agree', async () => {
    const { db, gateways, w } = on();
    const outcomes = await race(gateways, 12, (i) => async (tx) => {
      if (i % 3 === 2) {
        await tx.checkout.cancelOpenIntentsOfCart(w.racedIntent.cartId, at);
        return 'cancel';
      }
      const intent = await tx.payments.findIntentByReference('sandbox', w.racedIntent.processorReference);
      if (intent!.status !== 'requires_payment') return 'unchanged';
      await tx.payments.setIntentStatus(intent!.id, 'succeeded', at);
      return 'paid';
    });
    const paid = outcomes.filter((o) => o === 'paid').length;
    expect(paid).toBeLessThanOrEqual(1);
    // The first unit decides: paid (then every cancel finds nothing to cancel), or canceled (then no unit pays).
    expect((await db.database.payments.findIntentById(w.racedIntent.id))!.status).toBe(paid === 1 ? 'succeeded' : 'canceled');
    expect(outcomes.filter((o) => o === 'cancel')).toHaveLength(4);
  });

  it('settles an intent once (settleIntentOf, by reference or secret hash): racing "paid" and "replaced" units agree', async () => {
    const { db, gateways, w } = on();
    const intent = w.settledIntent;
    const outcomes = await race(gateways, 12, (i) => async (tx) => {
      if (i % 3 === 2) {
        await tx.checkout.cancelOpenIntentsOfCart(intent.cartId, at);
        return 'cancel';
      }
      const selector =
        i % 3 === 0
          ? { processor: 'sandbox', reference: intent.processorReference }
          : { processor: 'sandbox', secretHash: intent.secretHash };
      const settling = await tx.payments.settleIntentOf(selector, 'succeeded', ['requires_payment'], at);
      return settling!.changed ? 'paid' : `unchanged ${settling!.intent.status}`;
    });
    const paid = outcomes.filter((o) => o === 'paid').length;
    expect(paid).toBeLessThanOrEqual(1);
    const status = paid === 1 ? 'succeeded' : 'canceled';
    expect((await db.database.payments.findIntentById(intent.id))!.status).toBe(status);
    // Every other settling unit saw the status the first one left, never the one before it.
    expect(outcomes.filter((o) => o !== 'paid' && o !== 'cancel')).toEqual(Array(8 - paid).fill(`unchanged ${status}`));
  });
}

/** The API keys store's guard. */
export function accessGuards(on: Racing): void {
  it('revokes a key once when 12 revocations race', async () => {
    const { db, gateways, w } = on();
    await db.database.apiKeys.insertApiKey({
      id: 'key-raced',
      kind: 'brand',
      secretHash: 'hash-raced',
      prefix: 'sk_test_r',
      brandId: w.brand.id,
    });
    const revokedAt = (i: number) => new Date(Date.UTC(2026, 3, 1, 0, 0, i)).toISOString();
    const outcomes = await race(gateways, 12, (i) => (tx) => tx.apiKeys.revokeApiKey('key-raced', revokedAt(i)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const revoked = (await gateway(gateways, 1).apiKeys.listApiKeys()).find((k) => k.id === 'key-raced')!;
    expect(revoked.revokedAt).toBe(revokedAt(outcomes.indexOf(true)));
  });
}
