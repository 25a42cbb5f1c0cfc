/**
 * The checkout, holds, bookings, carts, reschedules and payments stores on PostgreSQL. Differential: the
 * same calls run on the SQLite port and on the PostgreSQL port over identical copies of one world, and
 * answer alike (instants, numbers, order, null vs undefined), writes included (made on both sides, read
 * back through the stores). Then the guards money and places depend on, raced on two gateways.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createCart, createPaymentIntent } from '../../fixtures/factories/carts.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createAddOn, createCoupon, createCreditCode } from '../../fixtures/factories/checkout.ts';
import { createCheckout } from '../../fixtures/factories/checkouts.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { postgresDatabase, type DatabaseOf } from '../../src/db/postgres/database.ts';
import type { PostgresStores } from '../../src/db/postgres/store-binding.ts';
import { cartsStore } from '../../src/db/postgres/stores/bookings/carts.ts';
import { bookingsStore } from '../../src/db/postgres/stores/bookings/bookings.ts';
import { reschedulesStore } from '../../src/db/postgres/stores/bookings/reschedules.ts';
import { checkoutStore } from '../../src/db/postgres/stores/checkout/checkout.ts';
import { holdsStore } from '../../src/db/postgres/stores/checkout/holds.ts';
import { availabilityStores } from '../../src/db/postgres/stores/index.ts';
import { paymentsStore } from '../../src/db/postgres/stores/payments/payments.ts';
import type { BookingKey } from '../../src/domain/bookings/store.ts';
import type { AnswerInsert, BookingInsert, ParticipantInsert } from '../../src/domain/checkout/store.ts';
import type { Stores } from '../../src/domain/shared/database.ts';
import type { Db } from '../../src/db/sqlite/client.ts';
import { freshDb, portOf } from '../support/db.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';
import { copyRows } from '../support/postgres-rows.ts';

type CheckoutStores = Pick<Stores, 'capacity' | 'sessions' | 'checkout' | 'holds' | 'bookings' | 'carts' | 'reschedules' | 'payments'>;

const stores: PostgresStores<CheckoutStores> = {
  ...availabilityStores,
  checkout: checkoutStore,
  holds: holdsStore,
  bookings: bookingsStore,
  carts: cartsStore,
  reschedules: reschedulesStore,
  payments: paymentsStore,
};

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

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
    createdAt: '2026-11-24T09:03:00.000Z',
    updatedAt: '2026-11-24T09:03:00.000Z',
    ...extra,
  };
}

/** A brand with one experience and three sessions, on an in-memory SQLite database. */
function baseWorld() {
  const world = freshDb();
  const brand = createBrand(world);
  const other = createBrand(world);
  const { experience } = createExperience(world, brand.id);
  const session = (day: number, capacity = 10) => createSession(world, experience, { startLocal: `2026-12-0${day}T09:00:00`, capacity });
  return { world, brand, other, experience, sessions: [session(1), session(2), session(3)] as const };
}

/** Opens gateways (two pools) on the test database once the world is copied there. */
function gatewaysOf(target: { url: () => string }, world: Db) {
  const gateways: Array<DatabaseOf<CheckoutStores>> = [];
  const pools: PgDb[] = [];
  beforeAll(async () => {
    pools.push(openPostgres(target.url(), { poolSize: 8 }), openPostgres(target.url(), { poolSize: 8 }));
    await migratePostgres(pools[0]!);
    await copyRows(world, pools[0]!);
    gateways.push(...pools.map((pool) => postgresDatabase(pool, stores)));
  });
  afterAll(() => Promise.all(gateways.map((g) => g.close())));
  return { gateways, pools };
}

describePostgres('checkout group stores on PostgreSQL, against SQLite', () => {
  const target = freshPostgresDatabase();
  const { world, brand, other, experience, sessions } = baseWorld();
  const [s1, s2, s3] = sessions;

  const photo = createAddOn(world, experience.id, { name: 'Photo pack', position: 0 });
  const lunch = createAddOn(world, experience.id, { name: 'Lunch', priceMinor: 1500, position: 1 });
  createAddOn(world, createExperience(world, brand.id).experience.id, { name: 'Elsewhere' });
  const summer = createCoupon(world, brand.id, { code: 'SUMMER10', validFrom: '2026-06-01', validUntil: '2026-09-30T23:59:59.000Z' });
  createCoupon(world, other.id, { code: 'SUMMER10', amountOffMinor: 500, active: false });
  const gift = createCreditCode(world, brand.id, { code: 'GIFT-A', balanceMinor: 10_000 });
  const mixed = createCreditCode(world, brand.id, { code: 'gift-mixed', balanceMinor: 2_000 });
  createCreditCode(world, other.id, { code: 'GIFT-A', balanceMinor: 999 });

  // A checkout awaiting payment: its first hold lapses at 12:00, its second at 12:30.
  const held = createCheckout(world, {
    brandId: brand.id,
    items: [
      {
        session: s1,
        participants: [{}, {}, { cancelledAt: '2026-11-21T10:00:00.000Z' }],
        credit: { code: gift, amountMinor: 1_500 },
        overrides: { holdExpiresAt: '2026-11-25T12:00:00.000Z' },
      },
      { session: s2, participants: [{}], overrides: { holdExpiresAt: '2026-11-25T12:30:00.000Z' } },
    ],
  });
  const [heldFirst, heldSecond] = held.bookings.map((b) => b.booking);
  // An earlier, replaced checkout of another cart: its failed booking still holds the code a re-post wants.
  const replaced = createCheckout(world, {
    brandId: brand.id,
    items: [{ session: s2, status: 'failed', overrides: { confirmationCode: 'REPOST-1' } }],
  });
  const paid = createPaidBooking(world, {
    brandId: brand.id,
    session: s3,
    participants: [{ priceMinor: 3_000 }, { priceMinor: 2_000, cancelledAt: '2026-11-22T08:00:00.000Z' }],
    overrides: { metadata: { channel: 'kiosk', tags: ['vip'], nested: { b: 1, a: 2 } }, notes: 'Window seat' },
  });
  // Back-office listing: creation times with ties, statuses, sessions and another brand's booking.
  const listed = [
    ['2026-10-01T08:00:00.000Z', 'confirmed', s1],
    ['2026-10-02T08:00:00.000Z', 'cancelled', s2],
    ['2026-10-02T08:00:00.000Z', 'confirmed', s3],
    ['2026-10-02T08:00:00.000Z', 'confirmed', s1],
    ['2026-10-03T08:00:00.000Z', 'refunded', s2],
  ] as const;
  for (const [createdAt, status, session] of listed)
    createBooking(world, { brandId: brand.id, session, status, overrides: { createdAt, updatedAt: createdAt } });
  createBooking(world, { brandId: other.id, session: s1, overrides: { createdAt: '2026-10-02T08:00:00.000Z' } });

  const sqlite = portOf(world);
  const { gateways, pools } = gatewaysOf(target, world);
  const pg = () => gateways[0]!;

  /** Runs `call` on SQLite, then on PostgreSQL; both answers must be the same. */
  async function same<T>(call: (db: CheckoutStores) => Promise<T>): Promise<T> {
    const expected = await call(sqlite);
    const actual = await call(pg());
    expect(actual).toStrictEqual(expected);
    return actual;
  }

  const at = '2026-11-25T12:15:00.000Z';

  it('reads add-ons, coupons and credit codes alike', async () => {
    expect((await same((db) => db.checkout.addOnsOfExperience(experience.id))).map((a) => a.id)).toEqual([photo.id, lunch.id]);
    expect(await same((db) => db.checkout.addOnsOfExperience('no-such-experience'))).toEqual([]);

    const coupon = await same((db) => db.checkout.findCoupon(brand.id, 'SUMMER10'));
    expect(coupon).toStrictEqual({
      id: summer.id,
      brandId: brand.id,
      code: 'SUMMER10',
      percentOffBasisPoints: 1000,
      amountOffMinor: null,
      validFrom: '2026-06-01',
      validUntil: '2026-09-30T23:59:59.000Z',
      active: true,
    });
    expect(await same((db) => db.checkout.findCoupon(brand.id, 'summer10'))).toBeUndefined();
    expect((await same((db) => db.checkout.findCoupon(other.id, 'SUMMER10')))!.active).toBe(false);

    const codes = await same((db) => db.checkout.creditCodesByCode(brand.id, ['GIFT-MIXED', 'GIFT-A', 'NOPE']));
    expect(codes.map((c) => [c.code, c.balanceMinor])).toEqual([
      ['GIFT-A', 10_000 - 1_500],
      ['gift-mixed', 2_000],
    ]);
    expect(await same((db) => db.checkout.creditCodesByCode(brand.id, []))).toEqual([]);
  });

  it('reads what a cart holds, lapsed holds and lapsed places alike', async () => {
    expect(await same((db) => db.checkout.holdsOfCart(brand.id, held.cart.id, '2026-11-25T11:00:00.000Z'))).toStrictEqual({
      places: [
        { sessionId: s1.id, count: 2 },
        { sessionId: s2.id, count: 1 },
      ].sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1)),
      credits: [{ creditCodeId: gift.id, amountMinor: 1_500 }],
    });
    // At 12:15 the first hold has lapsed: its places count with the session's lapsed places instead.
    expect(await same((db) => db.checkout.holdsOfCart(brand.id, held.cart.id, at))).toStrictEqual({
      places: [{ sessionId: s2.id, count: 1 }],
      credits: [{ creditCodeId: gift.id, amountMinor: 1_500 }],
    });
    expect(await same((db) => db.checkout.holdsOfCart(other.id, held.cart.id, at))).toStrictEqual({ places: [], credits: [] });

    expect(await same((db) => db.holds.lapsedPlaces(s1.id, at))).toBe(2);
    expect(await same((db) => db.holds.lapsedPlaces(s2.id, at))).toBe(0);
    expect(await same((db) => db.holds.lapsedPlaces(s2.id, '2026-11-25T12:30:00.000Z'))).toBe(1);

    expect(await same((db) => db.holds.lapsedHolds(at))).toStrictEqual([
      { id: heldFirst!.id, sessionId: s1.id, paymentIntentId: held.intent.id, places: 2 },
    ]);
    expect(await same((db) => db.holds.lapsedHolds('2026-11-26T00:00:00.000Z'))).toHaveLength(2);
    expect(await same((db) => db.holds.lapsedHolds('2026-11-01T00:00:00.000Z'))).toEqual([]);

    const ids = [heldSecond!.id, paid.booking.id, heldFirst!.id, 'no-such-booking'];
    expect((await same((db) => db.holds.processingBookings(ids))).map((b) => b.id)).toEqual([heldFirst!.id, heldSecond!.id]);
    expect(await same((db) => db.holds.processingBookings([heldSecond!.id]))).toStrictEqual([
      { id: heldSecond!.id, sessionId: s2.id, paymentIntentId: held.intent.id, places: 1 },
    ]);
    expect(await same((db) => db.holds.processingBookings([]))).toEqual([]);

    expect(await same((db) => db.checkout.processingBookingIdsOfCart(held.cart.id))).toEqual([heldFirst!.id, heldSecond!.id]);
    expect(await same((db) => db.checkout.processingBookingIdsOfCart(replaced.cart.id))).toEqual([]);
  });

  it('tells confirmation codes in use alike, for bookings and carts of the brand only', async () => {
    expect(await same((db) => db.checkout.confirmationCodeInUse(brand.id, held.cart.confirmationCode))).toBe(true);
    expect(await same((db) => db.checkout.confirmationCodeInUse(brand.id, 'REPOST-1'))).toBe(true);
    expect(await same((db) => db.checkout.confirmationCodeInUse(other.id, 'REPOST-1'))).toBe(false);
    expect(await same((db) => db.checkout.confirmationCodeInUse(brand.id, 'FREE-CODE'))).toBe(false);
  });

  it('reads bookings with their context, participants and answers alike', async () => {
    const ids = [paid.booking.id, heldFirst!.id, heldSecond!.id, 'no-such-booking'];
    const found = await same((db) => db.bookings.findBookingsWithContext(ids));
    expect(found).toHaveLength(3);
    const view = found.find((row) => row.booking.id === paid.booking.id)!;
    expect(view).toMatchObject({ experienceTitle: experience.title, timezone: experience.timezoneId, startLocal: s3.startLocal });
    expect(view.booking).toMatchObject({
      status: 'confirmed',
      amountMinor: 5_000,
      amountRefundedMinor: 0,
      cartPosition: 0,
      metadata: { channel: 'kiosk', tags: ['vip'], nested: { a: 2, b: 1 } },
      holdExpiresAt: null,
      createdAt: '2026-11-20T10:00:00.000Z',
      notes: 'Window seat',
    });
    expect(found.find((row) => row.booking.id === heldFirst!.id)!.booking.holdExpiresAt).toBe('2026-11-25T12:00:00.000Z');
    expect(await same((db) => db.bookings.findBookingsWithContext([]))).toEqual([]);

    const people = await same((db) => db.bookings.participantsOfBookings(ids));
    expect(people).toHaveLength(6);
    expect(people.filter((p) => p.bookingId === paid.booking.id).map((p) => [p.position, p.priceMinor, p.cancelledAt])).toEqual([
      [0, 3_000, null],
      [1, 2_000, '2026-11-22T08:00:00.000Z'],
    ]);
    expect(await same((db) => db.bookings.participantsOfBookings([]))).toEqual([]);
    expect(await same((db) => db.bookings.answersOfBookings(ids))).toEqual([]);
    expect(await same((db) => db.bookings.answersOfBookings([]))).toEqual([]);
  });

  it('pages and counts the back office list alike, newest first with ties by id', async () => {
    const everything = await same((db) => db.bookings.findBookingPage({ brandId: brand.id }, null, 100));
    expect(everything).toHaveLength(9);
    for (const key of everything) expect(key.createdAt).toMatch(iso);

    const paged: string[] = [];
    let after: BookingKey | null = null;
    for (;;) {
      const cursor: BookingKey | null = after;
      const page: BookingKey[] = await same((db) => db.bookings.findBookingPage({ brandId: brand.id }, cursor, 3));
      const counted = await same((db) => db.bookings.countBookings({ brandId: brand.id }, cursor));
      expect(counted).toStrictEqual({ total: 9, before: paged.length });
      if (page.length === 0) break;
      paged.push(...page.map((k) => k.id));
      after = page[page.length - 1]!;
    }
    expect(paged).toEqual(everything.map((k) => k.id));

    const filters = [
      { brandId: brand.id, status: 'confirmed' as const },
      { brandId: brand.id, startFrom: '2026-12-02T00:00:00', startBefore: '2026-12-03T00:00:00' },
      { brandId: brand.id, status: null, startFrom: null, startBefore: '2026-12-02T09:00:00' },
      { brandId: other.id },
      { brandId: 'no-such-brand' },
    ];
    for (const filter of filters) {
      const page = await same((db) => db.bookings.findBookingPage(filter, null, 2));
      await same((db) => db.bookings.countBookings(filter, null));
      await same((db) => db.bookings.countBookings(filter, page[0] ?? null));
    }
    expect(await same((db) => db.bookings.countBookings({ brandId: brand.id, status: 'confirmed' }, null))).toStrictEqual({
      total: 4,
      before: 0,
    });
  });

  it('reads carts, their intents and bookings alike', async () => {
    expect(await same((db) => db.carts.findCartRow(paid.cart.id))).toStrictEqual({
      id: paid.cart.id,
      brandId: brand.id,
      confirmationCode: paid.cart.confirmationCode,
      status: 'paid',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
    });
    expect(await same((db) => db.carts.findCartRow('no-such-cart'))).toBeUndefined();
    expect(await same((db) => db.carts.paymentIntentsOfCart(held.cart.id))).toStrictEqual([
      { id: held.intent.id, status: 'requires_payment', createdAt: '2026-11-20T10:00:00.000Z' },
    ]);
    expect(await same((db) => db.carts.bookingsOfCart(held.cart.id))).toStrictEqual([
      { id: heldFirst!.id, paymentIntentId: held.intent.id, amountMinor: heldFirst!.amountMinor },
      { id: heldSecond!.id, paymentIntentId: held.intent.id, amountMinor: 4_500 },
    ]);
    expect(await same((db) => db.carts.bookingsOfCart('no-such-cart'))).toEqual([]);
  });

  it('reads payment intents and the bookings they pay alike', async () => {
    const intent = {
      id: held.intent.id,
      cartId: held.cart.id,
      processor: 'sandbox',
      processorReference: held.reference,
      status: 'requires_payment',
    };
    expect(await same((db) => db.payments.findIntentByReference('sandbox', held.reference))).toStrictEqual(intent);
    expect(await same((db) => db.payments.findIntentByReference('other-processor', held.reference))).toBeUndefined();
    expect(await same((db) => db.payments.findIntentBySecretHash(held.intent.secretHash))).toStrictEqual(intent);
    expect(await same((db) => db.payments.findIntentById(held.intent.id))).toStrictEqual(intent);
    expect(await same((db) => db.payments.findIntentById('no-such-intent'))).toBeUndefined();

    const paying = await same((db) => db.payments.bookingsOfIntent(held.intent.id));
    expect(paying.map((b) => [b.id, b.activeParticipants])).toEqual([
      [heldFirst!.id, 2],
      [heldSecond!.id, 1],
    ]);
    expect(paying[0]!.pricing.discounts).toEqual([{ kind: 'credit', code: 'GIFT-A', amountMinor: 1_500 }]);
    expect((await same((db) => db.payments.bookingsOfIntent(paid.intent.id)))[0]).toMatchObject({
      activeParticipants: 1,
      amountMinor: 5_000,
    });
    expect(await same((db) => db.payments.bookingsOfIntent('no-such-intent'))).toEqual([]);
  });

  it('writes a checkout alike: cart, intents, bookings with people and answers, credit', async () => {
    const cart = { id: 'cart-written', brandId: brand.id, confirmationCode: 'WRITTEN-1', at: '2026-11-24T09:00:00.000Z' };
    await same((db) => db.checkout.insertCart(cart));
    await same((db) => db.checkout.touchCart(cart.id, '2026-11-24T09:05:00.500Z'));
    expect(await same((db) => db.carts.findCartRow(cart.id))).toMatchObject({
      status: 'open',
      createdAt: '2026-11-24T09:00:00.000Z',
      updatedAt: '2026-11-24T09:05:00.500Z',
    });
    expect(await same((db) => db.checkout.confirmationCodeInUse(brand.id, 'WRITTEN-1'))).toBe(true);

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
    await same((db) => db.checkout.insertPaymentIntent(intent(1)));
    await same((db) => db.checkout.cancelOpenIntentsOfCart(cart.id, '2026-11-24T09:02:00.000Z'));
    await same((db) => db.checkout.insertPaymentIntent(intent(3)));
    expect(await same((db) => db.carts.paymentIntentsOfCart(cart.id))).toStrictEqual([
      { id: 'pi-written-3', status: 'requires_payment', createdAt: '2026-11-24T09:03:00.000Z' },
      { id: 'pi-written-1', status: 'canceled', createdAt: '2026-11-24T09:01:00.000Z' },
    ]);

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
    await same((db) => db.checkout.insertBooking(first, [person(first.id, 0), person(first.id, 1)], answersOf(first.id)));
    await same((db) => db.checkout.insertBooking(second, [person(second.id, 0)], []));

    const written = await same((db) => db.bookings.findBookingsWithContext([second.id, first.id]));
    expect(written.map((row) => row.booking)).toStrictEqual(
      [first, second].map((b) => ({ ...b, amountRefundedMinor: 0 })).sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(await same((db) => db.bookings.participantsOfBookings([first.id, second.id]))).toHaveLength(3);
    expect(await same((db) => db.bookings.answersOfBookings([first.id, second.id]))).toStrictEqual(answersOf(first.id));

    // Credit: taken while the balance covers it, refused (nothing changed) once it does not.
    const redeem = (n: number, amountMinor: number) => ({
      id: `redemption-${n}`,
      bookingId: first.id,
      creditCodeId: mixed.id,
      amountMinor,
    });
    expect(await same((db) => db.checkout.redeemCredit(redeem(1, 1_500)))).toBe(true);
    expect(await same((db) => db.checkout.redeemCredit(redeem(2, 600)))).toBe(false);
    expect(await same((db) => db.checkout.redeemCredit(redeem(3, 500)))).toBe(true);
    expect(await same((db) => db.checkout.redeemCredit({ ...redeem(4, 1), creditCodeId: 'no-such-code' }))).toBe(false);
    expect((await same((db) => db.checkout.creditCodesByCode(brand.id, ['GIFT-MIXED'])))[0]!.balanceMinor).toBe(0);
    expect(await same((db) => db.checkout.holdsOfCart(brand.id, cart.id, '2026-11-24T09:10:00.000Z'))).toStrictEqual({
      places: [{ sessionId: s1.id, count: 2 }],
      credits: [{ creditCodeId: mixed.id, amountMinor: 2_000 }],
    });
  });

  it('frees a replaced booking’s code alike, and leaves live bookings’ codes alone', async () => {
    await same((db) => db.checkout.releaseCodeOfReplacedBooking(replaced.cart.id, 'REPOST-1'));
    const [failed] = await same((db) => db.bookings.findBookingsWithContext([replaced.bookings[0]!.booking.id]));
    expect(failed!.booking.confirmationCode).toBe(`REPOST-1~${replaced.bookings[0]!.booking.id.slice(0, 8)}`);
    expect(await same((db) => db.checkout.confirmationCodeInUse(brand.id, 'REPOST-1'))).toBe(false);

    await same((db) => db.checkout.releaseCodeOfReplacedBooking(paid.cart.id, paid.booking.confirmationCode));
    expect(await same((db) => db.checkout.confirmationCodeInUse(brand.id, paid.booking.confirmationCode))).toBe(true);
  });

  it('fails lapsed holds, returns their credit and cancels intents left without holds, alike', async () => {
    const sweptAt = '2026-11-25T12:15:00.000Z';
    // The second booking confirmed meanwhile: the guard leaves it as it is.
    await same((db) => db.holds.markBookingsFailed([heldFirst!.id, paid.booking.id], sweptAt));
    expect((await same((db) => db.holds.processingBookings([heldFirst!.id, heldSecond!.id]))).map((b) => b.id)).toEqual([heldSecond!.id]);
    const [failed, untouched] = await same((db) => db.bookings.findBookingsWithContext([heldFirst!.id, paid.booking.id].sort()));
    const byId = new Map([failed!, untouched!].map((row) => [row.booking.id, row.booking]));
    expect(byId.get(heldFirst!.id)).toMatchObject({ status: 'failed', holdExpiresAt: null, updatedAt: sweptAt });
    expect(byId.get(paid.booking.id)).toMatchObject({ status: 'confirmed', updatedAt: '2026-11-20T10:00:00.000Z' });
    await same((db) => db.holds.markBookingsFailed([], sweptAt));

    await same((db) => db.holds.returnCreditRedemptions([heldFirst!.id, 'booking-written-0']));
    expect((await same((db) => db.checkout.creditCodesByCode(brand.id, ['GIFT-A', 'GIFT-MIXED']))).map((c) => c.balanceMinor)).toEqual([
      10_000, 2_000,
    ]);
    await same((db) => db.holds.returnCreditRedemptions([heldFirst!.id]));
    await same((db) => db.holds.returnCreditRedemptions([]));
    expect((await same((db) => db.checkout.creditCodesByCode(brand.id, ['GIFT-A'])))[0]!.balanceMinor).toBe(10_000);

    // The intent still pays for a processing booking: kept. Once that one fails too: canceled.
    await same((db) => db.holds.cancelIntentsWithoutHolds([held.intent.id], sweptAt));
    expect((await same((db) => db.payments.findIntentById(held.intent.id)))!.status).toBe('requires_payment');
    await same((db) => db.holds.markBookingsFailed([heldSecond!.id], '2026-11-25T12:31:00.000Z'));
    await same((db) => db.holds.cancelIntentsWithoutHolds([held.intent.id, paid.intent.id], '2026-11-25T12:31:00.000Z'));
    expect(await same((db) => db.carts.paymentIntentsOfCart(held.cart.id))).toStrictEqual([
      { id: held.intent.id, status: 'canceled', createdAt: '2026-11-20T10:00:00.000Z' },
    ]);
    expect((await same((db) => db.payments.findIntentById(paid.intent.id)))!.status).toBe('succeeded');
    await same((db) => db.holds.cancelIntentsWithoutHolds([], sweptAt));
  });

  it('settles payments alike: intent status, participants, cart, credit taken again', async () => {
    await same((db) => db.payments.setIntentStatus(held.intent.id, 'succeeded', '2026-11-25T13:00:00.000Z'));
    expect((await same((db) => db.payments.findIntentByReference('sandbox', held.reference)))!.status).toBe('succeeded');

    await same((db) => db.payments.cancelActiveParticipants(heldFirst!.id, '2026-11-25T13:00:00.000Z'));
    const people = await same((db) => db.bookings.participantsOfBookings([heldFirst!.id]));
    expect(people.map((p) => p.cancelledAt)).toEqual(['2026-11-25T13:00:00.000Z', '2026-11-25T13:00:00.000Z', '2026-11-21T10:00:00.000Z']);
    expect((await same((db) => db.payments.bookingsOfIntent(held.intent.id)))[0]!.activeParticipants).toBe(0);

    await same((db) => db.payments.markCartPaid(held.cart.id, '2026-11-25T13:00:00.000Z'));
    expect(await same((db) => db.carts.findCartRow(held.cart.id))).toMatchObject({ status: 'paid', updatedAt: '2026-11-25T13:00:00.000Z' });

    const again = (n: number, code: string, amountMinor: number, brandId = brand.id) => ({
      id: `again-${n}`,
      bookingId: heldFirst!.id,
      brandId,
      code,
      amountMinor,
    });
    expect(await same((db) => db.payments.redeemCreditAgain(again(1, 'GIFT-A', 1_500)))).toBe(true);
    expect(await same((db) => db.payments.redeemCreditAgain(again(2, 'gift-a', 1)))).toBe(false);
    expect(await same((db) => db.payments.redeemCreditAgain(again(3, 'GIFT-A', 999, other.id)))).toBe(true);
    expect(await same((db) => db.payments.redeemCreditAgain(again(4, 'GIFT-A', 1, other.id)))).toBe(false);
    expect(await same((db) => db.payments.redeemCreditAgain(again(5, 'GIFT-A', 8_501)))).toBe(false);
    expect((await same((db) => db.checkout.creditCodesByCode(brand.id, ['GIFT-A'])))[0]!.balanceMinor).toBe(8_500);
    // The redemptions are recorded: returning them gives the credit back, to each brand's own code.
    await same((db) => db.holds.returnCreditRedemptions([heldFirst!.id]));
    expect((await same((db) => db.checkout.creditCodesByCode(brand.id, ['GIFT-A'])))[0]!.balanceMinor).toBe(10_000);
    expect((await same((db) => db.checkout.creditCodesByCode(other.id, ['GIFT-A'])))[0]!.balanceMinor).toBe(999);
  });

  it('reschedules alike: moves, their records and counts', async () => {
    const before = await same((db) => db.reschedules.findReschedulable(paid.booking.id));
    expect(before).toStrictEqual({
      id: paid.booking.id,
      brandId: brand.id,
      status: 'confirmed',
      experienceId: experience.id,
      sessionId: s3.id,
      sessionStartLocal: s3.startLocal,
      activeParticipants: 1,
      reschedules: 0,
    });
    expect(await same((db) => db.reschedules.findReschedulable('no-such-booking'))).toBeUndefined();

    const moves = [
      { from: s3, to: s1, at: '2026-11-26T10:00:00.000Z' },
      { from: s1, to: s2, at: '2026-11-27T10:00:00.250Z' },
    ];
    for (const [index, move] of moves.entries()) {
      await same((db) => db.reschedules.moveBooking(paid.booking.id, { sessionId: move.to.id, startLocal: move.to.startLocal }, move.at));
      await same((db) =>
        db.reschedules.recordReschedule({
          id: `move-${index}`,
          bookingId: paid.booking.id,
          sequence: index + 1,
          fromSessionId: move.from.id,
          fromStartLocal: move.from.startLocal,
          toSessionId: move.to.id,
          toStartLocal: move.to.startLocal,
          apiKeyId: 'key-1',
          at: move.at,
        }),
      );
    }
    expect(await same((db) => db.reschedules.findReschedulable(paid.booking.id))).toMatchObject({
      sessionId: s2.id,
      sessionStartLocal: s2.startLocal,
      reschedules: 2,
    });
    const records = await same((db) => db.reschedules.reschedulesOfBookings([paid.booking.id, heldFirst!.id]));
    expect(records.map((r) => [r.sequence, r.toSessionId, r.at])).toEqual([
      [1, s1.id, '2026-11-26T10:00:00.000Z'],
      [2, s2.id, '2026-11-27T10:00:00.250Z'],
    ]);
    expect(await same((db) => db.reschedules.reschedulesOfBookings([]))).toEqual([]);
    const [moved] = await same((db) => db.bookings.findBookingsWithContext([paid.booking.id]));
    expect(moved).toMatchObject({ startLocal: s2.startLocal, booking: { sessionId: s2.id, updatedAt: '2026-11-27T10:00:00.250Z' } });
  });

  it('stores a null metadata as SQL NULL, not as the JSON null', async () => {
    const query = `SELECT id, metadata IS NULL AS "sqlNull" FROM bookings WHERE id IN ('booking-written-0', 'booking-written-1') ORDER BY id`;
    const expected = [
      { id: 'booking-written-0', sqlNull: 1 },
      { id: 'booking-written-1', sqlNull: 0 },
    ];
    expect(world.$client.prepare(query).all()).toEqual(expected);
    expect((await pools[0]!.$client.query(query)).rows).toEqual(expected.map((row) => ({ ...row, sqlNull: row.sqlNull === 1 })));
  });
});

describePostgres('checkout group guards on PostgreSQL, raced on two gateways', () => {
  const target = freshPostgresDatabase();
  const { world, brand, experience, sessions } = baseWorld();
  const [s1, s2, s3] = sessions;
  const at = '2026-11-25T12:15:00.000Z';

  // Somewhere for redemptions to point: a confirmed booking.
  const anchor = createBooking(world, { brandId: brand.id, session: s1 }).booking;
  const racedCredit = createCreditCode(world, brand.id, { code: 'RACE-CREDIT', balanceMinor: 5_000 });
  createCreditCode(world, brand.id, { code: 'RACE-AGAIN', balanceMinor: 5_000 });
  // Credit a failed booking redeemed, to be given back (once) by racing returns.
  const returnedCode = createCreditCode(world, brand.id, { code: 'RACE-RETURN', balanceMinor: 10_000 });
  const returning = createCheckout(world, {
    brandId: brand.id,
    items: [{ session: s1, status: 'failed', credit: { code: returnedCode, amountMinor: 3_000 } }],
  });
  // The only lapsed holds of this world: two bookings of one checkout, with credit, on a session of their own.
  const sweptCode = createCreditCode(world, brand.id, { code: 'RACE-SWEEP', balanceMinor: 5_000 });
  const swept = createCheckout(world, {
    brandId: brand.id,
    items: [
      { session: s2, participants: [{}, {}], credit: { code: sweptCode, amountMinor: 1_000 } },
      { session: s2, participants: [{}, {}, {}] },
    ],
  });
  // A failed booking of an earlier checkout holds the code every racer wants.
  const codeCart = createCheckout(world, {
    brandId: brand.id,
    items: [{ session: s3, status: 'failed', overrides: { confirmationCode: 'RACE-CODE' } }],
  });
  const racedIntent = createPaymentIntent(world, createCart(world, brand.id));
  const attemptsCart = createCart(world, brand.id);

  const { gateways, pools } = gatewaysOf(target, world);
  const race = <T>(n: number, unit: (i: number) => (tx: CheckoutStores) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => gateways[i % 2]!.transaction(unit(i))));
  const balanceOf = async (code: string) => (await gateways[0]!.checkout.creditCodesByCode(brand.id, [code]))[0]!.balanceMinor;
  const count = async (query: string, params: unknown[]) => ((await pools[0]!.$client.query(query, params)).rows[0] as { n: number }).n;

  it('redeems credit only while the balance covers it: 8 racing redemptions of 20.00 from 50.00, exactly 2 succeed', async () => {
    const redeem = (db: CheckoutStores) =>
      db.checkout.redeemCredit({ id: randomUUID(), bookingId: anchor.id, creditCodeId: racedCredit.id, amountMinor: 2_000 });
    // Half in units of work, half outside any (each statement on its own, at READ COMMITTED).
    const outcomes = (await Promise.all([race(4, () => redeem), ...[0, 1, 0, 1].map((g) => redeem(gateways[g]!))])).flat();
    expect(outcomes.filter(Boolean)).toHaveLength(2);
    expect(await balanceOf('RACE-CREDIT')).toBe(1_000);
    expect(await count('SELECT count(*)::int AS n FROM credit_redemptions WHERE credit_code_id = $1', [racedCredit.id])).toBe(2);
  });

  it('takes credit again by code only while it covers it: 8 racing 20.00 from 50.00, exactly 2 succeed', async () => {
    const again = (db: CheckoutStores) =>
      db.payments.redeemCreditAgain({ id: randomUUID(), bookingId: anchor.id, brandId: brand.id, code: 'RACE-AGAIN', amountMinor: 2_000 });
    const outcomes = (await Promise.all([race(4, () => again), ...[0, 1, 0, 1].map((g) => again(gateways[g]!))])).flat();
    expect(outcomes.filter(Boolean)).toHaveLength(2);
    expect(await balanceOf('RACE-AGAIN')).toBe(1_000);
    const recorded = 'SELECT count(*)::int AS n FROM credit_redemptions r JOIN credit_codes c ON c.id = r.credit_code_id WHERE c.code = $1';
    expect(await count(recorded, ['RACE-AGAIN'])).toBe(2);
  });

  it('gives redeemed credit back once, however many return it at the same time (outside a transaction too)', async () => {
    const id = returning.bookings[0]!.booking.id;
    await Promise.all([
      race(6, () => (tx) => tx.holds.returnCreditRedemptions([id])),
      ...gateways.map((g) => g.holds.returnCreditRedemptions([id])),
    ]);
    expect(await balanceOf('RACE-RETURN')).toBe(10_000);
    expect(await count('SELECT count(*)::int AS n FROM credit_redemptions WHERE booking_id = $1', [id])).toBe(0);
  });

  it('fails a lapsed hold once when 10 sweeps race: its places and credit go back once, its intent is canceled', async () => {
    const reservedBefore = (await gateways[0]!.sessions.findSessionAt(experience.id, s2.startLocal))!.reserved;
    expect(reservedBefore).toBe(5);
    const failed = await race(10, () => async (tx) => {
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
    expect((await gateways[0]!.sessions.findSessionAt(experience.id, s2.startLocal))!.reserved).toBe(0);
    expect(await balanceOf('RACE-SWEEP')).toBe(5_000);
    expect((await gateways[0]!.payments.findIntentById(swept.intent.id))!.status).toBe('canceled');
    expect(await gateways[0]!.holds.processingBookings(swept.bookings.map((b) => b.booking.id))).toEqual([]);
  });

  it('gives a confirmation code to exactly one of 10 racing checkouts, after freeing it from the replaced booking', async () => {
    const outcomes = await race(10, (i) => async (tx) => {
      await tx.checkout.releaseCodeOfReplacedBooking(codeCart.cart.id, 'RACE-CODE');
      if (await tx.checkout.confirmationCodeInUse(brand.id, 'RACE-CODE')) return false;
      await tx.checkout.insertBooking(
        newBooking(
          { id: `race-code-${i}`, brandId: brand.id, experienceId: experience.id, session: s3 },
          {
            cartId: codeCart.cart.id,
            confirmationCode: 'RACE-CODE',
            status: 'confirmed',
            holdExpiresAt: null,
            createdAt: at,
            updatedAt: at,
          },
        ),
        [],
        [],
      );
      return true;
    });
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await count(`SELECT count(*)::int AS n FROM bookings WHERE confirmation_code = 'RACE-CODE'`, [])).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM bookings WHERE confirmation_code LIKE 'RACE-CODE~%'`, [])).toBe(1);
  });

  it('gives a cart code to exactly one of 10 racing new carts', async () => {
    const outcomes = await race(10, (i) => async (tx) => {
      if (await tx.checkout.confirmationCodeInUse(brand.id, 'RACE-CART')) return false;
      await tx.checkout.insertCart({ id: `race-cart-${i}`, brandId: brand.id, confirmationCode: 'RACE-CART', at });
      return true;
    });
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it('moves an intent out of requires_payment once: racing "paid" and "replaced by a new checkout" units agree', async () => {
    const ref = racedIntent.processorReference;
    const outcomes = await race(12, (i) => async (tx) => {
      if (i % 3 === 2) {
        await tx.checkout.cancelOpenIntentsOfCart(racedIntent.cartId, at);
        return 'cancel';
      }
      const intent = await tx.payments.findIntentByReference('sandbox', ref);
      if (intent!.status !== 'requires_payment') return 'unchanged';
      await tx.payments.setIntentStatus(intent!.id, 'succeeded', at);
      return 'paid';
    });
    const paid = outcomes.filter((o) => o === 'paid').length;
    expect(paid).toBeLessThanOrEqual(1);
    expect((await gateways[0]!.payments.findIntentById(racedIntent.id))!.status).toBe(paid === 1 ? 'succeeded' : 'canceled');
  });

  it('numbers 8 racing checkouts of one cart 1 to 8 (the one that read a highest attempt another took runs again)', async () => {
    await race(8, (i) => async (tx) => {
      await tx.checkout.insertPaymentIntent({
        id: `race-attempt-${i}`,
        brandId: brand.id,
        cartId: attemptsCart.id,
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
    const attempts = await pools[0]!.$client.query('SELECT attempt FROM payment_intents WHERE cart_id = $1 ORDER BY attempt', [
      attemptsCart.id,
    ]);
    expect(attempts.rows.map((row: { attempt: number }) => row.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await gateways[0]!.carts.paymentIntentsOfCart(attemptsCart.id)).toHaveLength(8);
  });
});
