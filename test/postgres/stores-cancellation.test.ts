/**
 * The cancellation, refunds, waitlists and events stores on PostgreSQL. One world is built with the
 * SQLite factories and copied into two PostgreSQL databases. On the first, every method runs side by
 * side with the SQLite port over the same world (writes on both sides) and must answer exactly the same:
 * instants, number types, order, null against undefined. On the second, each guard is raced by
 * concurrent units of work on two gateways, and events are shown to commit in sequence order.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { createWaitlistEntry } from '../../fixtures/factories/waitlists.ts';
import { createWebhookEndpoint } from '../../fixtures/factories/webhooks.ts';
import type { Stores } from '../../src/domain/shared/database.ts';
import type { EventRow } from '../../src/domain/outbox/store.ts';
import type { WaitlistEntryStatus } from '../../src/domain/waitlists/store.ts';
import { migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { postgresDatabase, type DatabaseOf } from '../../src/db/postgres/database.ts';
import * as pgSchema from '../../src/db/postgres/schema/index.ts';
import type { PostgresStores } from '../../src/db/postgres/store-binding.ts';
import { capacityStore } from '../../src/db/postgres/stores/availability/capacity.ts';
import { sessionsStore } from '../../src/db/postgres/stores/availability/sessions.ts';
import { cancellationStore } from '../../src/db/postgres/stores/cancellation/cancellation.ts';
import { refundsStore } from '../../src/db/postgres/stores/cancellation/refunds.ts';
import { eventsStore } from '../../src/db/postgres/stores/outbox/events.ts';
import { waitlistsStore } from '../../src/db/postgres/stores/waitlists/waitlists.ts';
import * as sqliteSchema from '../../src/db/sqlite/schema/index.ts';
import {
  insertPendingRefund as insertSqliteRefund,
  settleRefund as settleSqliteRefund,
} from '../../src/db/sqlite/stores/cancellation/refunds.ts';
import { insertEvent as insertSqliteEvent } from '../../src/db/sqlite/stores/outbox/events.ts';
import { reserveRefund } from '../../src/domain/cancellation/refunds.ts';
import type { DomainError } from '../../src/domain/shared/errors.ts';
import { expireDueOffers, offerFreedPlaces } from '../../src/domain/waitlists/offers.ts';
import { freshDb, portOf } from '../support/db.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';
import { copyRows } from '../support/postgres-rows.ts';

type CancellationStores = Pick<Stores, 'cancellation' | 'refunds' | 'waitlists' | 'events' | 'capacity' | 'sessions'>;
const stores: PostgresStores<CancellationStores> = {
  cancellation: cancellationStore,
  refunds: refundsStore,
  waitlists: waitlistsStore,
  events: eventsStore,
  capacity: capacityStore,
  sessions: sessionsStore,
};
/** The domain's functions take every store; the ones raced here use only these. */
const asStores = (tx: CancellationStores) => tx as unknown as Stores;

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const effect = { cancel: true, participantIds: null, also: null };
const person = (email: string) => ({ firstName: 'Rita', lastName: 'Lobo', emailAddress: email, phoneNumber: null, answers: [] });

describePostgres('PostgreSQL cancellation, refunds, waitlists and events stores', () => {
  const differential = freshPostgresDatabase();
  const racing = freshPostgresDatabase();

  // The world, built once on SQLite and copied as it is into both PostgreSQL databases.
  const world = freshDb();
  const brand = createBrand(world);
  const otherBrand = createBrand(world, { name: 'Other Brand' });
  const { experience } = createExperience(world, brand.id);
  const { experience: otherExperience } = createExperience(world, otherBrand.id);
  const session = (day: number, capacity: number, overrides: { reserved?: number; heldForOffers?: number } = {}) =>
    createSession(world, experience, { startLocal: `2027-03-${String(day).padStart(2, '0')}T10:00:00`, capacity, ...overrides });

  // Cancellation and refunds.
  const laterSession = session(2, 10);
  const paid = createPaidBooking(world, {
    brandId: brand.id,
    session: laterSession,
    participants: [{ priceMinor: 4500 }, { priceMinor: 4500 }],
  });
  const processing = createBooking(world, {
    brandId: brand.id,
    session: laterSession,
    status: 'processing',
    overrides: { holdExpiresAt: '2026-11-20T10:15:00.000Z' },
  });
  const free = createBooking(world, { brandId: brand.id, session: laterSession, participants: [{ priceMinor: 0 }], amountMinor: 0 });
  const unpaid = createPaidBooking(world, { brandId: brand.id, session: laterSession, intentStatus: 'requires_payment' });
  // Two refunds due at the same instant, whose ids sort differently by bytes ('B' < 'a') and by dictionary.
  const refundAt = (id: string, at: string, amountMinor = 1000) =>
    insertSqliteRefund(world, { id, bookingId: paid.booking.id, amountMinor, effect: { ...effect, cancel: false }, at });
  refundAt('refund-a', '2027-01-01T08:00:00.000Z');
  refundAt('refund-B', '2027-01-01T08:00:00.000Z');
  refundAt('refund-c', '2027-01-01T07:00:00.000Z');
  refundAt('refund-d', '2027-01-02T07:00:00.000Z');
  refundAt('refund-settled', '2027-01-01T06:00:00.000Z');
  settleSqliteRefund(world, 'refund-settled', 'succeeded', 're_1', '2027-01-01T06:05:00.000Z');
  world.$client.prepare('UPDATE bookings SET amount_refunded_minor = 5000 WHERE id = ?').run(paid.booking.id);

  // Waitlists: one session sold out with a line, one earlier session (made later) with one entry.
  const waitlist = createWaitlist(world, experience.id);
  const otherWaitlist = createWaitlist(world, otherExperience.id);
  const soldOut = session(5, 6, { reserved: 4 });
  const earlier = session(1, 5, { reserved: 4 });
  const entry = (
    s: { id: string },
    position: number,
    spec: { status?: WaitlistEntryStatus; partySize?: number; email?: string; offerExpiresAt?: string } = {},
  ) => createWaitlistEntry(world, { waitlist, session: s, brandId: brand.id, position, ...spec });
  const first = entry(soldOut, 1, { partySize: 2, email: 'Ana@Example.test' });
  const offered = entry(soldOut, 2, { status: 'offered', partySize: 2, offerExpiresAt: '2027-01-01T09:00:00.000Z' });
  const expired = entry(soldOut, 3, { status: 'expired', email: 'gone@example.test' });
  const third = entry(soldOut, 4, { partySize: 3 });
  const earlyEntry = entry(earlier, 1, { status: 'offered', offerExpiresAt: '2027-01-01T08:30:00.000Z' });

  // Events: a few of each brand, and endpoints (one deleted).
  const liveEndpoint = createWebhookEndpoint(world, brand.id, {
    url: 'https://hooks.example.test/a',
    events: ['booking.created', 'waitlist.offered'],
  });
  const allEndpoint = createWebhookEndpoint(world, brand.id, {
    url: 'https://hooks.example.test/b',
    createdAt: '2026-12-01T00:00:00.000Z',
  });
  createWebhookEndpoint(world, brand.id, { url: 'https://hooks.example.test/gone', deletedAt: '2026-12-02T00:00:00.000Z' });
  const event = (brandId: string, type: string, n: number) => ({
    id: randomUUID(),
    brandId,
    type,
    resourceId: `resource-${n}`,
    payload: { id: `resource-${n}`, status: 'confirmed', amountMinor: n * 100, nested: { b: [1, 2], a: null } },
    createdAt: new Date(Date.parse('2027-02-01T10:00:00.000Z') + n * 1000).toISOString(),
  });
  for (let n = 1; n <= 6; n += 1) {
    insertSqliteEvent(world, event(n % 3 === 0 ? otherBrand.id : brand.id, n % 2 === 0 ? 'booking.cancelled' : 'booking.created', n));
  }

  // For the races: entities of their own (only the racing database is written to by races).
  const raceBooking = createPaidBooking(world, { brandId: brand.id, session: laterSession, participants: [{ priceMinor: 9000 }] });
  const mixedBooking = createPaidBooking(world, { brandId: brand.id, session: laterSession, participants: [{ priceMinor: 9000 }] });
  const raceRefundIds = ['race-settle', 'race-lease'];
  for (const id of raceRefundIds)
    insertSqliteRefund(world, { id, bookingId: raceBooking.booking.id, amountMinor: 500, effect, at: '2027-01-05T00:00:00.000Z' });
  const holdSession = session(10, 10, { reserved: 4 });
  const mixedSession = session(11, 10, { reserved: 3 });
  const joinSession = session(12, 2, { reserved: 2 });
  const expirySession = session(13, 8, { reserved: 4 });
  const expiryOffer = entry(expirySession, 1, { status: 'offered', partySize: 2, offerExpiresAt: '2027-01-01T00:00:00.000Z' });
  const convertSession = session(14, 8, { reserved: 4 });
  const convertOffer = entry(convertSession, 1, { status: 'offered', partySize: 2, offerExpiresAt: '2027-06-01T00:00:00.000Z' });
  const sweepSession = session(15, 6, { reserved: 4 });
  const sweepOffers = [
    entry(sweepSession, 1, { status: 'offered', partySize: 1, offerExpiresAt: '2027-01-01T00:00:00.500Z' }),
    entry(sweepSession, 2, { status: 'offered', partySize: 1, offerExpiresAt: '2027-01-01T00:00:01.000Z' }),
  ];
  const sweepWaiting = [
    entry(sweepSession, 3, { partySize: 1 }),
    entry(sweepSession, 4, { partySize: 1 }),
    entry(sweepSession, 5, { partySize: 1 }),
  ];
  const freedSession = session(16, 6, { reserved: 2 });
  const freedWaiting = [
    entry(freedSession, 1, { partySize: 2 }),
    entry(freedSession, 2, { partySize: 3 }),
    entry(freedSession, 3, { partySize: 1 }),
  ];

  const sqlite = portOf(world);
  let pgDb: PgDb;
  let pg: DatabaseOf<CancellationStores>;
  let gateways: Array<DatabaseOf<CancellationStores>> = [];

  beforeAll(async () => {
    pgDb = openPostgres(differential.url(), { poolSize: 4 });
    await migratePostgres(pgDb);
    await copyRows(world, pgDb);
    pg = postgresDatabase(pgDb, stores);
    const [one, two] = [openPostgres(racing.url(), { poolSize: 8 }), openPostgres(racing.url(), { poolSize: 8 })];
    await migratePostgres(one);
    await copyRows(world, one);
    gateways = [postgresDatabase(one, stores), postgresDatabase(two, stores)];
  });
  afterAll(() => Promise.all([pg, ...gateways].map((g) => g.close())));

  /** The same call on the SQLite port and on PostgreSQL: the answers must be the same, to the type. */
  async function same<T>(call: (db: CancellationStores) => Promise<T>): Promise<T> {
    const expected = await call(sqlite);
    const actual = await call(pg);
    expect(actual).toStrictEqual(expected);
    return actual;
  }

  describe('side by side with SQLite', () => {
    it('finds cancellable bookings with their payment, one or many', async () => {
      const found = await same((db) => db.cancellation.findCancellableBooking(paid.booking.id));
      expect(found).toStrictEqual({
        id: paid.booking.id,
        brandId: brand.id,
        sessionId: laterSession.id,
        status: 'confirmed',
        currency: 'EUR',
        amountMinor: 9000,
        amountRefundedMinor: 5000,
        paymentMethod: 'credit-card',
        intentReference: paid.intent.processorReference,
        intentStatus: 'succeeded',
      });
      expect(await same((db) => db.cancellation.findCancellableBooking(free.booking.id))).toMatchObject({
        intentReference: null,
        intentStatus: null,
      });
      expect(await same((db) => db.cancellation.findCancellableBooking('no-such-booking'))).toBeUndefined();
      expect(await same((db) => db.cancellation.findCancellableBooking(unpaid.booking.id))).toMatchObject({
        intentStatus: 'requires_payment',
      });

      const many = await same((db) =>
        db.cancellation.findCancellableBookings([paid.booking.id, free.booking.id, 'no-such-booking', processing.booking.id]),
      );
      expect([...many.keys()].sort()).toStrictEqual([paid.booking.id, free.booking.id, processing.booking.id].sort());
      expect((await same((db) => db.cancellation.findCancellableBookings([]))).size).toBe(0);
    });

    it('reads and cancels participants once, keeping the first cancellation time', async () => {
      const [p1, p2] = paid.participants;
      expect(await same((db) => db.cancellation.participantStates(paid.booking.id))).toStrictEqual([
        { id: p1!.id, cancelledAt: null },
        { id: p2!.id, cancelledAt: null },
      ]);
      await same((db) => db.cancellation.cancelParticipants([p1!.id], '2027-01-03T10:00:00.000Z'));
      await same((db) => db.cancellation.cancelParticipants([p1!.id, p2!.id], '2027-01-03T11:00:00.000Z'));
      await same((db) => db.cancellation.cancelParticipants([], '2027-01-03T12:00:00.000Z'));
      expect(await same((db) => db.cancellation.participantStates(paid.booking.id))).toStrictEqual([
        { id: p1!.id, cancelledAt: '2027-01-03T10:00:00.000Z' },
        { id: p2!.id, cancelledAt: '2027-01-03T11:00:00.000Z' },
      ]);
      expect(await same((db) => db.cancellation.participantStates('no-such-booking'))).toStrictEqual([]);
    });

    it('sets a status, keeping the hold only while processing, and touches bookings', async () => {
      await same((db) => db.cancellation.setBookingStatus(processing.booking.id, 'processing', '2027-01-03T10:00:00.000Z'));
      expect(await same((db) => db.waitlists.findBookingHold(processing.booking.id))).toStrictEqual({
        cartId: null,
        status: 'processing',
        holdExpiresAt: '2026-11-20T10:15:00.000Z',
      });
      await same((db) => db.cancellation.setBookingStatus(processing.booking.id, 'failed', '2027-01-03T10:01:00.000Z'));
      expect(await same((db) => db.waitlists.findBookingHold(processing.booking.id))).toStrictEqual({
        cartId: null,
        status: 'failed',
        holdExpiresAt: null,
      });
      expect(await same((db) => db.waitlists.findBookingHold(paid.booking.id))).toMatchObject({
        cartId: paid.cart.id,
        status: 'confirmed',
      });
      expect(await same((db) => db.waitlists.findBookingHold('no-such-booking'))).toBeUndefined();
      await same((db) => db.cancellation.touchBooking(free.booking.id, '2027-01-03T10:02:00.000Z'));
    });

    it('reserves refund amounts only within the booking amount, and releases them', async () => {
      expect(await same((db) => db.cancellation.reserveRefundAmount(paid.booking.id, 3000, '2027-01-03T10:00:00.000Z'))).toBe(true);
      expect(await same((db) => db.cancellation.reserveRefundAmount(paid.booking.id, 1001, '2027-01-03T10:01:00.000Z'))).toBe(false);
      expect(await same((db) => db.cancellation.reserveRefundAmount(paid.booking.id, 1000, '2027-01-03T10:02:00.000Z'))).toBe(true);
      expect(await same((db) => db.cancellation.reserveRefundAmount('no-such-booking', 1, '2027-01-03T10:02:00.000Z'))).toBe(false);
      expect(await same((db) => db.cancellation.reserveRefundAmount(free.booking.id, 1, '2027-01-03T10:02:00.000Z'))).toBe(false);
      await same((db) => db.cancellation.releaseRefundAmount(paid.booking.id, 2500, '2027-01-03T10:03:00.000Z'));
      expect(await same((db) => db.cancellation.findCancellableBooking(paid.booking.id))).toMatchObject({ amountRefundedMinor: 6500 });
      expect(await same((db) => db.cancellation.countPendingRefunds(paid.booking.id))).toBe(4);
      expect(await same((db) => db.cancellation.countPendingRefunds(free.booking.id))).toBe(0);
    });

    it('reads refunds, due and pending, oldest first and ties by id bytes', async () => {
      const refund = await same((db) => db.refunds.findRefund('refund-a'));
      expect(refund).toStrictEqual({
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
      expect(await same((db) => db.refunds.findRefund('refund-settled'))).toMatchObject({
        status: 'succeeded',
        attempts: 1,
        nextAttemptAt: null,
      });
      expect(await same((db) => db.refunds.findRefund('no-such-refund'))).toBeUndefined();

      const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
      expect(ids(await same((db) => db.refunds.dueRefunds('2027-01-01T08:00:00.000Z', '2027-12-31T00:00:00.000Z', 10)))).toStrictEqual([
        'refund-c',
        'refund-B',
        'refund-a',
      ]);
      expect(ids(await same((db) => db.refunds.dueRefunds('2027-01-03T00:00:00.000Z', '2027-12-31T00:00:00.000Z', 2)))).toStrictEqual([
        'refund-c',
        'refund-B',
      ]);
      expect(ids(await same((db) => db.refunds.dueRefunds('2027-01-03T00:00:00.000Z', '2027-01-01T07:59:59.999Z', 10)))).toStrictEqual([
        'refund-c',
      ]);
      expect(ids(await same((db) => db.refunds.dueRefunds('2026-12-31T00:00:00.000Z', '2027-12-31T00:00:00.000Z', 10)))).toStrictEqual([]);
      expect(ids(await same((db) => db.refunds.pendingRefunds('2027-01-01T08:00:00.000Z')))).toStrictEqual([
        'refund-c',
        'refund-B',
        'refund-a',
      ]);
      expect(ids(await same((db) => db.refunds.pendingRefunds('2030-01-01T00:00:00.000Z')))).toStrictEqual([
        'refund-c',
        'refund-B',
        'refund-a',
        'refund-d',
        'race-lease',
        'race-settle',
      ]);

      // Claimed: leased until the time given, in the order they were due, and due no more.
      const [now, createdBy, until] = ['2027-01-03T00:00:00.000Z', '2027-12-31T00:00:00.000Z', '2027-01-03T00:05:00.000Z'];
      const dueBefore = ids(await same((db) => db.refunds.dueRefunds(now, createdBy, 10)));
      const claimed = await same((db) => db.refunds.claimDueRefunds(now, createdBy, 2, until));
      expect(claimed.map((row) => [row.id, row.nextAttemptAt])).toStrictEqual([
        ['refund-c', until],
        ['refund-B', until],
      ]);
      expect(ids(await same((db) => db.refunds.dueRefunds(now, createdBy, 10)))).toStrictEqual(dueBefore.slice(2));
      expect(ids(await same((db) => db.refunds.claimDueRefunds('2026-12-31T00:00:00.000Z', createdBy, 2, until)))).toStrictEqual([]);
    });

    it('inserts, leases, records unanswered attempts and settles refunds once', async () => {
      await same((db) =>
        db.refunds.insertPendingRefund({
          id: 'refund-new',
          bookingId: paid.booking.id,
          amountMinor: 700,
          effect: { cancel: false, participantIds: [paid.participants[0]!.id], also: { kind: 'settle-cart', intentId: paid.intent.id } },
          at: '2027-01-04T09:00:00.000Z',
        }),
      );
      expect(await same((db) => db.refunds.findRefund('refund-new'))).toMatchObject({
        status: 'pending',
        amountMinor: 700,
        effect: { cancel: false, participantIds: [paid.participants[0]!.id], also: { kind: 'settle-cart', intentId: paid.intent.id } },
        nextAttemptAt: '2027-01-04T09:00:00.000Z',
      });

      expect(await same((db) => db.refunds.leaseRefund('refund-new', '2027-01-04T09:00:00.000Z', '2027-01-04T09:05:00.000Z'))).toBe(true);
      expect(await same((db) => db.refunds.leaseRefund('refund-new', '2027-01-04T09:00:00.000Z', '2027-01-04T09:06:00.000Z'))).toBe(false);
      await same((db) => db.refunds.recordUnansweredAttempt('refund-new', { error: 'Error: timed out', at: '2027-01-04T09:01:00.000Z' }));
      expect(await same((db) => db.refunds.findRefund('refund-new'))).toMatchObject({
        attempts: 1,
        nextAttemptAt: '2027-01-04T09:05:00.000Z',
      });
      await same((db) =>
        db.refunds.recordUnansweredAttempt('refund-new', {
          error: 'Error: reset',
          nextAttemptAt: '2027-01-04T10:00:00.000Z',
          at: '2027-01-04T09:02:00.000Z',
        }),
      );
      expect(await same((db) => db.refunds.findRefund('refund-new'))).toMatchObject({
        attempts: 2,
        nextAttemptAt: '2027-01-04T10:00:00.000Z',
      });

      expect(await same((db) => db.refunds.settleRefund('refund-new', 'succeeded', 're_new', '2027-01-04T10:01:00.000Z'))).toBe(true);
      expect(await same((db) => db.refunds.settleRefund('refund-new', 'failed', null, '2027-01-04T10:02:00.000Z'))).toBe(false);
      expect(await same((db) => db.refunds.leaseRefund('refund-new', '2027-01-04T10:00:00.000Z', '2027-01-04T11:00:00.000Z'))).toBe(false);
      await same((db) => db.refunds.recordUnansweredAttempt('refund-new', { error: 'late', at: '2027-01-04T10:03:00.000Z' }));
      expect(await same((db) => db.refunds.findRefund('refund-new'))).toMatchObject({
        status: 'succeeded',
        attempts: 3,
        nextAttemptAt: null,
      });
      expect(await same((db) => db.refunds.settleRefund('refund-d', 'failed', null, '2027-01-04T10:04:00.000Z'))).toBe(true);
    });

    it('reads waitlists, sessions and entries with their context', async () => {
      expect(await same((db) => db.waitlists.findWaitlistRow(waitlist.id))).toStrictEqual({
        id: waitlist.id,
        experienceId: experience.id,
        brandId: brand.id,
      });
      expect(await same((db) => db.waitlists.findWaitlistRow(otherWaitlist.id))).toMatchObject({ brandId: otherBrand.id });
      expect(await same((db) => db.waitlists.findWaitlistRow('no-such-waitlist'))).toBeUndefined();
      const found = await same((db) => db.waitlists.findSessionById(soldOut.id));
      expect(found).toMatchObject({ capacity: 6, reserved: 4, heldForOffers: 2, startLocal: '2027-03-05T10:00:00' });
      expect(found!.startsAt).toMatch(iso);
      expect(await same((db) => db.waitlists.findSessionById('no-such-session'))).toBeUndefined();

      const context = await same((db) => db.waitlists.findEntryWithContext(offered.id));
      expect(context).toMatchObject({ startLocal: '2027-03-05T10:00:00', timezone: 'Europe/Lisbon' });
      expect(context!.entry).toMatchObject({
        status: 'offered',
        position: 2,
        offerExpiresAt: '2027-01-01T09:00:00.000Z',
        convertedBookingId: null,
      });
      expect(await same((db) => db.waitlists.findEntryWithContext(first.id))).toMatchObject({
        entry: { purchaserEmailKey: 'ana@example.test', purchaser: first.purchaser },
      });
      expect(await same((db) => db.waitlists.findEntryWithContext('no-such-entry'))).toBeUndefined();

      const ids = (rows: Array<{ entry: { id: string } }>) => rows.map((row) => row.entry.id);
      const all = await same((db) => db.waitlists.entriesOfWaitlist(waitlist.id, {}));
      expect(ids(all).slice(0, 5)).toStrictEqual([earlyEntry.id, first.id, offered.id, expired.id, third.id]);
      expect(
        ids(await same((db) => db.waitlists.entriesOfWaitlist(waitlist.id, { sessionId: soldOut.id, statuses: ['waiting', 'offered'] }))),
      ).toStrictEqual([first.id, offered.id, third.id]);
      expect(ids(await same((db) => db.waitlists.entriesOfWaitlist(waitlist.id, { statuses: ['expired'] })))).toStrictEqual([expired.id]);
      expect(await same((db) => db.waitlists.entriesOfWaitlist(waitlist.id, { statuses: [] }))).toStrictEqual([]);
      expect(
        await same((db) => db.waitlists.entriesOfWaitlist(otherWaitlist.id, { sessionId: undefined, statuses: undefined })),
      ).toStrictEqual([]);

      expect(await same((db) => db.waitlists.waitingEntriesOfSession(soldOut.id))).toStrictEqual([
        { id: first.id, partySize: 2 },
        { id: third.id, partySize: 3 },
      ]);
      expect(await same((db) => db.waitlists.nextPosition(soldOut.id))).toBe(5);
      expect(await same((db) => db.waitlists.nextPosition(laterSession.id))).toBe(1);
      expect(await same((db) => db.waitlists.dueOffers('2027-01-01T09:00:00.000Z'))).toStrictEqual([
        { id: expiryOffer.id, sessionId: expirySession.id, partySize: 2 },
        { id: sweepOffers[0]!.id, sessionId: sweepSession.id, partySize: 1 },
        { id: sweepOffers[1]!.id, sessionId: sweepSession.id, partySize: 1 },
        { id: earlyEntry.id, sessionId: earlier.id, partySize: 1 },
        { id: offered.id, sessionId: soldOut.id, partySize: 2 },
      ]);
      expect(await same((db) => db.waitlists.dueOffers('2026-12-31T23:59:59.999Z'))).toStrictEqual([]);
    });

    it('inserts entries, one live entry per email and session', async () => {
      const row = (id: string, email: string, position: number, status: WaitlistEntryStatus = 'waiting') => ({
        id,
        waitlistId: waitlist.id,
        sessionId: soldOut.id,
        brandId: brand.id,
        status,
        position,
        partySize: 1,
        purchaser: person(email),
        purchaserEmailKey: email.toLowerCase(),
        participants: [{ ...person(email), priceTierName: 'Adult' }],
        createdAt: '2027-01-05T10:00:00.000Z',
        updatedAt: '2027-01-05T10:00:00.000Z',
      });
      expect(await same((db) => db.waitlists.insertEntry(row('entry-new', 'New@Example.test', 5)))).toBe(true);
      // Ana is waiting already (her key is lower-cased); the gone@ entry expired, so that email may join again.
      expect(await same((db) => db.waitlists.insertEntry(row('entry-ana', 'ana@example.test', 6)))).toBe(false);
      expect(await same((db) => db.waitlists.insertEntry(row('entry-gone', 'gone@example.test', 6)))).toBe(true);
      // A finished entry is no live one: it may share the email of a live entry.
      expect(
        await same((db) => db.waitlists.insertEntry({ ...row('entry-old', 'ana@example.test', 7, 'cancelled'), offeredAt: null })),
      ).toBe(true);
      // Any other conflict is an error, as on SQLite (and the transaction is not left unusable).
      await expect(sqlite.waitlists.insertEntry(row('entry-clash', 'clash@example.test', 1))).rejects.toThrow();
      await expect(pg.waitlists.insertEntry(row('entry-clash', 'clash@example.test', 1))).rejects.toThrow();
      await expect(
        pg.transaction(async (tx) => {
          expect(await tx.waitlists.insertEntry(row('entry-ana-2', 'ANA@example.test', 8))).toBe(false);
          return tx.waitlists.nextPosition(soldOut.id);
        }),
      ).resolves.toBe(8);
      expect(await same((db) => db.waitlists.nextPosition(soldOut.id))).toBe(8);
      expect(await same((db) => db.waitlists.findEntryWithContext('entry-new'))).toMatchObject({
        entry: {
          status: 'waiting',
          purchaserEmailKey: 'new@example.test',
          offeredAt: null,
          offerExpiresAt: null,
          convertedBookingId: null,
        },
      });
    });

    it('moves entries only from the statuses given, with their offer or booking fields', async () => {
      const at = '2027-01-06T10:00:00.000Z';
      expect(
        await same((db) =>
          db.waitlists.setEntryStatus(first.id, ['waiting'], 'offered', at, { offeredAt: at, offerExpiresAt: '2027-01-06T10:15:00.000Z' }),
        ),
      ).toBe(true);
      expect(await same((db) => db.waitlists.setEntryStatus(first.id, ['waiting'], 'offered', at))).toBe(false);
      expect(await same((db) => db.waitlists.setEntryStatus(first.id, [], 'cancelled', at))).toBe(false);
      expect(await same((db) => db.waitlists.setEntryStatus('no-such-entry', ['waiting'], 'cancelled', at))).toBe(false);
      // Undefined fields stay as they are.
      expect(
        await same((db) =>
          db.waitlists.setEntryStatus(first.id, ['offered', 'converted'], 'converted', '2027-01-06T10:05:00.000Z', {
            convertedBookingId: paid.booking.id,
            offerExpiresAt: undefined,
          }),
        ),
      ).toBe(true);
      expect((await same((db) => db.waitlists.findEntryWithContext(first.id)))!.entry).toMatchObject({
        status: 'converted',
        updatedAt: '2027-01-06T10:05:00.000Z',
        offeredAt: at,
        offerExpiresAt: '2027-01-06T10:15:00.000Z',
        convertedBookingId: paid.booking.id,
      });
      expect(await same((db) => db.waitlists.setEntryStatus(offered.id, ['offered'], 'expired', at, { offerExpiresAt: null }))).toBe(true);
      expect((await same((db) => db.waitlists.findEntryWithContext(offered.id)))!.entry).toMatchObject({
        status: 'expired',
        offerExpiresAt: null,
      });
    });

    it('holds, releases and takes places of a session for offers', async () => {
      // soldOut: capacity 6, reserved 4, 2 held for the offer.
      expect(await same((db) => db.waitlists.holdForOffer(soldOut.id, 1))).toBe(false);
      await same((db) => db.waitlists.releaseOfferHold(soldOut.id, 2));
      await same((db) => db.waitlists.releaseOfferHold(soldOut.id, 0));
      expect(await same((db) => db.waitlists.holdForOffer(soldOut.id, 3))).toBe(false);
      expect(await same((db) => db.waitlists.holdForOffer(soldOut.id, 2))).toBe(true);
      expect(await same((db) => db.waitlists.holdForOffer('no-such-session', 1))).toBe(false);
      await same((db) => db.waitlists.takeHeldPlaces(soldOut.id, 2, 1));
      expect(await same((db) => db.waitlists.findSessionById(soldOut.id))).toMatchObject({ reserved: 5, heldForOffers: 0 });
    });

    it('records events with the next sequence numbers, as numbers, and their deliveries', async () => {
      const rows: EventRow[] = [];
      for (const n of [7, 8, 9]) {
        const input = event(n === 8 ? otherBrand.id : brand.id, n === 9 ? 'waitlist.offered' : 'booking.created', n);
        const row = await same((db) => db.events.insertEvent(input));
        expect(row).toStrictEqual({ ...input, sequence: n });
        rows.push(row);
      }
      expect(typeof rows[0]!.sequence).toBe('number');
      // Drizzle's JSON of the payload, whatever order jsonb keeps its keys in.
      expect(rows[0]!.payload).toStrictEqual({ id: 'resource-7', status: 'confirmed', amountMinor: 700, nested: { b: [1, 2], a: null } });

      const endpoints = await same((db) => db.events.liveEndpointsOfBrand(brand.id));
      expect(endpoints.map((e) => e.id).sort()).toStrictEqual([liveEndpoint.id, allEndpoint.id].sort());
      expect(endpoints.find((e) => e.id === liveEndpoint.id)!.eventTypes).toStrictEqual(['booking.created', 'waitlist.offered']);
      expect(await same((db) => db.events.liveEndpointsOfBrand('no-such-brand'))).toStrictEqual([]);

      await same((db) => db.events.insertPendingDeliveries([]));
      const deliveries = [liveEndpoint, allEndpoint].map((endpoint, i) => ({
        id: `delivery-${i}`,
        endpointId: endpoint.id,
        eventSequence: rows[2]!.sequence,
        resourceId: rows[2]!.resourceId,
        at: rows[2]!.createdAt,
      }));
      await same((db) => db.events.insertPendingDeliveries(deliveries));
    });

    it('pages events by sequence, of some types, and tells whether any come before', async () => {
      const sequences = (rows: Array<{ sequence: number }>) => rows.map((row) => row.sequence);
      expect(sequences(await same((db) => db.events.findEventPage(brand.id, 0, null, 50)))).toStrictEqual([1, 2, 4, 5, 7, 9]);
      expect(sequences(await same((db) => db.events.findEventPage(brand.id, 2, null, 3)))).toStrictEqual([4, 5, 7]);
      expect(
        sequences(await same((db) => db.events.findEventPage(brand.id, 0, ['booking.created', 'waitlist.offered'], 50))),
      ).toStrictEqual([1, 5, 7, 9]);
      expect(sequences(await same((db) => db.events.findEventPage(otherBrand.id, 3, null, 50)))).toStrictEqual([6, 8]);
      expect(await same((db) => db.events.findEventPage(brand.id, 9, null, 50))).toStrictEqual([]);
      expect(await same((db) => db.events.findEventPage(brand.id, 0, [], 50))).toStrictEqual([]);
      const page = await same((db) => db.events.findEventPage(brand.id, 4, ['booking.created'], 1));
      expect(page[0]).toMatchObject({
        sequence: 5,
        type: 'booking.created',
        createdAt: '2027-02-01T10:00:05.000Z',
        resourceId: 'resource-5',
      });

      expect(await same((db) => db.events.hasEventsUpTo(brand.id, 1, null))).toBe(true);
      expect(await same((db) => db.events.hasEventsUpTo(brand.id, 3, ['booking.cancelled']))).toBe(true);
      expect(await same((db) => db.events.hasEventsUpTo(brand.id, 1, ['booking.cancelled']))).toBe(false);
      expect(await same((db) => db.events.hasEventsUpTo(otherBrand.id, 2, null))).toBe(false);
      expect(await same((db) => db.events.hasEventsUpTo(brand.id, 9, []))).toBe(false);
    });

    it('leaves the same rows behind on both sides', async () => {
      const byId = <T extends { id?: unknown; sequence?: unknown }>(rows: T[]) =>
        [...rows].sort((a, b) => String(a.id ?? a.sequence).localeCompare(String(b.id ?? b.sequence)));
      for (const name of ['bookings', 'participants', 'refunds', 'sessions', 'waitlistEntries', 'events', 'webhookDeliveries'] as const) {
        const expected = world.select().from(sqliteSchema[name]).all();
        const actual = await pgDb.select().from(pgSchema[name]);
        expect({ name, rows: byId(actual as Array<{ id?: unknown }>) }).toStrictEqual({
          name,
          rows: byId(expected as Array<{ id?: unknown }>),
        });
      }
    });
  });

  describe('races on two gateways', () => {
    const racers = <T>(n: number, work: (tx: CancellationStores, i: number) => Promise<T>) =>
      Promise.all(Array.from({ length: n }, (_, i) => gateways[i % 2]!.transaction((tx) => work(tx, i))));
    const settled = <T>(n: number, work: (tx: CancellationStores, i: number) => Promise<T>) =>
      Promise.allSettled(Array.from({ length: n }, (_, i) => gateways[i % 2]!.transaction((tx) => work(tx, i))));
    const read = () => gateways[0]!;
    const at = '2027-01-07T10:00:00.000Z';

    it('reserves refunds within the booking amount: of 20 reservations of 1000 on 9000 left, 9 pass', async () => {
      const outcomes = await settled(20, (tx, i) =>
        reserveRefund(
          asStores(tx),
          { id: raceBooking.booking.id, intentReference: raceBooking.intent.processorReference, currency: 'EUR' },
          { id: `race-refund-${i}`, amountMinor: 1000, effect, at },
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(9);
      for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as DomainError).code).toBe('REFUND_EXCEEDS_BALANCE');
      expect(await read().cancellation.findCancellableBooking(raceBooking.booking.id)).toMatchObject({ amountRefundedMinor: 9000 });
      // The two refunds of the world plus the 9 reserved: no refund row without its amount.
      expect(await read().cancellation.countPendingRefunds(raceBooking.booking.id)).toBe(11);
    });

    it('keeps reservations and releases exact when they race', async () => {
      const reserve = () => racers(12, (tx) => tx.cancellation.reserveRefundAmount(mixedBooking.booking.id, 1000, at));
      const refunded = async () => (await read().cancellation.findCancellableBooking(mixedBooking.booking.id))!.amountRefundedMinor;
      expect((await reserve()).filter(Boolean)).toHaveLength(9);
      // 4 failed refunds give their 1000 back while 12 more reservations race them: a reservation may take only what was given back.
      const [, during] = await Promise.all([
        racers(4, (tx) => tx.cancellation.releaseRefundAmount(mixedBooking.booking.id, 1000, at)),
        reserve(),
      ]);
      const retaken = during.filter(Boolean).length;
      expect(retaken).toBeLessThanOrEqual(4);
      expect(await refunded()).toBe((9 - 4 + retaken) * 1000);
      // What is left of the amount can be reserved again, and no more.
      expect((await reserve()).filter(Boolean)).toHaveLength(4 - retaken);
      expect(await refunded()).toBe(9000);
    });

    it('settles a refund once: of 12 racing settlements, one wins and counts one attempt', async () => {
      const outcomes = await racers(12, (tx, i) =>
        tx.refunds.settleRefund('race-settle', i % 3 === 0 ? 'failed' : 'succeeded', `re_${i}`, at),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const winner = outcomes.indexOf(true);
      expect(await read().refunds.findRefund('race-settle')).toMatchObject({
        status: winner % 3 === 0 ? 'failed' : 'succeeded',
        attempts: 1,
        nextAttemptAt: null,
      });
    });

    it('leases a refund once: of 12 racing leases of the same next attempt, one holds it', async () => {
      const seen = (await read().refunds.findRefund('race-lease'))!.nextAttemptAt!;
      const until = (i: number) => new Date(Date.parse('2027-01-05T00:05:00.000Z') + i * 1000).toISOString();
      const outcomes = await racers(12, (tx, i) => tx.refunds.leaseRefund('race-lease', seen, until(i)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await read().refunds.findRefund('race-lease'))!.nextAttemptAt).toBe(until(outcomes.indexOf(true)));
    });

    it('claims each due refund for exactly one of 12 racing claims on two gateways, outside any unit of work', async () => {
      const [now, createdBy] = ['2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z'];
      const dueBefore = (await read().refunds.dueRefunds(now, createdBy, 100)).map((row) => row.id);
      expect(dueBefore.length).toBeGreaterThan(2);
      const until = (i: number) => new Date(Date.parse('2030-01-01T00:05:00.000Z') + i * 1000).toISOString();
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => gateways[i % 2]!.refunds.claimDueRefunds(now, createdBy, 1, until(i))),
      );
      const claimed = claims.flat().map((row) => row.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(dueBefore).toEqual(expect.arrayContaining(claimed));
      expect(claimed).toHaveLength(Math.min(12, dueBefore.length));
      for (const [i, claim] of claims.entries()) {
        for (const row of claim) expect((await read().refunds.findRefund(row.id))!.nextAttemptAt).toBe(until(i));
      }
      expect((await read().refunds.dueRefunds(now, createdBy, 100)).map((row) => row.id).sort()).toEqual(
        dueBefore.filter((id) => !claimed.includes(id)).sort(),
      );
    });

    it('holds the places on sale for offers and no more: of 10 holds of 2 on 6 left, 3 pass', async () => {
      const outcomes = await racers(10, (tx) => tx.waitlists.holdForOffer(holdSession.id, 2));
      expect(outcomes.filter(Boolean)).toHaveLength(3);
      expect(await read().waitlists.findSessionById(holdSession.id)).toMatchObject({ reserved: 4, heldForOffers: 6 });
      await racers(3, (tx) => tx.waitlists.releaseOfferHold(holdSession.id, 2));
      expect(await read().waitlists.findSessionById(holdSession.id)).toMatchObject({ reserved: 4, heldForOffers: 0 });
    });

    it('never lets holds for offers and takes together pass the capacity', async () => {
      const outcomes = await racers(24, async (tx, i) => {
        const count = 1 + (i % 2);
        const done =
          i % 3 === 0 ? await tx.capacity.takePlaces(mixedSession.id, count) : await tx.waitlists.holdForOffer(mixedSession.id, count);
        return done ? count : 0;
      });
      const session = (await read().waitlists.findSessionById(mixedSession.id))!;
      expect(session.reserved + session.heldForOffers).toBe(3 + outcomes.reduce((a, b) => a + b, 0));
      // Sold out exactly: a last free place would have gone to one of the 12 racers asking for one.
      expect(session.reserved + session.heldForOffers).toBe(10);
    });

    it('lets one email join a session once, and gives racing joiners their own positions', async () => {
      const join = (tx: CancellationStores, email: string) =>
        tx.waitlists.nextPosition(joinSession.id).then((position) =>
          tx.waitlists.insertEntry({
            id: randomUUID(),
            waitlistId: waitlist.id,
            sessionId: joinSession.id,
            brandId: brand.id,
            status: 'waiting',
            position,
            partySize: 1,
            purchaser: person(email),
            purchaserEmailKey: email.toLowerCase(),
            participants: [],
            createdAt: at,
            updatedAt: at,
          }),
        );
      const twins = await racers(10, (tx, i) => join(tx, i % 2 === 0 ? 'twin@example.test' : 'TWIN@example.test'));
      expect(twins.filter(Boolean)).toHaveLength(1);
      const distinct = await racers(10, (tx, i) => join(tx, `joiner-${i}@example.test`));
      expect(distinct.every(Boolean)).toBe(true);
      const line = await read().waitlists.entriesOfWaitlist(waitlist.id, { sessionId: joinSession.id });
      expect(line.map((row) => row.entry.position)).toStrictEqual(Array.from({ length: 11 }, (_, i) => i + 1));
      expect(new Set(line.map((row) => row.entry.purchaserEmailKey)).size).toBe(11);
    });

    it('expires an offer once: of 10 racing expiries, one moves it and gives its places back', async () => {
      const outcomes = await racers(10, async (tx) => {
        if (!(await tx.waitlists.setEntryStatus(expiryOffer.id, ['offered'], 'expired', at))) return false;
        await tx.waitlists.releaseOfferHold(expirySession.id, expiryOffer.partySize);
        return true;
      });
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await read().waitlists.findSessionById(expirySession.id)).toMatchObject({ reserved: 4, heldForOffers: 0 });
      expect((await read().waitlists.findEntryWithContext(expiryOffer.id))!.entry.status).toBe('expired');
    });

    it('converts an offer or expires it, never both: of 10 racing moves, one wins', async () => {
      const outcomes = await racers(10, async (tx, i) => {
        if (i % 2 === 0) {
          const moved = await tx.waitlists.setEntryStatus(convertOffer.id, ['offered'], 'converted', at, {
            convertedBookingId: raceBooking.booking.id,
          });
          if (moved) await tx.waitlists.takeHeldPlaces(convertSession.id, convertOffer.partySize, convertOffer.partySize);
          return moved ? 'converted' : null;
        }
        const moved = await tx.waitlists.setEntryStatus(convertOffer.id, ['offered'], 'expired', at);
        if (moved) await tx.waitlists.releaseOfferHold(convertSession.id, convertOffer.partySize);
        return moved ? 'expired' : null;
      });
      const winners = outcomes.filter((o) => o !== null);
      expect(winners).toHaveLength(1);
      const entryNow = (await read().waitlists.findEntryWithContext(convertOffer.id))!.entry;
      expect(entryNow.status).toBe(winners[0]);
      expect(await read().waitlists.findSessionById(convertSession.id)).toMatchObject({
        reserved: winners[0] === 'converted' ? 6 : 4,
        heldForOffers: 0,
      });
    });

    it('runs racing offer sweeps as the domain does: each offer expires once and each freed place is offered once', async () => {
      const now = new Date('2027-01-02T00:00:00.000Z');
      const expiredByEach = await racers(8, (tx) => expireDueOffers(asStores(tx), now, 900));
      // Every offer of the database that ran out: the sweep session's, and the two the world's other sessions hold.
      expect(expiredByEach.flat().sort()).toStrictEqual([...sweepOffers.map((o) => o.id), offered.id, earlyEntry.id].sort());
      const line = await read().waitlists.entriesOfWaitlist(waitlist.id, { sessionId: sweepSession.id });
      expect(line.map((row) => row.entry.status)).toStrictEqual(['expired', 'expired', 'offered', 'offered', 'waiting']);
      expect(await read().waitlists.findSessionById(sweepSession.id)).toMatchObject({ reserved: 4, heldForOffers: 2 });
      const offeredIds = line.filter((row) => row.entry.status === 'offered').map((row) => row.entry.id);
      expect(offeredIds).toStrictEqual([sweepWaiting[0]!.id, sweepWaiting[1]!.id]);
      // One event per move: two expiries and two offers, whatever the number of sweeps.
      const events = await read().events.findEventPage(brand.id, 0, ['waitlist.expired', 'waitlist.offered'], 100);
      const about = (ids: string[]) => events.filter((e) => ids.includes(e.resourceId)).map((e) => `${e.type} ${e.resourceId}`);
      expect(about([...sweepOffers, ...sweepWaiting].map((e) => e.id)).sort()).toStrictEqual(
        [...sweepOffers.map((o) => `waitlist.expired ${o.id}`), ...offeredIds.map((id) => `waitlist.offered ${id}`)].sort(),
      );
    });

    it('offers freed places once when racing releases offer them', async () => {
      const now = new Date('2027-01-02T00:00:00.000Z');
      const offeredByEach = await racers(6, (tx) => offerFreedPlaces(asStores(tx), freedSession.id, now, 900));
      // 4 places on sale: the party of 2 then the party of 1 fit (the party of 3 is skipped); nobody twice.
      expect(offeredByEach.flat().sort()).toStrictEqual([freedWaiting[0]!.id, freedWaiting[2]!.id].sort());
      expect(await read().waitlists.findSessionById(freedSession.id)).toMatchObject({ reserved: 2, heldForOffers: 3 });
    });

    it('makes an event wait for the transaction of an earlier one, so sequences commit in order', async () => {
      const [latest] = (await read().events.findEventPage(brand.id, 0, null, 1000)).slice(-1);
      let insertedFirst!: () => void;
      let commitFirst!: () => void;
      const firstInserted = new Promise<void>((resolve) => (insertedFirst = resolve));
      const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
      const early = gateways[0]!.transaction(async (tx) => {
        const row = await tx.events.insertEvent({ ...event(brand.id, 'booking.created', 40), id: 'event-early' });
        insertedFirst();
        await firstMayCommit;
        return row;
      });
      await firstInserted;
      let lateDone = false;
      const late = gateways[1]!
        .transaction((tx) => tx.events.insertEvent({ ...event(brand.id, 'booking.created', 41), id: 'event-late' }))
        .then((row) => {
          lateDone = true;
          return row;
        });
      await sleep(300);
      expect(lateDone).toBe(false);
      expect(await read().events.findEventPage(brand.id, latest!.sequence, null, 10)).toStrictEqual([]);
      commitFirst();
      const [earlyRow, lateRow] = await Promise.all([early, late]);
      expect(lateRow.sequence).toBeGreaterThan(earlyRow.sequence);
      const page = await read().events.findEventPage(brand.id, latest!.sequence, null, 10);
      expect(page.map((e) => e.id)).toStrictEqual(['event-early', 'event-late']);
      // Outside a unit of work, an event takes the lock in a transaction of its own.
      const alone = await read().events.insertEvent({ ...event(brand.id, 'booking.created', 42), id: 'event-alone' });
      expect(alone.sequence).toBeGreaterThan(lateRow.sequence);
    });

    it('lets a reader paging by sequence see every event of racing writers, once and in order', async () => {
      const [latest] = (await read().events.findEventPage(brand.id, 0, null, 1000)).slice(-1);
      const written = 48;
      let done = false;
      const writers = racers(written, async (tx, i) => {
        // Work in the transaction on both sides of the insert, so numbers are taken well before commits.
        await tx.waitlists.findSessionById(laterSession.id);
        const row = await tx.events.insertEvent({ ...event(brand.id, 'booking.created', 50), id: `paged-${i}` });
        await tx.events.liveEndpointsOfBrand(brand.id);
        // Commits come in any order of the numbers unless something keeps them in line.
        await sleep(Math.random() * 15);
        await tx.waitlists.findSessionById(holdSession.id);
        return row;
      }).finally(() => (done = true));
      const seen: number[] = [];
      let cursor = latest!.sequence;
      for (;;) {
        const finished = done;
        const page = await read().events.findEventPage(brand.id, cursor, null, 7);
        seen.push(...page.map((e) => e.sequence));
        if (page.length > 0) cursor = page[page.length - 1]!.sequence;
        else if (finished) break;
      }
      const rows = await writers;
      expect(seen).toStrictEqual(rows.map((row) => row.sequence).sort((a, b) => a - b));
      expect(new Set(seen).size).toBe(written);
    });

    it('runs again a unit that deadlocks between the events lock and a row lock', async () => {
      const bump = (tx: CancellationStores) =>
        tx.waitlists.holdForOffer(holdSession.id, 1).then(() => tx.waitlists.releaseOfferHold(holdSession.id, 1));
      const [a, b] = await Promise.all([
        gateways[0]!.transaction(async (tx) => {
          const row = await tx.events.insertEvent({ ...event(brand.id, 'booking.created', 60), id: 'deadlock-a' });
          await sleep(100);
          await bump(tx);
          return row;
        }),
        gateways[1]!.transaction(async (tx) => {
          await bump(tx);
          await sleep(100);
          return tx.events.insertEvent({ ...event(brand.id, 'booking.created', 61), id: 'deadlock-b' });
        }),
      ]);
      expect(a.sequence).not.toBe(b.sequence);
      expect(await read().waitlists.findSessionById(holdSession.id)).toMatchObject({ heldForOffers: 0 });
    }, 20_000);
  });
});
