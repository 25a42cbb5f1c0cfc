/**
 * The checkout and holds stores (src/domain/checkout/store.ts) as a contract: what a checkout reads
 * (experiences with their prices, the sessions items ask for, coupons, credit codes, what a cart holds), what it writes (cart, intents, bookings with their
 * people and answers, credit), and how lapsed holds are found and failed, with exact values and orders.
 * Then the guards money and places depend on, raced (guards.ts).
 */
import { describe, expect, it } from 'vitest';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createCart } from '../../fixtures/factories/carts.ts';
import { assignQuestion, createExperience, createQuestion } from '../../fixtures/factories/catalog.ts';
import { createAddOn, createCoupon, createCreditCode } from '../../fixtures/factories/checkout.ts';
import { createCheckout } from '../../fixtures/factories/checkouts.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import type { AnswerInsert, BookingInsert, ParticipantInsert } from '../../src/domain/checkout/store.ts';
import { freshDb, type TestDb } from '../support/db.ts';
import { checkoutGuards, guardWorld } from './guards.ts';

/** Text in byte order (ids and codes here are ASCII, where JavaScript's comparison is the bytes'). */
const inByteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const pricing: BookingInsert['pricing'] = {
  tiersMinor: 6_000,
  addOns: [],
  subtotalMinor: 7_000,
  discounts: [{ kind: 'credit', code: 'GIFT-MIXED', amountMinor: 2_500 }],
  netMinor: 4_500,
  taxes: [{ name: 'VAT', rateBasisPoints: 2300, amountMinor: 0 }],
  totalMinor: 4_500,
};

/** A booking as checkout writes it: processing, paid by card, on `base.session`. */
function newBooking(
  base: { id: string; brandId: string; experienceId: string; session: { id: string; startLocal: string } },
  extra: Partial<BookingInsert>,
): BookingInsert {
  return {
    id: base.id,
    brandId: base.brandId,
    cartId: null,
    experienceId: base.experienceId,
    sessionId: base.session.id,
    sessionStartLocal: base.session.startLocal,
    paymentIntentId: null,
    confirmationCode: `CODE-${base.id}`,
    cartConfirmationCode: null,
    cartPosition: 0,
    status: 'processing',
    currency: 'EUR',
    amountMinor: 4_500,
    pricing,
    paymentMethod: 'credit-card',
    amountDueMinor: 0,
    chargedTo: null,
    purchaserId: 'purchaser-written',
    purchaserFirstName: 'Rita',
    purchaserLastName: 'Sousa',
    purchaserEmail: 'rita@example.test',
    purchaserPhone: null,
    notes: null,
    internalNotes: null,
    metadata: null,
    holdExpiresAt: '2026-11-24T09:18:00.000Z',
    publishableHold: false,
    createdAt: '2026-11-24T09:03:00.000Z',
    updatedAt: '2026-11-24T09:03:00.000Z',
    ...extra,
  };
}

/** A brand, another brand, and an experience of the first with three sessions (1, 2 and 3 December). */
async function baseWorld(db: TestDb) {
  const brand = await createBrand(db);
  const other = await createBrand(db);
  const { experience } = await createExperience(db, brand.id);
  const session = (day: number, capacity = 10) => createSession(db, experience, { startLocal: `2026-12-0${day}T09:00:00`, capacity });
  return { brand, other, experience, s1: await session(1), s2: await session(2), s3: await session(3), session };
}

const db = await freshDb();
const { database } = db;
const { brand, other, experience, s1, s2, s3, session } = await baseWorld(db);

// Add-ons written out of position order, two of the same position.
const lunch = await createAddOn(db, experience.id, { id: 'addon-lunch', name: 'Lunch', priceMinor: 1500, position: 1 });
const photo = await createAddOn(db, experience.id, { id: 'addon-photo', name: 'Photo pack', position: 0 });
const drinks = await createAddOn(db, experience.id, { id: 'addon-drinks', name: 'Drinks', priceMinor: 800, position: 1 });
const { experience: elsewhere } = await createExperience(db, brand.id, {}, { priceTiers: [], taxes: [] });
const elsewhereAddOn = await createAddOn(db, elsewhere.id, { name: 'Elsewhere' });
const summer = await createCoupon(db, brand.id, { code: 'SUMMER10', validFrom: '2026-06-01', validUntil: '2026-09-30T23:59:59.000Z' });
const otherSummer = await createCoupon(db, other.id, { code: 'SUMMER10', amountOffMinor: 500, active: false });
// Written out of code order.
const mixed = await createCreditCode(db, brand.id, { code: 'gift-mixed', balanceMinor: 2_000 });
const gift = await createCreditCode(db, brand.id, { code: 'GIFT-A', balanceMinor: 10_000 });
await createCreditCode(db, other.id, { code: 'GIFT-A', balanceMinor: 999 });

// A checkout awaiting payment: its first hold lapses at 12:00, its second at 12:30.
const held = await createCheckout(db, {
  brandId: brand.id,
  items: [
    {
      session: s1,
      participants: [{}, {}, { cancelledAt: '2026-11-21T10:00:00.000Z' }],
      credit: { code: gift, amountMinor: 1_500 },
      overrides: { holdExpiresAt: '2026-11-25T12:00:00.000Z' },
    },
    { session: s2, participants: [{}], overrides: { holdExpiresAt: '2026-11-25T12:30:00.000Z', publishableHold: true } },
  ],
});
const [heldFirst, heldSecond] = held.bookings.map((b) => b.booking);
// An earlier, replaced checkout of another cart: its failed booking still holds the code a re-post wants.
const replaced = await createCheckout(db, {
  brandId: brand.id,
  items: [{ session: s2, status: 'failed', overrides: { confirmationCode: 'REPOST-1' } }],
});
const paid = await createPaidBooking(db, {
  brandId: brand.id,
  session: s3,
  participants: [{ priceMinor: 3_000 }, { priceMinor: 2_000, cancelledAt: '2026-11-22T08:00:00.000Z' }],
});

const at = '2026-11-25T12:15:00.000Z';
const heldOf = (
  booking: { id: string; publishableHold?: boolean },
  sessionId: string,
  places: number,
  paymentIntentId: string | null = held.intent.id,
) => ({
  id: booking.id,
  sessionId,
  paymentIntentId,
  places,
  publishableHold: booking.publishableHold ?? false,
});

describe('store contract: checkout and holds', () => {
  it('reads experiences with their tiers, add-ons (by position, then id) and taxes, coupons by exact code, and credit codes by code', async () => {
    const found = await database.checkout.findCheckoutExperiences([elsewhere.id, 'no-such-experience', experience.id, elsewhere.id]);
    expect(found).toStrictEqual(
      [
        {
          experience: await database.experiences.findExperienceRow(experience.id),
          priceTiers: [
            { name: 'Adult', priceMinor: 4550 },
            { name: 'Child', priceMinor: 2000 },
          ],
          addOns: [photo, drinks, lunch],
          taxes: [{ name: 'VAT', rateBasisPoints: 2300 }],
        },
        {
          experience: await database.experiences.findExperienceRow(elsewhere.id),
          priceTiers: [],
          addOns: [elsewhereAddOn],
          taxes: [],
        },
      ].sort((a, b) => inByteOrder(a.experience!.id, b.experience!.id)),
    );
    expect(found[0]!.experience.title).toBe('Sunset Sail');
    expect(await database.checkout.findCheckoutExperiences(['no-such-experience'])).toEqual([]);
    expect(await database.checkout.findCheckoutExperiences([])).toEqual([]);

    expect(await database.checkout.findCoupon(brand.id, 'SUMMER10')).toStrictEqual({
      id: summer.id,
      brandId: brand.id,
      code: 'SUMMER10',
      percentOffBasisPoints: 1000,
      amountOffMinor: null,
      validFrom: '2026-06-01',
      validUntil: '2026-09-30T23:59:59.000Z',
      active: true,
    });
    expect(await database.checkout.findCoupon(brand.id, 'summer10')).toBeUndefined();
    expect(await database.checkout.findCoupon(other.id, 'SUMMER10')).toStrictEqual({
      id: otherSummer.id,
      brandId: other.id,
      code: 'SUMMER10',
      percentOffBasisPoints: null,
      amountOffMinor: 500,
      validFrom: null,
      validUntil: null,
      active: false,
    });

    // Compared upper-case; listed by code in byte order ('G' before 'g'); the other brand's GIFT-A is not its.
    expect(await database.checkout.creditCodesByCode(brand.id, ['GIFT-MIXED', 'GIFT-A', 'NOPE'])).toStrictEqual([
      { id: gift.id, brandId: brand.id, code: 'GIFT-A', balanceMinor: 10_000 - 1_500 },
      { id: mixed.id, brandId: brand.id, code: 'gift-mixed', balanceMinor: 2_000 },
    ]);
    expect(await database.checkout.creditCodesByCode(brand.id, [])).toEqual([]);
  });

  it('reads what a checkout needs at once, each part exactly as its own method answers it', async () => {
    const asked = await createQuestion(db, brand.id, {
      prompt: 'Diet?',
      fieldType: 'single_select',
      options: [
        { key: 'z', value: 'Vegan' },
        { key: 'a', value: 'None' },
      ],
    });
    await assignQuestion(db, elsewhere.id, asked.id, {
      order: 2,
      conditions: [{ rule: 'value_matches', conditionKey: 'k', conditionValue: 'v' }],
    });
    await assignQuestion(db, experience.id, asked.id, { order: 1 });
    await assignQuestion(db, experience.id, (await createQuestion(db, brand.id)).id, { isActive: false });
    const { experience: archived } = await createExperience(db, brand.id, { archivedAt: '2026-11-20T08:30:00.120Z' });
    const cancelled = await createSession(db, archived, { startLocal: '2026-12-04T09:00:00', cancelledAt: '2026-11-21T07:00:00.000Z' });
    const ids = [elsewhere.id, experience.id, 'no-such-experience', archived.id, experience.id];
    const starts = [s2, s1, { startLocal: '2026-12-09T09:00:00' }].map((on) => ({
      experienceId: experience.id,
      startLocal: on.startLocal,
    }));
    starts.push({ experienceId: archived.id, startLocal: cancelled.startLocal });
    const read = await database.checkout.readCheckout({ brandId: brand.id, cartId: held.cart.id, experienceIds: ids, starts, at });
    expect(read).toStrictEqual({
      brand: await database.brands.findBrand(brand.id),
      questions: await database.questions.activeQuestionsOfExperiences([...new Set(ids)]),
      holds: await database.checkout.holdsOfCart(brand.id, held.cart.id, at),
      experiences: await database.checkout.findCheckoutExperiences(ids),
      sessions: await database.checkout.findItemSessions(starts, at),
    });
    expect(read.questions.map((q) => [q.assignment.experienceId, q.question.prompt])).toEqual(
      [
        [experience.id, 'Diet?'],
        [elsewhere.id, 'Diet?'],
      ].sort((a, b) => inByteOrder(a[0]!, b[0]!)),
    );
    expect(read.experiences.find((e) => e.experience.id === archived.id)!.experience.archivedAt).toBe('2026-11-20T08:30:00.120Z');
    // By experience id (byte order), then start.
    const sessionsOf = {
      [experience.id]: [
        [s1.id, 2, null],
        [s2.id, 0, null],
      ],
      [archived.id]: [[cancelled.id, 0, '2026-11-21T07:00:00.000Z']],
    };
    expect(read.sessions.map((found) => [found.session.id, found.lapsedPlaces, found.session.cancelledAt])).toEqual(
      [experience.id, archived.id].sort(inByteOrder).flatMap((id) => sessionsOf[id]),
    );
    const nothing = await database.checkout.readCheckout({
      brandId: 'no-such-brand',
      cartId: 'no-cart',
      experienceIds: [],
      starts: [],
      at,
    });
    expect(nothing).toStrictEqual({ brand: undefined, questions: [], holds: { places: [], credits: [] }, experiences: [], sessions: [] });
  });

  it('reads no questions for a checkout of a brand without the customQuestions feature, which asks none', async () => {
    const plain = await createBrand(db, { featuresActive: ['shoppingCart', 'creditCard'] });
    const { experience: asking } = await createExperience(db, plain.id);
    await assignQuestion(db, asking.id, (await createQuestion(db, plain.id)).id, { order: 1 });
    expect(await database.questions.activeQuestionsOfExperiences([asking.id])).toHaveLength(1);
    const read = await database.checkout.readCheckout({ brandId: plain.id, cartId: 'no-cart', experienceIds: [asking.id], starts: [], at });
    expect([read.brand?.id, read.questions, read.experiences.map((e) => e.experience.id)]).toStrictEqual([plain.id, [], [asking.id]]);
  });

  it('reads what a cart holds, lapsed holds and the places they keep on the sessions items ask for', async () => {
    expect(await database.checkout.holdsOfCart(brand.id, held.cart.id, '2026-11-25T11:00:00.000Z')).toStrictEqual({
      places: [
        { sessionId: s1.id, count: 2 },
        { sessionId: s2.id, count: 1 },
      ].sort((a, b) => inByteOrder(a.sessionId, b.sessionId)),
      credits: [{ creditCodeId: gift.id, amountMinor: 1_500 }],
    });
    // At 12:15 the first hold has lapsed: its places count with the session's lapsed places instead.
    expect(await database.checkout.holdsOfCart(brand.id, held.cart.id, at)).toStrictEqual({
      places: [{ sessionId: s2.id, count: 1 }],
      credits: [{ creditCodeId: gift.id, amountMinor: 1_500 }],
    });
    expect(await database.checkout.holdsOfCart(other.id, held.cart.id, at)).toStrictEqual({ places: [], credits: [] });

    // The sessions asked for that exist (each once), by start, with the places lapsed holds keep on them.
    const startOf = (on: { startLocal: string }) => ({ experienceId: experience.id, startLocal: on.startLocal });
    const lapsed = async (when: string) =>
      (
        await database.checkout.findItemSessions(
          [startOf(s2), startOf(s1), startOf({ startLocal: '2026-12-09T09:00:00' }), startOf(s2)],
          when,
        )
      ).map((found) => [found.session.id, found.lapsedPlaces]);
    expect(await lapsed(at)).toEqual([
      [s1.id, 2],
      [s2.id, 0],
    ]);
    expect(await lapsed('2026-11-25T12:30:00.000Z')).toEqual([
      [s1.id, 2],
      [s2.id, 1],
    ]);
    const [first] = await database.checkout.findItemSessions([startOf(s1)], at);
    expect(first).toStrictEqual({ session: await database.sessions.findSessionAt(experience.id, s1.startLocal), lapsedPlaces: 2 });
    expect(first!.session).toMatchObject({ id: s1.id, startLocal: '2026-12-01T09:00:00', capacity: 10, durationMinutes: 120 });
    expect(await database.checkout.findItemSessions([{ experienceId: elsewhere.id, startLocal: s1.startLocal }], at)).toEqual([]);
    expect(await database.checkout.findItemSessions([], at)).toEqual([]);

    expect(await database.holds.lapsedHolds(at)).toStrictEqual([heldOf(heldFirst!, s1.id, 2)]);
    expect(await database.holds.lapsedHolds('2026-11-26T00:00:00.000Z')).toStrictEqual([
      heldOf(heldFirst!, s1.id, 2),
      heldOf(heldSecond!, s2.id, 1),
    ]);
    expect(await database.holds.lapsedHolds('2026-11-01T00:00:00.000Z')).toEqual([]);

    const ids = [heldSecond!.id, paid.booking.id, heldFirst!.id, 'no-such-booking'];
    expect(await database.holds.processingBookings(ids)).toStrictEqual([heldOf(heldFirst!, s1.id, 2), heldOf(heldSecond!, s2.id, 1)]);
    expect(await database.holds.processingBookings([heldSecond!.id])).toStrictEqual([heldOf(heldSecond!, s2.id, 1)]);
    expect(await database.holds.processingBookings([])).toEqual([]);

    expect(await database.checkout.processingBookingIdsOfCart(held.cart.id)).toEqual([heldFirst!.id, heldSecond!.id]);
    expect(await database.checkout.processingBookingIdsOfCart(replaced.cart.id)).toEqual([]);
  });

  it('lists what a cart holds by session id and by credit code id, in byte order', async () => {
    const sessions = [await session(4), await session(5)].sort((a, b) => inByteOrder(b.id, a.id));
    const codes = [
      await createCreditCode(db, brand.id, { code: 'HOLD-1', balanceMinor: 1_000 }),
      await createCreditCode(db, brand.id, { code: 'HOLD-2', balanceMinor: 1_000 }),
    ].sort((a, b) => inByteOrder(b.id, a.id));
    // Written greatest id first; each booking redeems from one code, the second twice over two bookings.
    const later = { holdExpiresAt: '2026-12-31T00:00:00.000Z' };
    const checkout = await createCheckout(db, {
      brandId: brand.id,
      items: [
        { session: sessions[0]!, participants: [{}, {}], credit: { code: codes[0]!, amountMinor: 300 }, overrides: later },
        { session: sessions[1]!, credit: { code: codes[1]!, amountMinor: 200 }, overrides: later },
        { session: sessions[0]!, credit: { code: codes[1]!, amountMinor: 100 }, overrides: later },
      ],
    });
    expect(await database.checkout.holdsOfCart(brand.id, checkout.cart.id, at)).toStrictEqual({
      places: [
        { sessionId: sessions[1]!.id, count: 1 },
        { sessionId: sessions[0]!.id, count: 3 },
      ],
      credits: [
        { creditCodeId: codes[1]!.id, amountMinor: 300 },
        { creditCodeId: codes[0]!.id, amountMinor: 300 },
      ],
    });
  });

  it('orders held bookings by hold expiry, creation, cart position, then id; a cart’s by creation, position, then id', async () => {
    const s4 = await session(6, 20);
    const [cartA, cartB, cartC, cartD] = [
      await createCart(db, brand.id),
      await createCart(db, brand.id),
      await createCart(db, brand.id),
      await createCart(db, brand.id),
    ];
    const hold = (cart: { id: string }, cartPosition: number, createdAt: string, holdExpiresAt: string) =>
      createBooking(db, {
        brandId: brand.id,
        session: s4,
        status: 'processing',
        overrides: { cartId: cart.id, cartPosition, createdAt, updatedAt: createdAt, holdExpiresAt },
      }).then((made) => made.booking);
    // Written in none of the orders asked for.
    const a1 = await hold(cartA!, 1, '2026-11-25T09:00:00.000Z', '2026-11-25T11:00:00.000Z');
    const d2 = await hold(cartD!, 2, '2026-11-25T09:00:00.000Z', '2026-11-25T11:00:00.000Z');
    const a2 = await hold(cartA!, 0, '2026-11-25T09:30:00.000Z', '2026-11-25T10:30:00.000Z');
    const b0 = await hold(cartB!, 0, '2026-11-25T08:00:00.000Z', '2026-11-25T11:00:00.000Z');
    const c2 = await hold(cartC!, 2, '2026-11-25T09:00:00.000Z', '2026-11-25T11:00:00.000Z');
    const a0 = await hold(cartA!, 0, '2026-11-25T09:00:00.000Z', '2026-11-25T11:00:00.000Z');
    const expected = [a2, b0, a0, a1, ...[c2, d2].sort((x, y) => inByteOrder(x.id, y.id))].map((b) => heldOf(b, s4.id, 1, null));

    // Nothing else of this world has lapsed by 11:00 (the first checkout's holds run to 12:00 and 12:30).
    expect(await database.holds.lapsedHolds('2026-11-25T11:00:00.000Z')).toStrictEqual(expected);
    expect(await database.holds.lapsedHolds('2026-11-25T10:59:59.999Z')).toStrictEqual(expected.slice(0, 1));
    const all = [d2, c2, b0, a2, a1, a0, heldSecond!].map((b) => b.id);
    expect(await database.holds.processingBookings(all)).toStrictEqual([...expected, heldOf(heldSecond!, s2.id, 1)]);
    expect(await database.checkout.processingBookingIdsOfCart(cartA!.id)).toEqual([a0.id, a1.id, a2.id]);

    // Leaves the world as it was: these fail, and no longer hold anything.
    await database.holds.markBookingsFailed(all.slice(0, 6), '2026-11-25T11:00:00.000Z');
    expect(await database.holds.processingBookings(all)).toStrictEqual([heldOf(heldSecond!, s2.id, 1)]);
    const [onS4] = await database.checkout.findItemSessions(
      [{ experienceId: s4.experienceId, startLocal: s4.startLocal }],
      '2026-11-25T11:00:00.000Z',
    );
    expect(onS4!.lapsedPlaces).toBe(0);
  });

  it('tells confirmation codes in use, for bookings and carts of the brand only', async () => {
    expect(await database.checkout.confirmationCodeInUse(brand.id, held.cart.confirmationCode)).toBe(true);
    expect(await database.checkout.confirmationCodeInUse(brand.id, 'REPOST-1')).toBe(true);
    expect(await database.checkout.confirmationCodeInUse(other.id, 'REPOST-1')).toBe(false);
    expect(await database.checkout.confirmationCodeInUse(other.id, held.cart.confirmationCode)).toBe(false);
    expect(await database.checkout.confirmationCodeInUse(brand.id, 'FREE-CODE')).toBe(false);
    // Several at once (a checkout's codes, one question): the taken ones of the brand, nothing else.
    const codes = [held.cart.confirmationCode, 'REPOST-1', 'FREE-CODE'];
    expect(await database.checkout.confirmationCodesInUse(brand.id, codes)).toStrictEqual(
      new Set([held.cart.confirmationCode, 'REPOST-1']),
    );
    expect(await database.checkout.confirmationCodesInUse(other.id, codes)).toStrictEqual(new Set());
    expect(await database.checkout.confirmationCodesInUse(brand.id, [])).toStrictEqual(new Set());
  });

  it('tells whether a hold or a waitlist offer lapsed by a time (what a checkout sweeps first)', async () => {
    expect(await database.checkout.sweepDue('2000-01-01T00:00:00.000Z')).toBe(false);
    // The held cart's processing bookings lapse some day.
    expect(await database.checkout.sweepDue('2999-01-01T00:00:00.000Z')).toBe(true);
  });

  it("answers a checkout unit's first question: whether anything lapsed, and which of its codes are in use", async () => {
    const codes = [held.cart.confirmationCode, 'REPOST-1', 'FREE-CODE'];
    expect(await database.checkout.checkoutChecks({ at: '2000-01-01T00:00:00.000Z', brandId: brand.id, codes })).toStrictEqual({
      sweepDue: false,
      codesInUse: new Set([held.cart.confirmationCode, 'REPOST-1']),
    });
    expect(await database.checkout.checkoutChecks({ at: '2999-01-01T00:00:00.000Z', brandId: other.id, codes })).toStrictEqual({
      sweepDue: true,
      codesInUse: new Set(),
    });
    expect(await database.checkout.checkoutChecks({ at: '2000-01-01T00:00:00.000Z', brandId: brand.id, codes: [] })).toStrictEqual({
      sweepDue: false,
      codesInUse: new Set(),
    });
  });

  it('creates a cart with its first intent in one step, and writes nothing for a cart id that exists', async () => {
    const cart = {
      id: 'cart-created',
      brandId: brand.id,
      confirmationCode: 'CREATED-1',
      at: '2026-11-24T10:00:00.000Z',
      holder: { keyKind: 'brand' as const, client: null },
    };
    const intent = {
      id: 'pi-created-1',
      brandId: brand.id,
      cartId: cart.id,
      processor: 'sandbox',
      processorReference: 'ref-created-1',
      secretHash: 'hash-created-1',
      amountMinor: 4_500,
      currency: 'EUR',
      status: 'requires_payment' as const,
      createdAt: cart.at,
      updatedAt: cart.at,
      processorCheckAt: '2026-11-24T10:15:00.000Z',
    };
    expect(await database.checkout.insertCart(cart, intent)).toBe(true);
    expect(await database.carts.findCartRow(cart.id)).toMatchObject({
      confirmationCode: 'CREATED-1',
      status: 'open',
      holdKeyKind: 'brand',
    });
    expect(await db.rows('paymentIntents', { cartId: cart.id })).toMatchObject([
      { id: 'pi-created-1', attempt: 1, amountMinor: 4_500, secretHash: 'hash-created-1', processorCheckAt: '2026-11-24T10:15:00.000Z' },
    ]);
    // The same id again, with or without an intent: nothing written, the cart as it was.
    expect(await database.checkout.insertCart({ ...cart, confirmationCode: 'CREATED-2' }, { ...intent, id: 'pi-created-2' })).toBe(false);
    expect(await database.checkout.insertCart({ ...cart, confirmationCode: 'CREATED-3' })).toBe(false);
    expect(await database.carts.findCartRow(cart.id)).toMatchObject({ confirmationCode: 'CREATED-1' });
    expect(await db.count('paymentIntents', { cartId: cart.id })).toBe(1);
    expect(await database.checkout.insertCart({ ...cart, id: 'cart-created-free', confirmationCode: 'CREATED-4' })).toBe(true);
    expect(await db.count('paymentIntents', { cartId: 'cart-created-free' })).toBe(0);
  });

  it('writes a checkout: cart, intents, bookings with people and answers, credit', async () => {
    const cart = {
      id: 'cart-written',
      brandId: brand.id,
      confirmationCode: 'WRITTEN-1',
      at: '2026-11-24T09:00:00.000Z',
      holder: { keyKind: 'publishable' as const, client: 'client-w' },
    };
    await database.checkout.insertCart(cart);
    expect(await database.carts.findCartRow(cart.id)).toMatchObject({ holdKeyKind: 'publishable', holdClient: 'client-w' });
    await database.checkout.holdCartFor(cart.id, { keyKind: 'brand', client: null }, '2026-11-24T09:05:00.500Z');
    expect(await database.carts.findCartRow(cart.id)).toStrictEqual({
      id: cart.id,
      brandId: brand.id,
      confirmationCode: 'WRITTEN-1',
      status: 'open',
      createdAt: '2026-11-24T09:00:00.000Z',
      updatedAt: '2026-11-24T09:05:00.500Z',
      holdKeyKind: 'brand',
      holdClient: null,
    });
    expect(await database.checkout.confirmationCodeInUse(brand.id, 'WRITTEN-1')).toBe(true);

    const intent = (n: number) => ({
      id: `pi-written-${n}`,
      brandId: brand.id,
      cartId: cart.id,
      processor: 'sandbox',
      processorReference: `ref-written-${n}`,
      secretHash: `hash-written-${n}`,
      amountMinor: 9_000,
      currency: 'EUR',
      status: 'requires_payment' as const,
      createdAt: `2026-11-24T09:0${n}:00.000Z`,
      updatedAt: `2026-11-24T09:0${n}:00.000Z`,
    });
    await database.checkout.insertPaymentIntent(intent(1));
    await database.checkout.cancelOpenIntentsOfCart(cart.id, '2026-11-24T09:02:00.000Z');
    await database.checkout.insertPaymentIntent(intent(3));
    expect((await database.carts.checkoutsOfCart(cart.id)).intents).toStrictEqual([
      { id: 'pi-written-3', status: 'requires_payment', createdAt: '2026-11-24T09:03:00.000Z' },
      { id: 'pi-written-1', status: 'canceled', createdAt: '2026-11-24T09:01:00.000Z' },
    ]);
    expect(await db.values('SELECT attempt FROM payment_intents WHERE cart_id = ? ORDER BY attempt', cart.id)).toEqual([1, 2]);

    const booking = (n: number, extra: Partial<BookingInsert>) =>
      newBooking(
        { id: `booking-written-${n}`, brandId: brand.id, experienceId: experience.id, session: s1 },
        {
          cartId: cart.id,
          paymentIntentId: 'pi-written-3',
          confirmationCode: `WRITTEN-B${n}`,
          cartConfirmationCode: cart.confirmationCode,
          cartPosition: n,
          pricing: {
            ...pricing,
            addOns: [{ addOnId: photo.id, name: 'Photo pack', quantity: 1, unitPriceMinor: 1_000, totalMinor: 1_000 }],
          },
          ...extra,
        },
      );
    const person = (bookingId: string, position: number): ParticipantInsert => ({
      id: `${bookingId}-p${position}`,
      bookingId,
      position,
      firstName: `Guest${position}`,
      lastName: 'Sousa',
      emailAddress: position === 0 ? 'guest@example.test' : null,
      phoneNumber: null,
      priceTierName: 'Adult',
      priceMinor: 3_000,
      cancelledAt: null,
    });
    const question = {
      customQuestionId: 'q-1',
      prompt: 'Dietary needs?',
      fieldType: 'multiple_select' as const,
      options: null,
      termsAndConditions: null,
      config: {
        experienceId: experience.id,
        experienceQuestionId: 'eq-1',
        isRequired: false,
        isActive: true,
        order: 0,
        scope: 'participant' as const,
        conditions: null,
        conditionsMatchType: null,
      },
    };
    const answersOf = (bookingId: string): AnswerInsert[] => [
      { id: `${bookingId}-a0`, bookingId, participantId: null, question, answer: [{ value: 'yes', key: null }], position: 0 },
      {
        id: `${bookingId}-a1`,
        bookingId,
        participantId: `${bookingId}-p1`,
        question,
        answer: [{ value: ['vegan', 'gluten'] }],
        position: 1,
      },
    ];
    const first = booking(0, {});
    const second = booking(1, {
      metadata: { source: 'widget', depth: { n: [1, 2] } },
      notes: 'Late arrival',
      status: 'confirmed',
      holdExpiresAt: null,
    });
    await database.checkout.insertBooking(first, [person(first.id, 0), person(first.id, 1)], answersOf(first.id));
    await database.checkout.insertBooking(second, [person(second.id, 0)], []);

    const written = await database.bookings.findBookingRecords([second.id, first.id]);
    const expected = [
      { booking: first, participants: [person(first.id, 0), person(first.id, 1)], answers: answersOf(first.id) },
      { booking: second, participants: [person(second.id, 0)], answers: [] },
    ];
    expect(written).toStrictEqual(
      expected
        .map(({ booking, ...rest }) => ({
          booking: { ...booking, amountRefundedMinor: 0 },
          experienceTitle: experience.title,
          timezone: experience.timezoneId,
          startLocal: s1.startLocal,
          ...rest,
        }))
        .sort((a, b) => inByteOrder(a.booking.id, b.booking.id)),
    );

    // Credit: taken while the balance covers it, refused (nothing changed) once it does not.
    const redeem = (n: number, amountMinor: number) => ({
      id: `redemption-${n}`,
      bookingId: first.id,
      creditCodeId: mixed.id,
      amountMinor,
    });
    expect(await database.checkout.redeemCredit(redeem(1, 1_500))).toBe(true);
    expect(await database.checkout.redeemCredit(redeem(2, 600))).toBe(false);
    expect(await database.checkout.redeemCredit(redeem(3, 500))).toBe(true);
    expect(await database.checkout.redeemCredit({ ...redeem(4, 1), creditCodeId: 'no-such-code' })).toBe(false);
    expect(await database.checkout.creditCodesByCode(brand.id, ['GIFT-MIXED'])).toStrictEqual([
      { id: mixed.id, brandId: brand.id, code: 'gift-mixed', balanceMinor: 0 },
    ]);
    expect(await db.values('SELECT id FROM credit_redemptions WHERE booking_id = ? ORDER BY amount_minor', first.id)).toEqual([
      'redemption-3',
      'redemption-1',
    ]);
    expect(await database.checkout.holdsOfCart(brand.id, cart.id, '2026-11-24T09:10:00.000Z')).toStrictEqual({
      places: [{ sessionId: s1.id, count: 2 }],
      credits: [{ creditCodeId: mixed.id, amountMinor: 2_000 }],
    });
  });

  it('frees a replaced booking’s code, and leaves live bookings’ codes alone', async () => {
    const failedId = replaced.bookings[0]!.booking.id;
    await database.checkout.releaseCodeOfReplacedBooking(replaced.cart.id, 'REPOST-1');
    const [failed] = await database.bookings.findBookingRecords([failedId]);
    expect(failed!.booking.confirmationCode).toBe(`REPOST-1~${failedId.slice(0, 8)}`);
    expect(await database.checkout.confirmationCodeInUse(brand.id, 'REPOST-1')).toBe(false);

    await database.checkout.releaseCodeOfReplacedBooking(paid.cart.id, paid.booking.confirmationCode);
    expect(await database.checkout.confirmationCodeInUse(brand.id, paid.booking.confirmationCode)).toBe(true);
    const [live] = await database.bookings.findBookingRecords([paid.booking.id]);
    expect(live!.booking.confirmationCode).toBe(paid.booking.confirmationCode);
  });

  it('fails lapsed holds, returns their credit and cancels intents left without holds', async () => {
    const sweptAt = '2026-11-25T12:15:00.000Z';
    // The paid booking confirmed meanwhile: the guard leaves it as it is.
    await database.holds.markBookingsFailed([heldFirst!.id, paid.booking.id], sweptAt);
    expect(await database.holds.processingBookings([heldFirst!.id, heldSecond!.id])).toStrictEqual([heldOf(heldSecond!, s2.id, 1)]);
    const rows = await database.bookings.findBookingRecords([heldFirst!.id, paid.booking.id]);
    const byId = new Map(rows.map((row) => [row.booking.id, row.booking]));
    expect(byId.get(heldFirst!.id)).toMatchObject({ status: 'failed', holdExpiresAt: null, updatedAt: sweptAt });
    expect(byId.get(paid.booking.id)).toMatchObject({ status: 'confirmed', holdExpiresAt: null, updatedAt: '2026-11-20T10:00:00.000Z' });
    await database.holds.markBookingsFailed([], sweptAt);

    // Each code gets back what the bookings took from it (GIFT-A 1500 of the first hold, gift-mixed 2000 of the written one).
    await database.holds.returnCreditRedemptions([heldFirst!.id, 'booking-written-0']);
    expect((await database.checkout.creditCodesByCode(brand.id, ['GIFT-A', 'GIFT-MIXED'])).map((c) => c.balanceMinor)).toEqual([
      10_000, 2_000,
    ]);
    expect(await db.count('creditRedemptions', { bookingId: heldFirst!.id })).toBe(0);
    await database.holds.returnCreditRedemptions([heldFirst!.id]);
    await database.holds.returnCreditRedemptions([]);
    expect((await database.checkout.creditCodesByCode(brand.id, ['GIFT-A']))[0]!.balanceMinor).toBe(10_000);

    // The intent still pays for a processing booking: kept. Once that one fails too: canceled.
    await database.holds.cancelIntentsWithoutHolds([held.intent.id], sweptAt);
    expect((await database.payments.findIntentById(held.intent.id))!.status).toBe('requires_payment');
    await database.holds.markBookingsFailed([heldSecond!.id], '2026-11-25T12:31:00.000Z');
    await database.holds.cancelIntentsWithoutHolds([held.intent.id, paid.intent.id], '2026-11-25T12:31:00.000Z');
    expect((await database.carts.checkoutsOfCart(held.cart.id)).intents).toStrictEqual([
      { id: held.intent.id, status: 'canceled', createdAt: '2026-11-20T10:00:00.000Z' },
    ]);
    expect(await db.row('paymentIntents', { id: held.intent.id })).toMatchObject({ updatedAt: '2026-11-25T12:31:00.000Z' });
    expect((await database.payments.findIntentById(paid.intent.id))!.status).toBe('succeeded');
    await database.holds.cancelIntentsWithoutHolds([], sweptAt);
  });

  it('writes a booking with its participants and answers all or none, inside a unit of work', async () => {
    // A participant that cannot be written (two of one id) fails the unit: neither the booking nor the
    // participants written before it remain.
    const booking = newBooking(
      { id: 'booking-half', brandId: brand.id, experienceId: experience.id, session: s3 },
      { confirmationCode: 'HALF-1', status: 'confirmed', holdExpiresAt: null },
    );
    const person: ParticipantInsert = {
      id: 'booking-half-p0',
      bookingId: booking.id,
      position: 0,
      firstName: 'Ana',
      lastName: 'Sousa',
      emailAddress: null,
      phoneNumber: null,
      priceTierName: 'Adult',
      priceMinor: 4_500,
      cancelledAt: null,
    };
    await expect(
      database.transaction((tx) => tx.checkout.insertBooking(booking, [person, { ...person, position: 1 }], [])),
    ).rejects.toThrow();
    expect(await db.count('participants', { bookingId: booking.id })).toBe(0);
    expect(await db.count('bookings', { id: booking.id })).toBe(0);
  });

  it('stores a null metadata as SQL NULL, not as the JSON null', async () => {
    const sqlNull = (id: string) => db.value<number>('SELECT CASE WHEN metadata IS NULL THEN 1 ELSE 0 END FROM bookings WHERE id = ?', id);
    expect(await sqlNull('booking-written-0')).toBe(1);
    expect(await sqlNull('booking-written-1')).toBe(0);
  });
});

describe('store contract: what a client holds', () => {
  const CLIENT = 'client-a';
  const AT = '2026-11-25T12:00:00.000Z';
  /** A checkout of `cart` awaiting payment: bookings of `places` places each, lapsing at `expiries`. */
  const holding = async (
    on: { id: string; experienceId: string; startLocal: string },
    cart: { id: string; brandId: string; confirmationCode: string },
    items: Array<{ participants: Array<{ cancelledAt?: string }>; holdExpiresAt: string; status?: 'failed' }>,
  ) =>
    createCheckout(db, {
      brandId: cart.brandId,
      cart,
      items: items.map((item) => ({
        session: on,
        participants: item.participants,
        ...(item.status ? { status: item.status } : {}),
        overrides: { holdExpiresAt: item.status ? null : item.holdExpiresAt },
      })),
    });
  const cartOf = async (brandId: string, client: string | null) => {
    const cart = await createCart(db, brandId);
    await database.checkout.holdCartFor(cart.id, { keyKind: client ? 'publishable' : 'brand', client }, AT);
    return cart;
  };

  it("records who holds a cart, and counts a client's live unpaid places in the brand, but one cart's, with the earliest lapse", async () => {
    const s9 = await session(9, 50);
    const first = await cartOf(brand.id, CLIENT);
    expect(await database.carts.findCartRow(first.id)).toMatchObject({ holdKeyKind: 'publishable', holdClient: CLIENT });
    expect(await database.checkout.clientHolds(brand.id, CLIENT, AT, 'none')).toEqual({ places: 0, oldestExpiresAt: null });
    // Counted: 2 active places lapsing at 12:05 and 1 at 12:03 (a cancelled participant holds nothing).
    await holding(s9, first, [
      { participants: [{}, {}, { cancelledAt: '2026-11-25T11:00:00.000Z' }], holdExpiresAt: '2026-11-25T12:05:00.000Z' },
      { participants: [{}], holdExpiresAt: '2026-11-25T12:03:00.000Z' },
    ]);
    const second = await cartOf(brand.id, CLIENT);
    await holding(s9, second, [{ participants: [{}, {}, {}], holdExpiresAt: '2026-11-25T12:04:00.000Z' }]);
    // Not counted: lapsed at `at`, failed, another client's, a secret key's, another brand's.
    await holding(s9, await cartOf(brand.id, CLIENT), [{ participants: [{}], holdExpiresAt: AT }]);
    await holding(s9, await cartOf(brand.id, CLIENT), [{ participants: [{}], holdExpiresAt: AT, status: 'failed' }]);
    await holding(s9, await cartOf(brand.id, 'client-b'), [{ participants: [{}], holdExpiresAt: '2026-11-25T12:01:00.000Z' }]);
    await holding(s9, await cartOf(brand.id, null), [{ participants: [{}], holdExpiresAt: '2026-11-25T12:01:00.000Z' }]);
    await holding(s9, await cartOf(other.id, CLIENT), [{ participants: [{}], holdExpiresAt: '2026-11-25T12:01:00.000Z' }]);

    expect(await database.checkout.clientHolds(brand.id, CLIENT, AT, 'none')).toEqual({
      places: 6,
      oldestExpiresAt: '2026-11-25T12:03:00.000Z',
    });
    expect(await database.checkout.clientHolds(brand.id, CLIENT, AT, first.id)).toEqual({
      places: 3,
      oldestExpiresAt: '2026-11-25T12:04:00.000Z',
    });
    expect(await database.checkout.clientHolds(brand.id, CLIENT, '2026-11-25T12:04:00.000Z', 'none')).toEqual({
      places: 2,
      oldestExpiresAt: '2026-11-25T12:05:00.000Z',
    });
    expect(await database.checkout.clientHolds(brand.id, 'client-b', AT, 'none')).toEqual({
      places: 1,
      oldestExpiresAt: '2026-11-25T12:01:00.000Z',
    });
    // A later checkout of the cart by a secret key: its places are no longer the client's.
    await database.checkout.holdCartFor(second.id, { keyKind: 'organization', client: null }, AT);
    expect(await database.carts.findCartRow(second.id)).toMatchObject({ holdKeyKind: 'organization', holdClient: null });
    expect(await database.checkout.clientHolds(brand.id, CLIENT, AT, 'none')).toEqual({
      places: 3,
      oldestExpiresAt: '2026-11-25T12:03:00.000Z',
    });
  });
});

// The guards' world, in a database of its own: its sweep fails every hold lapsed by then.
const guarded = await freshDb();
const racing = await guardWorld(guarded);

describe('store contract: checkout and holds guards, raced', () => {
  checkoutGuards(() => ({ db: guarded, gateways: [guarded.database], w: racing }));
});
