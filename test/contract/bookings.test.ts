/**
 * The bookings, carts and reschedules stores (src/domain/bookings/store.ts) as a contract: a booking
 * with its context, participants and answers; the back-office list, paged newest first and counted; a
 * cart with its intents and bookings; the moves of a booking. Exact values and orders, on worlds where
 * the order is not the order rows were written in.
 */
import { describe, expect, it } from 'vitest';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createCart, createPaymentIntent } from '../../fixtures/factories/carts.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../fixtures/factories/checkout.ts';
import { createCheckout } from '../../fixtures/factories/checkouts.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import type { AnswerRow, BookingFilter, BookingKey, BookingRow, RescheduleRecord } from '../../src/domain/bookings/store.ts';
import { freshDb } from '../support/db.ts';

/** Text in byte order (ids here are ASCII, where JavaScript's comparison is the bytes'). */
const inByteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A booking as stored: what a factory wrote, the columns it left out at their defaults. */
const stored = (row: Partial<BookingRow>, extra: Partial<BookingRow> = {}): BookingRow =>
  ({
    cartId: null,
    paymentIntentId: null,
    cartConfirmationCode: null,
    cartPosition: 0,
    amountRefundedMinor: 0,
    amountDueMinor: 0,
    chargedTo: null,
    notes: null,
    internalNotes: null,
    metadata: null,
    holdExpiresAt: null,
    publishableHold: false,
    ...row,
    ...extra,
  }) as BookingRow;

const db = await freshDb();
const { database } = db;

const brand = await createBrand(db);
const other = await createBrand(db);
const { experience } = await createExperience(db, brand.id);
const session = (day: number) => createSession(db, experience, { startLocal: `2026-12-0${day}T09:00:00`, capacity: 10 });
const [s1, s2, s3] = [await session(1), await session(2), await session(3)];
const gift = await createCreditCode(db, brand.id, { code: 'GIFT-A', balanceMinor: 10_000 });

// A checkout awaiting payment, of two items.
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
const [heldFirst, heldSecond] = held.bookings;
// A failed booking of an earlier checkout of another cart.
const replaced = await createCheckout(db, { brandId: brand.id, items: [{ session: s2, status: 'failed' }] });
const paid = await createPaidBooking(db, {
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
const listedBookings: Array<Awaited<ReturnType<typeof createBooking>>['booking']> = [];
for (const [createdAt, status, on] of listed) {
  listedBookings.push(
    (await createBooking(db, { brandId: brand.id, session: on, status, overrides: { createdAt, updatedAt: createdAt } })).booking,
  );
}
const elsewhere = (await createBooking(db, { brandId: other.id, session: s1, overrides: { createdAt: '2026-10-02T08:00:00.000Z' } }))
  .booking;

/** Every booking of the world, as the back-office list filters and orders them. */
const everyBooking = [heldFirst!.booking, heldSecond!.booking, replaced.bookings[0]!.booking, paid.booking, ...listedBookings, elsewhere];

/** Newest first, equal creation times by id, descending. */
const newestFirst = (a: BookingKey, b: BookingKey) =>
  a.createdAt === b.createdAt ? inByteOrder(b.id, a.id) : a.createdAt < b.createdAt ? 1 : -1;
const olderThan = (key: BookingKey, after: BookingKey) =>
  key.createdAt < after.createdAt || (key.createdAt === after.createdAt && key.id < after.id);
const matching = (filter: BookingFilter) =>
  everyBooking
    .filter(
      (b) =>
        b.brandId === filter.brandId &&
        (!filter.status || b.status === filter.status) &&
        (!filter.startFrom || b.sessionStartLocal >= filter.startFrom) &&
        (!filter.startBefore || b.sessionStartLocal < filter.startBefore),
    )
    .map((b) => ({ id: b.id, createdAt: b.createdAt }))
    .sort(newestFirst);

describe('store contract: bookings, carts and reschedules', () => {
  it('reads the bookings that exist by id in byte order, each with its context, participants by position and answers', async () => {
    const ids = [paid.booking.id, heldFirst!.booking.id, heldSecond!.booking.id, 'no-such-booking'];
    const found = await database.bookings.findBookingRecords(ids);
    const inCart = { cartId: held.cart.id, cartConfirmationCode: held.cart.confirmationCode, paymentIntentId: held.intent.id };
    const context = (on: { startLocal: string }) => ({
      experienceTitle: 'Sunset Sail',
      timezone: 'Europe/Lisbon',
      startLocal: on.startLocal,
    });
    const people = (made: NonNullable<typeof heldFirst>) => ({
      participants: made.participants.map((p) => ({ ...p, bookingId: made.booking.id })).sort((a, b) => a.position - b.position),
      answers: [],
    });
    expect(found).toStrictEqual(
      [
        {
          booking: stored(paid.booking, {
            paymentIntentId: paid.intent.id,
            metadata: { channel: 'kiosk', tags: ['vip'], nested: { a: 2, b: 1 } },
            notes: 'Window seat',
          }),
          ...context(s3),
          ...people(paid),
        },
        {
          booking: stored(heldFirst!.booking, {
            ...inCart,
            pricing: {
              tiersMinor: 15_000,
              addOns: [],
              subtotalMinor: 15_000,
              discounts: [{ kind: 'credit', code: 'GIFT-A', amountMinor: 1_500 }],
              netMinor: 13_500,
              taxes: [],
              totalMinor: 13_500,
            },
          }),
          ...context(s1),
          ...people(heldFirst!),
        },
        { booking: stored(heldSecond!.booking, { ...inCart, cartPosition: 1 }), ...context(s2), ...people(heldSecond!) },
      ].sort((a, b) => inByteOrder(a.booking.id, b.booking.id)),
    );
    expect(found.find((row) => row.booking.id === paid.booking.id)!.booking).toMatchObject({
      status: 'confirmed',
      amountMinor: 5_000,
      createdAt: '2026-11-20T10:00:00.000Z',
      holdExpiresAt: null,
    });
    expect(found.find((row) => row.booking.id === heldFirst!.booking.id)!.booking.holdExpiresAt).toBe('2026-11-25T12:00:00.000Z');
    expect(
      found.find((row) => row.booking.id === paid.booking.id)!.participants.map((p) => [p.position, p.priceMinor, p.cancelledAt]),
    ).toEqual([
      [0, 3_000, null],
      [1, 2_000, '2026-11-22T08:00:00.000Z'],
    ]);
    expect(await database.bookings.findBookingRecords([])).toEqual([]);
    expect(await database.bookings.findBookingRecords(['no-such-booking'])).toEqual([]);
  });

  it("reads each booking's answers by position, with their JSON as written", async () => {
    const question = {
      customQuestionId: 'q-1',
      prompt: 'Any allergies?',
      fieldType: 'input' as const,
      options: null,
      termsAndConditions: null,
      config: {
        experienceId: experience.id,
        experienceQuestionId: 'eq-1',
        isRequired: false,
        isActive: true,
        order: 0,
        scope: 'purchaser' as const,
        conditions: null,
        conditionsMatchType: null,
      },
    };
    const answer = (bookingId: string, position: number): AnswerRow => ({
      id: `answer-${bookingId}-${position}`,
      bookingId,
      participantId: null,
      question,
      answer: [{ value: `answer ${position}`, key: null }],
      position,
    });
    // Written out of order: the greatest booking id first, positions backwards.
    const [lower, greater] = [heldSecond!.booking.id, paid.booking.id].sort(inByteOrder);
    const rows = [answer(greater!, 0), answer(lower!, 2), answer(lower!, 0), answer(lower!, 1)];
    await db.insert('answers', rows);
    const answersOf = async (ids: string[]) => (await database.bookings.findBookingRecords(ids)).map((record) => record.answers);
    expect(await answersOf([greater!, lower!])).toStrictEqual([[rows[2], rows[3], rows[1]], [rows[0]]]);
    expect(await answersOf([lower!])).toStrictEqual([[rows[2], rows[3], rows[1]]]);
    await db.delete('answers', { bookingId: lower! });
    await db.delete('answers', { bookingId: greater! });
  });

  it('pages and counts the back office list, newest first with ties by id, descending', async () => {
    const all = matching({ brandId: brand.id });
    expect(all).toHaveLength(9);
    expect(await database.bookings.findBookingPage({ brandId: brand.id }, null, 100)).toStrictEqual(all);

    const paged: BookingKey[] = [];
    let after: BookingKey | null = null;
    for (;;) {
      const cursor: BookingKey | null = after;
      const page: BookingKey[] = await database.bookings.findBookingPage({ brandId: brand.id }, cursor, 3);
      expect(page).toStrictEqual(all.slice(paged.length, paged.length + 3));
      expect(await database.bookings.countBookings({ brandId: brand.id }, cursor)).toStrictEqual({ total: 9, before: paged.length });
      if (page.length === 0) break;
      paged.push(...page);
      after = page[page.length - 1]!;
    }
    expect(paged).toStrictEqual(all);

    const filters: BookingFilter[] = [
      { brandId: brand.id, status: 'confirmed' },
      { brandId: brand.id, startFrom: '2026-12-02T00:00:00', startBefore: '2026-12-03T00:00:00' },
      { brandId: brand.id, status: null, startFrom: null, startBefore: '2026-12-02T09:00:00' },
      { brandId: brand.id, startFrom: '2026-12-02T09:00:00' },
      { brandId: other.id },
      { brandId: 'no-such-brand' },
    ];
    const sizes = [];
    for (const filter of filters) {
      const expected = matching(filter);
      sizes.push(expected.length);
      const page = await database.bookings.findBookingPage(filter, null, 2);
      expect(page).toStrictEqual(expected.slice(0, 2));
      expect(await database.bookings.countBookings(filter, null)).toStrictEqual({ total: expected.length, before: 0 });
      if (page[0]) expect(await database.bookings.countBookings(filter, page[0])).toStrictEqual({ total: expected.length, before: 1 });
      const second = page[1];
      if (second) {
        expect(await database.bookings.findBookingPage(filter, second, 10)).toStrictEqual(expected.slice(2));
        expect(await database.bookings.countBookings(filter, second)).toStrictEqual({ total: expected.length, before: 2 });
      }
    }
    expect(sizes).toEqual([4, 4, 3, 6, 1, 0]);
    // A key between two bookings of the same instant: those with a lower id come after it, the rest before.
    const ties = all.filter((k) => k.createdAt === '2026-10-02T08:00:00.000Z');
    expect(ties).toHaveLength(3);
    const between = { createdAt: ties[1]!.createdAt, id: `${ties[1]!.id}0` };
    const older = all.filter((k) => olderThan(k, between));
    expect(older[0]).toBe(ties[1]);
    expect(await database.bookings.findBookingPage({ brandId: brand.id }, between, 2)).toStrictEqual(older.slice(0, 2));
    expect(await database.bookings.countBookings({ brandId: brand.id }, between)).toStrictEqual({ total: 9, before: 9 - older.length });
    expect(9 - older.length).toBe(all.indexOf(ties[1]!));
  });

  it('reads a cart, and its checkouts: intents (latest first) and bookings (checkouts in creation order, items in order)', async () => {
    expect(await database.carts.findCartRow(paid.cart.id)).toStrictEqual({
      id: paid.cart.id,
      brandId: brand.id,
      confirmationCode: paid.cart.confirmationCode,
      status: 'paid',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
      holdKeyKind: null,
      holdClient: null,
    });
    expect(await database.carts.findCartRow('no-such-cart')).toBeUndefined();
    expect((await database.carts.checkoutsOfCart(held.cart.id)).intents).toStrictEqual([
      { id: held.intent.id, status: 'requires_payment', createdAt: '2026-11-20T10:00:00.000Z' },
    ]);
    expect((await database.carts.checkoutsOfCart(held.cart.id)).bookings).toStrictEqual([
      { id: heldFirst!.booking.id, paymentIntentId: held.intent.id, amountMinor: 13_500 },
      { id: heldSecond!.booking.id, paymentIntentId: held.intent.id, amountMinor: 4_500 },
    ]);
    expect((await database.carts.checkoutsOfCart('no-such-cart')).bookings).toEqual([]);
    expect((await database.carts.checkoutsOfCart('no-such-cart')).intents).toEqual([]);

    // Two checkouts of one cart: the first's items written last item first, the second after both.
    const cart = await createCart(db, brand.id);
    const first = await createPaymentIntent(db, cart, { status: 'canceled', createdAt: '2026-11-21T09:00:00.000Z' });
    const second = await createPaymentIntent(db, cart, { createdAt: '2026-11-21T09:30:00.000Z' });
    const item = async (intent: { id: string }, cartPosition: number, createdAt: string, amountMinor: number) =>
      (
        await createBooking(db, {
          brandId: brand.id,
          session: s1,
          status: intent === first ? 'failed' : 'processing',
          amountMinor,
          overrides: { cartId: cart.id, paymentIntentId: intent.id, cartPosition, createdAt, updatedAt: createdAt },
        })
      ).booking.id;
    const firstSecondItem = await item(first, 1, '2026-11-21T09:00:00.000Z', 200);
    const firstFirstItem = await item(first, 0, '2026-11-21T09:00:00.000Z', 100);
    const secondFirstItem = await item(second, 0, '2026-11-21T09:30:00.000Z', 300);
    expect((await database.carts.checkoutsOfCart(cart.id)).bookings).toStrictEqual([
      { id: firstFirstItem, paymentIntentId: first.id, amountMinor: 100 },
      { id: firstSecondItem, paymentIntentId: first.id, amountMinor: 200 },
      { id: secondFirstItem, paymentIntentId: second.id, amountMinor: 300 },
    ]);
    expect((await database.carts.checkoutsOfCart(cart.id)).intents).toStrictEqual([
      { id: second.id, status: 'requires_payment', createdAt: '2026-11-21T09:30:00.000Z' },
      { id: first.id, status: 'canceled', createdAt: '2026-11-21T09:00:00.000Z' },
    ]);
  });

  it('reschedules: moves, their records (by booking id, then sequence) and counts', async () => {
    expect(await database.reschedules.findReschedulable(paid.booking.id)).toStrictEqual({
      id: paid.booking.id,
      brandId: brand.id,
      status: 'confirmed',
      experienceId: experience.id,
      sessionId: s3.id,
      sessionStartLocal: s3.startLocal,
      publishableHold: false,
      paymentMethod: 'credit-card',
      activeParticipants: 1,
      reschedules: 0,
    });
    expect(await database.reschedules.findReschedulable('no-such-booking')).toBeUndefined();

    const moves = [
      { from: s3, to: s1, at: '2026-11-26T10:00:00.000Z' },
      { from: s1, to: s2, at: '2026-11-27T10:00:00.250Z' },
    ];
    const records: RescheduleRecord[] = [];
    for (const [index, move] of moves.entries()) {
      await database.reschedules.moveBooking(paid.booking.id, { sessionId: move.to.id, startLocal: move.to.startLocal }, move.at);
      const record = {
        id: `move-${index}`,
        bookingId: paid.booking.id,
        sequence: index + 1,
        fromSessionId: move.from.id,
        fromStartLocal: move.from.startLocal,
        toSessionId: move.to.id,
        toStartLocal: move.to.startLocal,
        apiKeyId: 'key-1',
        at: move.at,
      };
      await database.reschedules.recordReschedule(record);
      records.push(record);
    }
    expect(await database.reschedules.findReschedulable(paid.booking.id)).toStrictEqual({
      id: paid.booking.id,
      brandId: brand.id,
      status: 'confirmed',
      experienceId: experience.id,
      sessionId: s2.id,
      sessionStartLocal: s2.startLocal,
      publishableHold: false,
      paymentMethod: 'credit-card',
      activeParticipants: 1,
      reschedules: 2,
    });
    expect(await database.reschedules.reschedulesOfBookings([paid.booking.id, heldFirst!.booking.id])).toStrictEqual(records);

    // Another booking's moves, recorded between and backwards: each booking's in sequence, bookings by id.
    const another = listedBookings[0]!;
    const otherMove = (sequence: number) => ({
      ...records[0]!,
      id: `other-move-${sequence}`,
      bookingId: another.id,
      sequence,
      at: `2026-11-2${sequence}T08:00:00.000Z`,
    });
    await database.reschedules.recordReschedule(otherMove(2));
    await database.reschedules.recordReschedule(otherMove(1));
    const bothIds = [another.id, paid.booking.id];
    const anotherMoves = [otherMove(1), otherMove(2)];
    expect(await database.reschedules.reschedulesOfBookings(bothIds)).toStrictEqual(
      inByteOrder(another.id, paid.booking.id) < 0 ? [...anotherMoves, ...records] : [...records, ...anotherMoves],
    );
    expect(await database.reschedules.reschedulesOfBookings([])).toEqual([]);

    const [moved] = await database.bookings.findBookingRecords([paid.booking.id]);
    expect(moved).toMatchObject({ startLocal: s2.startLocal, booking: { sessionId: s2.id, updatedAt: '2026-11-27T10:00:00.250Z' } });
    expect(moved!.booking.sessionStartLocal).toBe(s2.startLocal);
  });

  it("reschedules: a move clears publishableHold (places a publishable key left unpaid, now the brand's)", async () => {
    const { booking } = await createBooking(db, {
      brandId: brand.id,
      session: s1,
      status: 'confirmed',
      overrides: { paymentMethod: 'pay-upon-arrival', amountDueMinor: 4_550, publishableHold: true },
    });
    expect(await database.reschedules.findReschedulable(booking.id)).toMatchObject({
      publishableHold: true,
      paymentMethod: 'pay-upon-arrival',
    });
    await database.reschedules.moveBooking(booking.id, { sessionId: s3.id, startLocal: s3.startLocal }, '2026-11-28T10:00:00.000Z');
    expect(await database.reschedules.findReschedulable(booking.id)).toMatchObject({ sessionId: s3.id, publishableHold: false });
  });
});
