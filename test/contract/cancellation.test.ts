/**
 * The store contract of cancellation and refunds (src/domain/cancellation/store.ts): what each method
 * returns and writes, with exact values and orders. Then their guards, raced (races.ts).
 */
import { describe, expect, it } from 'vitest';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import type { CancellableBooking, RefundRow } from '../../src/domain/cancellation/store.ts';
import { freshDb } from '../support/db.ts';
import { cancellationRaces, cancellationRaceWorld } from './races.ts';

const db = await freshDb();
const { database } = db;

const noCancel = { cancel: false, participantIds: null, also: null };

const brand = await createBrand(db);
const { experience } = await createExperience(db, brand.id);
const laterSession = await createSession(db, experience, { startLocal: '2027-03-02T10:00:00', capacity: 10 });
const paid = await createPaidBooking(db, {
  brandId: brand.id,
  session: laterSession,
  participants: [{ priceMinor: 4500 }, { priceMinor: 4500 }],
});
const processing = await createBooking(db, {
  brandId: brand.id,
  session: laterSession,
  status: 'processing',
  overrides: { holdExpiresAt: '2026-11-20T10:15:00.000Z' },
});
const free = await createBooking(db, { brandId: brand.id, session: laterSession, participants: [{ priceMinor: 0 }], amountMinor: 0 });
const unpaid = await createPaidBooking(db, { brandId: brand.id, session: laterSession, intentStatus: 'requires_payment' });

// Refunds of the paid booking: two due at the same instant, whose ids sort differently by bytes ('B' < 'a')
// and by dictionary, one due earlier but written later, one the next day, one settled.
const refundAt = (id: string, at: string) =>
  database.refunds.insertPendingRefund({ id, bookingId: paid.booking.id, amountMinor: 1000, effect: noCancel, at });
await refundAt('refund-a', '2027-01-01T08:00:00.000Z');
await refundAt('refund-B', '2027-01-01T08:00:00.000Z');
await refundAt('refund-c', '2027-01-01T07:00:00.000Z');
await refundAt('refund-d', '2027-01-02T07:00:00.000Z');
await refundAt('refund-settled', '2027-01-01T06:00:00.000Z');
await database.refunds.settleRefund('refund-settled', 'succeeded', 're_1', '2027-01-01T06:05:00.000Z');
await db.update('bookings', { id: paid.booking.id }, { amountRefundedMinor: 5000 });

/** A refund of the paid booking as the store gives it, pending and untouched unless `over` says otherwise. */
const paidRefund = (id: string, at: string, over: Partial<RefundRow> = {}): RefundRow => ({
  id,
  bookingId: paid.booking.id,
  amountMinor: 1000,
  status: 'pending',
  effect: noCancel,
  attempts: 0,
  nextAttemptAt: at,
  createdAt: at,
  currency: 'EUR',
  intentReference: paid.intent.processorReference,
  ...over,
});

const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
const bookingRow = (id: string) => db.row('bookings', { id });

describe('store contract: cancellation', () => {
  it('finds bookings to cancel with their payment, pending refunds and participants, and cancellable bookings by id', async () => {
    const found: CancellableBooking = {
      id: paid.booking.id,
      brandId: brand.id,
      sessionId: laterSession.id,
      status: 'confirmed',
      currency: 'EUR',
      amountMinor: 9000,
      amountRefundedMinor: 5000,
      paymentMethod: 'credit-card',
      publishableHold: false,
      intentReference: paid.intent.processorReference,
      intentStatus: 'succeeded',
    };
    const [p1, p2] = paid.participants;
    expect(await database.cancellation.findBookingToCancel(paid.booking.id)).toStrictEqual({
      booking: found,
      pendingRefunds: 4,
      participants: [
        { id: p1!.id, cancelledAt: null },
        { id: p2!.id, cancelledAt: null },
      ],
      record: expect.objectContaining({ booking: expect.objectContaining({ id: paid.booking.id, amountRefundedMinor: 5000 }) }),
      session: expect.anything(),
    });
    // Its session as a read of sessions by id shows it (the session, and its experience's waitlist).
    const [sessionRead] = await database.sessions.findSessionsByIds([laterSession.id]);
    expect((await database.cancellation.findBookingToCancel(paid.booking.id))!.session).toStrictEqual({
      session: sessionRead!.session,
      waitlistId: sessionRead!.waitlistId,
    });
    // Free, or paid outside Tessera: no intent.
    const freeFound: CancellableBooking = {
      ...found,
      id: free.booking.id,
      amountMinor: 0,
      amountRefundedMinor: 0,
      intentReference: null,
      intentStatus: null,
    };
    expect(await database.cancellation.findBookingToCancel(free.booking.id)).toMatchObject({ booking: freeFound, pendingRefunds: 0 });
    expect((await database.cancellation.findBookingToCancel(paid.booking.id))!.record).toStrictEqual(
      (await database.bookings.findBookingRecords([paid.booking.id]))[0],
    );
    expect(await database.cancellation.findBookingToCancel('no-such-booking')).toBeUndefined();
    const unpaidFound: CancellableBooking = {
      ...found,
      id: unpaid.booking.id,
      amountMinor: 4500,
      amountRefundedMinor: 0,
      intentReference: unpaid.intent.processorReference,
      intentStatus: 'requires_payment',
    };
    expect((await database.cancellation.findBookingToCancel(unpaid.booking.id))!.booking).toStrictEqual(unpaidFound);

    const processingFound: CancellableBooking = {
      ...freeFound,
      id: processing.booking.id,
      status: 'processing',
      amountMinor: 4500,
    };
    const many = await database.cancellation.findCancellableBookings([
      paid.booking.id,
      free.booking.id,
      'no-such-booking',
      processing.booking.id,
    ]);
    expect(many).toStrictEqual(
      new Map([
        [paid.booking.id, found],
        [free.booking.id, freeFound],
        [processing.booking.id, processingFound],
      ]),
    );
    expect([...many.keys()].sort()).toStrictEqual([paid.booking.id, free.booking.id, processing.booking.id].sort());
    expect(await database.cancellation.findCancellableBookings([])).toStrictEqual(new Map());
  });

  it('reads and cancels participants once, keeping the first cancellation time', async () => {
    const [p1, p2] = paid.participants;
    const participantStates = async (id: string) => (await database.cancellation.findBookingToCancel(id))?.participants;
    // In position order.
    expect(await participantStates(paid.booking.id)).toStrictEqual([
      { id: p1!.id, cancelledAt: null },
      { id: p2!.id, cancelledAt: null },
    ]);
    await database.cancellation.cancelParticipants(paid.booking.id, [p1!.id], null, '2027-01-03T10:00:00.000Z');
    expect(await bookingRow(paid.booking.id)).toMatchObject({ status: 'confirmed', updatedAt: '2027-01-03T10:00:00.000Z' });
    // Another booking's participant is left alone.
    const [elsewhere] = free.participants;
    await database.cancellation.cancelParticipants(paid.booking.id, [p1!.id, p2!.id, elsewhere!.id], null, '2027-01-03T11:00:00.000Z');
    await database.cancellation.cancelParticipants(paid.booking.id, [], null, '2027-01-03T12:00:00.000Z');
    expect(await participantStates(paid.booking.id)).toStrictEqual([
      { id: p1!.id, cancelledAt: '2027-01-03T10:00:00.000Z' },
      { id: p2!.id, cancelledAt: '2027-01-03T11:00:00.000Z' },
    ]);
    expect((await participantStates(free.booking.id))![0]).toStrictEqual({ id: elsewhere!.id, cancelledAt: null });
    expect(await bookingRow(paid.booking.id)).toMatchObject({ status: 'confirmed', updatedAt: '2027-01-03T11:00:00.000Z' });
    expect(await participantStates('no-such-booking')).toBeUndefined();
  });

  it('lists participants by position, not by the order they were written', async () => {
    const booking = await createBooking(db, { brandId: brand.id, session: laterSession, participants: [{}, {}, {}] });
    const [first, middle, last] = booking.participants;
    await db.update('participants', { id: first!.id }, { position: 9 });
    await db.update('participants', { id: last!.id }, { position: 0 });
    expect((await database.cancellation.findBookingToCancel(booking.booking.id))!.participants).toStrictEqual([
      { id: last!.id, cancelledAt: null },
      { id: middle!.id, cancelledAt: null },
      { id: first!.id, cancelledAt: null },
    ]);
  });

  it('sets a status, keeping the hold only while processing, and touches bookings', async () => {
    await database.cancellation.setBookingStatus(processing.booking.id, 'processing', '2027-01-03T10:00:00.000Z');
    expect(await database.waitlists.findBookingHold(processing.booking.id)).toStrictEqual({
      cartId: null,
      status: 'processing',
      holdExpiresAt: '2026-11-20T10:15:00.000Z',
    });
    expect((await bookingRow(processing.booking.id)).updatedAt).toBe('2027-01-03T10:00:00.000Z');
    await database.cancellation.setBookingStatus(processing.booking.id, 'failed', '2027-01-03T10:01:00.000Z');
    expect(await database.waitlists.findBookingHold(processing.booking.id)).toStrictEqual({
      cartId: null,
      status: 'failed',
      holdExpiresAt: null,
    });
    expect((await bookingRow(processing.booking.id)).updatedAt).toBe('2027-01-03T10:01:00.000Z');
    expect(await database.waitlists.findBookingHold(paid.booking.id)).toStrictEqual({
      cartId: paid.cart.id,
      status: 'confirmed',
      holdExpiresAt: null,
    });
    expect(await database.waitlists.findBookingHold('no-such-booking')).toBeUndefined();

    // Cancelling participants with a status sets it, with the hold cleared (and with none, only the status).
    const [first] = processing.participants;
    await database.cancellation.cancelParticipants(processing.booking.id, [first!.id], 'cancelled', '2027-01-03T10:02:00.000Z');
    expect(await database.waitlists.findBookingHold(processing.booking.id)).toMatchObject({ status: 'cancelled', holdExpiresAt: null });
    expect((await database.cancellation.findBookingToCancel(processing.booking.id))!.participants[0]).toStrictEqual({
      id: first!.id,
      cancelledAt: '2027-01-03T10:02:00.000Z',
    });
    const own = await createBooking(db, { brandId: brand.id, session: laterSession, participants: [{}] });
    await database.cancellation.cancelParticipants(own.booking.id, [], 'refunded', '2027-01-03T10:03:00.000Z');
    expect(await bookingRow(own.booking.id)).toMatchObject({ status: 'refunded', updatedAt: '2027-01-03T10:03:00.000Z' });
  });

  it('reserves refund amounts only within the booking amount, and releases them', async () => {
    // 5000 of 9000 refunded.
    expect(await database.cancellation.reserveRefundAmount(paid.booking.id, 3000, '2027-01-03T10:00:00.000Z')).toBe(true);
    expect(await database.cancellation.reserveRefundAmount(paid.booking.id, 1001, '2027-01-03T10:01:00.000Z')).toBe(false);
    expect(await bookingRow(paid.booking.id)).toMatchObject({ amountRefundedMinor: 8000, updatedAt: '2027-01-03T10:00:00.000Z' });
    expect(await database.cancellation.reserveRefundAmount(paid.booking.id, 1000, '2027-01-03T10:02:00.000Z')).toBe(true);
    expect(await database.cancellation.reserveRefundAmount('no-such-booking', 1, '2027-01-03T10:02:00.000Z')).toBe(false);
    const freeUpdatedAt = (await bookingRow(free.booking.id)).updatedAt;
    expect(await database.cancellation.reserveRefundAmount(free.booking.id, 1, '2027-01-03T10:02:00.000Z')).toBe(false);
    await database.cancellation.releaseRefundAmount(paid.booking.id, 2500, '2027-01-03T10:03:00.000Z');
    expect((await database.cancellation.findBookingToCancel(paid.booking.id))!.booking).toMatchObject({ amountRefundedMinor: 6500 });
    expect(await bookingRow(paid.booking.id)).toMatchObject({ amountRefundedMinor: 6500, updatedAt: '2027-01-03T10:03:00.000Z' });
    expect(await bookingRow(free.booking.id)).toMatchObject({ amountRefundedMinor: 0, updatedAt: freeUpdatedAt });
    // refund-a, -B, -c and -d: the settled one is not pending.
    expect((await database.cancellation.findBookingToCancel(paid.booking.id))!.pendingRefunds).toBe(4);
    expect((await database.cancellation.findBookingToCancel(free.booking.id))!.pendingRefunds).toBe(0);
  });

  it('reserves a refund with its pending row only within the booking amount, nothing written otherwise', async () => {
    const booked = await createBooking(db, { brandId: brand.id, session: laterSession, participants: [{}], amountMinor: 5000 });
    const effect = { cancel: true, participantIds: null, also: null };
    const refund = (id: string, amountMinor: number, at: string) =>
      database.cancellation.reservePendingRefund({ id, bookingId: booked.booking.id, amountMinor, effect, at });
    const amount = 5000;
    expect(await refund('refund-r1', amount - 1, '2027-01-03T10:00:00.000Z')).toBe(true);
    expect(await refund('refund-r2', 2, '2027-01-03T10:01:00.000Z')).toBe(false);
    expect(await database.refunds.findRefund('refund-r2')).toBeUndefined();
    expect(await bookingRow(booked.booking.id)).toMatchObject({ amountRefundedMinor: amount - 1, updatedAt: '2027-01-03T10:00:00.000Z' });
    expect(await database.refunds.findRefund('refund-r1')).toMatchObject({
      id: 'refund-r1',
      bookingId: booked.booking.id,
      amountMinor: amount - 1,
      status: 'pending',
      effect,
      attempts: 0,
      nextAttemptAt: '2027-01-03T10:00:00.000Z',
      createdAt: '2027-01-03T10:00:00.000Z',
    });
    expect((await database.cancellation.findBookingToCancel(booked.booking.id))!.pendingRefunds).toBe(1);
    expect(
      await database.cancellation.reservePendingRefund({
        id: 'refund-r3',
        bookingId: 'no-such-booking',
        amountMinor: 1,
        effect,
        at: '2027-01-03T10:02:00.000Z',
      }),
    ).toBe(false);
    expect(await database.refunds.findRefund('refund-r3')).toBeUndefined();
    // Settled, so the refunds' own contract below sees only its pending ones.
    expect(await database.refunds.settleRefund('refund-r1', 'failed', null, '2027-01-03T10:03:00.000Z')).toBe(true);
  });
});

describe('store contract: refunds', () => {
  it('reads refunds, due and pending, oldest first and ties by id bytes', async () => {
    expect(await database.refunds.findRefund('refund-a')).toStrictEqual({
      id: 'refund-a',
      bookingId: paid.booking.id,
      amountMinor: 1000,
      status: 'pending',
      effect: { cancel: false, participantIds: null, also: null },
      attempts: 0,
      nextAttemptAt: '2027-01-01T08:00:00.000Z',
      createdAt: '2027-01-01T08:00:00.000Z',
      currency: 'EUR',
      intentReference: paid.intent.processorReference,
    });
    expect(await database.refunds.findRefund('refund-settled')).toStrictEqual(
      paidRefund('refund-settled', '2027-01-01T06:00:00.000Z', { status: 'succeeded', attempts: 1, nextAttemptAt: null }),
    );
    expect(await database.refunds.findRefund('no-such-refund')).toBeUndefined();

    const [a, B, c, d] = [
      paidRefund('refund-a', '2027-01-01T08:00:00.000Z'),
      paidRefund('refund-B', '2027-01-01T08:00:00.000Z'),
      paidRefund('refund-c', '2027-01-01T07:00:00.000Z'),
      paidRefund('refund-d', '2027-01-02T07:00:00.000Z'),
    ];
    expect(await database.refunds.dueRefunds('2027-01-01T08:00:00.000Z', '2027-12-31T00:00:00.000Z', 10)).toStrictEqual([c, B, a]);
    expect(await database.refunds.dueRefunds('2027-01-03T00:00:00.000Z', '2027-12-31T00:00:00.000Z', 2)).toStrictEqual([c, B]);
    expect(await database.refunds.dueRefunds('2027-01-03T00:00:00.000Z', '2027-01-01T07:59:59.999Z', 10)).toStrictEqual([c]);
    expect(await database.refunds.dueRefunds('2026-12-31T00:00:00.000Z', '2027-12-31T00:00:00.000Z', 10)).toStrictEqual([]);
    expect(await database.refunds.pendingRefunds('2027-01-01T08:00:00.000Z')).toStrictEqual([c, B, a]);
    expect(await database.refunds.pendingRefunds('2027-01-01T07:59:59.999Z')).toStrictEqual([c]);
    expect(await database.refunds.pendingRefunds('2030-01-01T00:00:00.000Z')).toStrictEqual([c, B, a, d]);

    // Claimed: leased until the time given, in the order they were due, and due no more.
    const [now, createdBy, until] = ['2027-01-03T00:00:00.000Z', '2027-12-31T00:00:00.000Z', '2027-01-03T00:05:00.000Z'];
    expect(ids(await database.refunds.dueRefunds(now, createdBy, 10))).toStrictEqual(['refund-c', 'refund-B', 'refund-a', 'refund-d']);
    expect(await database.refunds.claimDueRefunds(now, createdBy, 2, until)).toStrictEqual([
      { ...c, nextAttemptAt: until },
      { ...B, nextAttemptAt: until },
    ]);
    expect(await database.refunds.findRefund('refund-c')).toStrictEqual({ ...c, nextAttemptAt: until });
    expect(await database.refunds.dueRefunds(now, createdBy, 10)).toStrictEqual([a, d]);
    expect(await database.refunds.claimDueRefunds('2026-12-31T00:00:00.000Z', createdBy, 2, until)).toStrictEqual([]);
    // Due again once the lease ends, after those due before it.
    expect(ids(await database.refunds.dueRefunds(until, createdBy, 10))).toStrictEqual(['refund-a', 'refund-d', 'refund-B', 'refund-c']);
  });

  it('inserts, leases, records unanswered attempts and settles refunds once', async () => {
    const newEffect = {
      cancel: false,
      participantIds: [paid.participants[0]!.id],
      also: { kind: 'settle-cart' as const, intentId: paid.intent.id },
    };
    await database.refunds.insertPendingRefund({
      id: 'refund-new',
      bookingId: paid.booking.id,
      amountMinor: 700,
      effect: newEffect,
      at: '2027-01-04T09:00:00.000Z',
    });
    const inserted = paidRefund('refund-new', '2027-01-04T09:00:00.000Z', { amountMinor: 700, effect: newEffect });
    expect(await database.refunds.findRefund('refund-new')).toStrictEqual(inserted);

    expect(await database.refunds.leaseRefund('refund-new', '2027-01-04T09:00:00.000Z', '2027-01-04T09:05:00.000Z')).toBe(true);
    expect(await database.refunds.leaseRefund('refund-new', '2027-01-04T09:00:00.000Z', '2027-01-04T09:06:00.000Z')).toBe(false);
    await database.refunds.recordUnansweredAttempt('refund-new', { error: 'Error: timed out', at: '2027-01-04T09:01:00.000Z' });
    expect(await database.refunds.findRefund('refund-new')).toStrictEqual({
      ...inserted,
      attempts: 1,
      nextAttemptAt: '2027-01-04T09:05:00.000Z',
    });
    expect(await db.row('refunds', { id: 'refund-new' })).toMatchObject({
      lastError: 'Error: timed out',
      updatedAt: '2027-01-04T09:01:00.000Z',
    });
    await database.refunds.recordUnansweredAttempt('refund-new', {
      error: 'Error: reset',
      nextAttemptAt: '2027-01-04T10:00:00.000Z',
      at: '2027-01-04T09:02:00.000Z',
    });
    expect(await database.refunds.findRefund('refund-new')).toStrictEqual({
      ...inserted,
      attempts: 2,
      nextAttemptAt: '2027-01-04T10:00:00.000Z',
    });

    expect(await database.refunds.settleRefund('refund-new', 'succeeded', 're_new', '2027-01-04T10:01:00.000Z')).toBe(true);
    expect(await database.refunds.settleRefund('refund-new', 'failed', null, '2027-01-04T10:02:00.000Z')).toBe(false);
    expect(await database.refunds.leaseRefund('refund-new', '2027-01-04T10:00:00.000Z', '2027-01-04T11:00:00.000Z')).toBe(false);
    // Settled: a late unanswered attempt changes nothing.
    await database.refunds.recordUnansweredAttempt('refund-new', { error: 'late', at: '2027-01-04T10:03:00.000Z' });
    expect(await database.refunds.findRefund('refund-new')).toStrictEqual({
      ...inserted,
      status: 'succeeded',
      attempts: 3,
      nextAttemptAt: null,
    });
    expect(await db.row('refunds', { id: 'refund-new' })).toMatchObject({
      status: 'succeeded',
      processorReference: 're_new',
      lastError: 'Error: reset',
      updatedAt: '2027-01-04T10:01:00.000Z',
    });
    expect(await database.refunds.settleRefund('refund-d', 'failed', null, '2027-01-04T10:04:00.000Z')).toBe(true);
    expect(await database.refunds.findRefund('refund-d')).toStrictEqual(
      paidRefund('refund-d', '2027-01-02T07:00:00.000Z', { status: 'failed', attempts: 1, nextAttemptAt: null }),
    );
    expect(await db.row('refunds', { id: 'refund-d' })).toMatchObject({ processorReference: null, updatedAt: '2027-01-04T10:04:00.000Z' });
  });
});

// The guards, in a database of their own: what they race for is all there is.
const racingDb = await freshDb();
const racing = await cancellationRaceWorld(racingDb);

describe('store contract: cancellation and refunds, raced', () => {
  cancellationRaces(() => ({ db: racingDb, gateways: [racingDb.database], w: racing }));
});
