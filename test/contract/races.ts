/**
 * The guards of the cancellation, refunds, waitlists, outbox, webhooks and idempotency stores, raced: N
 * units of work (and claims outside any) started together, alternately on the gateways given, each doing
 * its check and write; only those the guard allows take effect. The contract (cancellation, waitlists,
 * outbox, webhooks and idempotency tests) races them on the one gateway of its engine's database;
 * test/postgres/races-on-two-gateways.test.ts races the same on two gateways of one PostgreSQL database
 * (two pools in one process). Two SQLite connections in one process cannot race: better-sqlite3 waits for
 * SQLite's file lock on the event loop, which the connection holding it needs to commit (gateway
 * processes on one SQLite file can, test/api/operations/gateways.test.ts).
 *
 * Each area's world is its own (brands, sessions, bookings, endpoints of its own), and what a race reads
 * across the database (due refunds, due offers, due deliveries) is narrowed to it, so the worlds can
 * share a database.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { createWaitlistEntry } from '../../fixtures/factories/waitlists.ts';
import { reserveRefund } from '../../src/domain/cancellation/refunds.ts';
import type { EventInsert } from '../../src/domain/outbox/store.ts';
import type { Database, Transaction } from '../../src/domain/shared/database.ts';
import type { DomainError } from '../../src/domain/shared/errors.ts';
import type { WaitlistEntryStatus } from '../../src/domain/waitlists/store.ts';
import { expireDueOffers, offerFreedPlaces } from '../../src/domain/waitlists/offers.ts';
import type { DueDelivery } from '../../src/domain/webhooks/store.ts';
import type { TestDb } from '../support/db.ts';

/** The database a world is in, the gateways to race on (one or more), and the world. */
type Racing<W> = () => { db: TestDb; gateways: Database[]; w: W };

/** `count` units of work started together, alternately on the gateways. */
function racers<T>(gateways: Database[], count: number, work: (tx: Transaction, i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => gateways[i % gateways.length]!.transaction((tx) => work(tx, i))));
}
function settled<T>(gateways: Database[], count: number, work: (tx: Transaction, i: number) => Promise<T>) {
  return Promise.allSettled(Array.from({ length: count }, (_, i) => gateways[i % gateways.length]!.transaction((tx) => work(tx, i))));
}
/** `count` calls started together, alternately on the gateways. */
function across<T>(gateways: Database[], count: number, work: (gateway: Database, i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => work(gateways[i % gateways.length]!, i)));
}

const AT = '2027-01-07T10:00:00.000Z';
const cancelAll = { cancel: true, participantIds: null, also: null };
const person = (email: string) => ({ firstName: 'Rita', lastName: 'Lobo', emailAddress: email, phoneNumber: null, answers: [] });
/** The instant `seconds` after `from`. */
const plus = (from: string, seconds: number) => new Date(Date.parse(from) + seconds * 1000).toISOString();

// Cancellation and refunds.

/** Refunds to claim were created (and are due) on this day, before any other refund of any world. */
const CLAIM_DAY = '2026-06-01T00:00:00.000Z';

export async function cancellationRaceWorld(db: TestDb) {
  const { database } = db;
  const brand = await createBrand(db);
  const { experience } = await createExperience(db, brand.id);
  const session = await createSession(db, experience, { startLocal: '2027-03-02T10:00:00', capacity: 10 });
  const paid = () => createPaidBooking(db, { brandId: brand.id, session, participants: [{ priceMinor: 9000 }] });
  const raceBooking = await paid();
  const mixedBooking = await paid();
  // Two refunds of the booking whose reservations race, pending but their amounts not reserved.
  for (const id of ['race-settle', 'race-lease'])
    await database.refunds.insertPendingRefund({
      id,
      bookingId: raceBooking.booking.id,
      amountMinor: 500,
      effect: cancelAll,
      at: '2027-01-05T00:00:00.000Z',
    });
  // 13 refunds due one second after another, written out of their order.
  const claimBooking = await paid();
  const claimIds = Array.from({ length: 13 }, (_, i) => `claim-${String(i).padStart(2, '0')}`);
  for (const i of [...claimIds.keys()].reverse())
    await database.refunds.insertPendingRefund({
      id: claimIds[i]!,
      bookingId: claimBooking.booking.id,
      amountMinor: 100,
      effect: cancelAll,
      at: plus(CLAIM_DAY, i),
    });
  return { raceBooking, mixedBooking, claimIds };
}

export function cancellationRaces(on: Racing<Awaited<ReturnType<typeof cancellationRaceWorld>>>): void {
  it('reserves refunds within the booking amount: of 20 reservations of 1000 on 9000 left, 9 pass', async () => {
    const { db, gateways, w } = on();
    const outcomes = await settled(gateways, 20, (tx, i) =>
      reserveRefund(
        tx,
        { id: w.raceBooking.booking.id, intentReference: w.raceBooking.intent.processorReference, currency: 'EUR' },
        { id: `race-refund-${i}`, amountMinor: 1000, effect: cancelAll, at: AT },
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(9);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as DomainError).code).toBe('REFUND_EXCEEDS_BALANCE');
    expect((await db.database.cancellation.findBookingToCancel(w.raceBooking.booking.id))!.booking).toMatchObject({
      amountRefundedMinor: 9000,
    });
    // The two refunds of the world plus the 9 reserved: no refund row without its amount.
    expect((await db.database.cancellation.findBookingToCancel(w.raceBooking.booking.id))!.pendingRefunds).toBe(11);
  });

  it('keeps reservations and releases exact when they race', async () => {
    const { db, gateways, w } = on();
    const id = w.mixedBooking.booking.id;
    const reserve = () => racers(gateways, 12, (tx) => tx.cancellation.reserveRefundAmount(id, 1000, AT));
    const refunded = async () => (await db.database.cancellation.findBookingToCancel(id))!.booking.amountRefundedMinor;
    expect((await reserve()).filter(Boolean)).toHaveLength(9);
    // 4 failed refunds give their 1000 back while 12 more reservations race them: a reservation may take only what was given back.
    const [, during] = await Promise.all([racers(gateways, 4, (tx) => tx.cancellation.releaseRefundAmount(id, 1000, AT)), reserve()]);
    const retaken = during.filter(Boolean).length;
    expect(retaken).toBeLessThanOrEqual(4);
    expect(await refunded()).toBe((9 - 4 + retaken) * 1000);
    // What is left of the amount can be reserved again, and no more.
    expect((await reserve()).filter(Boolean)).toHaveLength(4 - retaken);
    expect(await refunded()).toBe(9000);
  });

  it('settles a refund once: of 12 racing settlements, one wins and counts one attempt', async () => {
    const { db, gateways } = on();
    const outcomes = await racers(gateways, 12, (tx, i) =>
      tx.refunds.settleRefund('race-settle', i % 3 === 0 ? 'failed' : 'succeeded', `re_${i}`, AT),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const winner = outcomes.indexOf(true);
    expect(await db.database.refunds.findRefund('race-settle')).toMatchObject({
      status: winner % 3 === 0 ? 'failed' : 'succeeded',
      attempts: 1,
      nextAttemptAt: null,
    });
    expect(await db.row('refunds', { id: 'race-settle' })).toMatchObject({ processorReference: `re_${winner}`, updatedAt: AT });
  });

  it('leases a refund once: of 12 racing leases of the same next attempt, one holds it', async () => {
    const { db, gateways } = on();
    const seen = (await db.database.refunds.findRefund('race-lease'))!.nextAttemptAt!;
    const until = (i: number) => plus('2027-01-05T00:05:00.000Z', i);
    const outcomes = await racers(gateways, 12, (tx, i) => tx.refunds.leaseRefund('race-lease', seen, until(i)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await db.database.refunds.findRefund('race-lease'))!.nextAttemptAt).toBe(until(outcomes.indexOf(true)));
  });

  it('claims each due refund for exactly one of 12 racing claims of one, outside any unit of work', async () => {
    const { db, gateways, w } = on();
    const [now, createdBy] = [plus(CLAIM_DAY, 60), plus(CLAIM_DAY, 60)];
    const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
    // The first due first, whatever order they were written in.
    expect(ids(await db.database.refunds.dueRefunds(now, createdBy, 100))).toStrictEqual(w.claimIds);
    const until = (i: number) => plus('2026-06-02T00:00:00.000Z', i);
    const claims = await across(gateways, 12, (gateway, i) => gateway.refunds.claimDueRefunds(now, createdBy, 1, until(i)));
    // 13 due, 12 claims of one: each claim gets one, never one another claim got.
    expect(claims.map((claim) => claim.length)).toStrictEqual(Array.from({ length: 12 }, () => 1));
    const claimed = claims.flat().map((row) => row.id);
    expect(new Set(claimed).size).toBe(12);
    expect(w.claimIds).toEqual(expect.arrayContaining(claimed));
    for (const [i, [row]] of claims.entries()) {
      expect(row!.nextAttemptAt).toBe(until(i));
      expect((await db.database.refunds.findRefund(row!.id))!.nextAttemptAt).toBe(until(i));
    }
    expect(ids(await db.database.refunds.dueRefunds(now, createdBy, 100))).toStrictEqual(w.claimIds.filter((id) => !claimed.includes(id)));
  });
}

// Waitlists.

export async function waitlistRaceWorld(db: TestDb) {
  const brand = await createBrand(db);
  const { experience } = await createExperience(db, brand.id);
  const waitlist = await createWaitlist(db, experience.id);
  const session = (day: number, capacity: number, reserved: number) =>
    createSession(db, experience, { startLocal: `2027-03-${String(day).padStart(2, '0')}T10:00:00`, capacity, reserved });
  const entry = (
    s: { id: string },
    position: number,
    spec: { status?: WaitlistEntryStatus; partySize?: number; offerExpiresAt?: string } = {},
  ) => createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position, ...spec });
  const booking = (await createBooking(db, { brandId: brand.id, session: await session(2, 10, 0) })).booking;
  const holdSession = await session(10, 10, 4);
  const mixedSession = await session(11, 10, 3);
  const joinSession = await session(12, 2, 2);
  // Offers moved by the races, not by the sweep: they run out after it.
  const expirySession = await session(13, 8, 4);
  const expiryOffer = await entry(expirySession, 1, { status: 'offered', partySize: 2, offerExpiresAt: '2027-06-01T00:00:00.000Z' });
  const convertSession = await session(14, 8, 4);
  const convertOffer = await entry(convertSession, 1, { status: 'offered', partySize: 2, offerExpiresAt: '2027-06-01T00:00:00.000Z' });
  // The only offers of the database that have run out when the sweeps run.
  const sweepSession = await session(15, 6, 4);
  const sweepOffers = [
    await entry(sweepSession, 1, { status: 'offered', partySize: 1, offerExpiresAt: '2027-01-01T00:00:00.500Z' }),
    await entry(sweepSession, 2, { status: 'offered', partySize: 1, offerExpiresAt: '2027-01-01T00:00:01.000Z' }),
  ];
  const sweepWaiting = [await entry(sweepSession, 3), await entry(sweepSession, 4), await entry(sweepSession, 5)];
  const freedSession = await session(16, 6, 2);
  const freedWaiting = [
    await entry(freedSession, 1, { partySize: 2 }),
    await entry(freedSession, 2, { partySize: 3 }),
    await entry(freedSession, 3),
  ];
  return {
    brand,
    waitlist,
    booking,
    holdSession,
    mixedSession,
    joinSession,
    expirySession,
    expiryOffer,
    convertSession,
    convertOffer,
    sweepSession,
    sweepOffers,
    sweepWaiting,
    freedSession,
    freedWaiting,
  };
}

export function waitlistRaces(on: Racing<Awaited<ReturnType<typeof waitlistRaceWorld>>>): void {
  it('holds the places on sale for offers and no more: of 10 holds of 2 on 6 left, 3 pass', async () => {
    const { db, gateways, w } = on();
    const outcomes = await racers(gateways, 10, (tx) => tx.waitlists.holdForOffer(w.holdSession.id, 2));
    expect(outcomes.filter(Boolean)).toHaveLength(3);
    expect(await db.database.waitlists.findSessionById(w.holdSession.id)).toMatchObject({ reserved: 4, heldForOffers: 6 });
    await racers(gateways, 3, (tx) => tx.waitlists.releaseOfferHold(w.holdSession.id, 2));
    expect(await db.database.waitlists.findSessionById(w.holdSession.id)).toMatchObject({ reserved: 4, heldForOffers: 0 });
  });

  it('never lets holds for offers and takes together pass the capacity', async () => {
    const { db, gateways, w } = on();
    const outcomes = await racers(gateways, 24, async (tx, i) => {
      const count = 1 + (i % 2);
      const done =
        i % 3 === 0 ? await tx.capacity.takePlaces(w.mixedSession.id, count) : await tx.waitlists.holdForOffer(w.mixedSession.id, count);
      return done ? count : 0;
    });
    const session = (await db.database.waitlists.findSessionById(w.mixedSession.id))!;
    expect(session.reserved + session.heldForOffers).toBe(3 + outcomes.reduce((a, b) => a + b, 0));
    // Sold out exactly: a last free place would have gone to one of the 12 racers asking for one.
    expect(session.reserved + session.heldForOffers).toBe(10);
  });

  it('lets one email join a session once, and gives racing joiners their own positions', async () => {
    const { db, gateways, w } = on();
    const join = (tx: Transaction, email: string) =>
      tx.waitlists.nextPosition(w.joinSession.id).then((position) =>
        tx.waitlists.insertEntry({
          id: randomUUID(),
          waitlistId: w.waitlist.id,
          sessionId: w.joinSession.id,
          brandId: w.brand.id,
          status: 'waiting',
          position,
          partySize: 1,
          purchaser: person(email),
          purchaserEmailKey: email.toLowerCase(),
          participants: [],
          createdAt: AT,
          updatedAt: AT,
        }),
      );
    const twins = await racers(gateways, 10, (tx, i) => join(tx, i % 2 === 0 ? 'twin@example.test' : 'TWIN@example.test'));
    expect(twins.filter(Boolean)).toHaveLength(1);
    const distinct = await racers(gateways, 10, (tx, i) => join(tx, `joiner-${i}@example.test`));
    expect(distinct.every(Boolean)).toBe(true);
    const line = await db.database.waitlists.entriesOfWaitlist(w.waitlist.id, { sessionId: w.joinSession.id });
    expect(line.map((row) => row.entry.position)).toStrictEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(new Set(line.map((row) => row.entry.purchaserEmailKey)).size).toBe(11);
  });

  it('expires an offer once: of 10 racing expiries, one moves it and gives its places back', async () => {
    const { db, gateways, w } = on();
    const outcomes = await racers(gateways, 10, async (tx) => {
      if (!(await tx.waitlists.setEntryStatus(w.expiryOffer.id, ['offered'], 'expired', AT))) return false;
      await tx.waitlists.releaseOfferHold(w.expirySession.id, w.expiryOffer.partySize);
      return true;
    });
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await db.database.waitlists.findSessionById(w.expirySession.id)).toMatchObject({ reserved: 4, heldForOffers: 0 });
    expect((await db.database.waitlists.findEntryWithContext(w.expiryOffer.id))!.entry.status).toBe('expired');
  });

  it('converts an offer or expires it, never both: of 10 racing moves, one wins', async () => {
    const { db, gateways, w } = on();
    const outcomes = await racers(gateways, 10, async (tx, i) => {
      if (i % 2 === 0) {
        const moved = await tx.waitlists.setEntryStatus(w.convertOffer.id, ['offered'], 'converted', AT, {
          convertedBookingId: w.booking.id,
        });
        if (moved) await tx.waitlists.takeHeldPlaces(w.convertSession.id, w.convertOffer.partySize, w.convertOffer.partySize);
        return moved ? 'converted' : null;
      }
      const moved = await tx.waitlists.setEntryStatus(w.convertOffer.id, ['offered'], 'expired', AT);
      if (moved) await tx.waitlists.releaseOfferHold(w.convertSession.id, w.convertOffer.partySize);
      return moved ? 'expired' : null;
    });
    const winners = outcomes.filter((o) => o !== null);
    expect(winners).toHaveLength(1);
    const entryNow = (await db.database.waitlists.findEntryWithContext(w.convertOffer.id))!.entry;
    expect(entryNow.status).toBe(winners[0]);
    expect(entryNow.convertedBookingId).toBe(winners[0] === 'converted' ? w.booking.id : null);
    expect(await db.database.waitlists.findSessionById(w.convertSession.id)).toMatchObject({
      reserved: winners[0] === 'converted' ? 6 : 4,
      heldForOffers: 0,
    });
  });

  it('runs racing offer sweeps as the domain does: each offer expires once and each freed place is offered once', async () => {
    const { db, gateways, w } = on();
    const now = new Date('2027-01-02T00:00:00.000Z');
    const expiredByEach = await racers(gateways, 8, (tx) => expireDueOffers(tx, now, 900));
    expect(expiredByEach.flat().sort()).toStrictEqual(w.sweepOffers.map((o) => o.id).sort());
    const line = await db.database.waitlists.entriesOfWaitlist(w.waitlist.id, { sessionId: w.sweepSession.id });
    expect(line.map((row) => row.entry.status)).toStrictEqual(['expired', 'expired', 'offered', 'offered', 'waiting']);
    expect(await db.database.waitlists.findSessionById(w.sweepSession.id)).toMatchObject({ reserved: 4, heldForOffers: 2 });
    const offeredIds = line.filter((row) => row.entry.status === 'offered').map((row) => row.entry.id);
    expect(offeredIds).toStrictEqual([w.sweepWaiting[0]!.id, w.sweepWaiting[1]!.id]);
    // One event per move: two expiries and two offers, whatever the number of sweeps.
    const events = await db.database.events.findEventPage(w.brand.id, 0, ['waitlist.expired', 'waitlist.offered'], 100);
    const about = (ids: string[]) => events.filter((e) => ids.includes(e.resourceId)).map((e) => `${e.type} ${e.resourceId}`);
    expect(about([...w.sweepOffers, ...w.sweepWaiting].map((e) => e.id)).sort()).toStrictEqual(
      [...w.sweepOffers.map((o) => `waitlist.expired ${o.id}`), ...offeredIds.map((id) => `waitlist.offered ${id}`)].sort(),
    );
  });

  it('offers freed places once when racing releases offer them', async () => {
    const { db, gateways, w } = on();
    const now = new Date('2027-01-02T00:00:00.000Z');
    const offeredByEach = await racers(gateways, 6, (tx) => offerFreedPlaces(tx, w.freedSession.id, now, 900));
    // 4 places on sale: the party of 2 then the party of 1 fit (the party of 3 between them is skipped); nobody twice.
    expect(offeredByEach.flat().sort()).toStrictEqual([w.freedWaiting[0]!.id, w.freedWaiting[2]!.id].sort());
    expect(await db.database.waitlists.findSessionById(w.freedSession.id)).toMatchObject({ reserved: 2, heldForOffers: 3 });
  });
}

// The outbox.

export async function eventRaceWorld(db: TestDb) {
  const brand = await createBrand(db);
  const { experience } = await createExperience(db, brand.id);
  const session = await createSession(db, experience, { startLocal: '2027-03-02T10:00:00', capacity: 10 });
  const holdSession = await createSession(db, experience, { startLocal: '2027-03-10T10:00:00', capacity: 10, reserved: 4 });
  const event = (id: string): EventInsert => ({
    id,
    brandId: brand.id,
    type: 'booking.created',
    resourceId: `resource-${id}`,
    payload: { id },
    createdAt: '2027-02-01T10:00:00.000Z',
  });
  // Some events before the races.
  for (const id of ['before-1', 'before-2']) await db.database.events.insertEvent(event(id));
  return { brand, session, holdSession, event };
}

export function eventRaces(on: Racing<Awaited<ReturnType<typeof eventRaceWorld>>>): void {
  it('numbers events in the order their units of work commit, whichever recorded its event first', async () => {
    const { db, gateways, w } = on();
    const [latest] = (await db.database.events.findEventPage(w.brand.id, 0, null, 1000)).slice(-1);
    let insertedFirst!: () => void;
    let commitFirst!: () => void;
    const firstInserted = new Promise<void>((resolve) => (insertedFirst = resolve));
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    const committed: string[] = [];
    const early = gateways[0]!.transaction(async (tx) => {
      await tx.events.insertEvent(w.event('event-early'));
      insertedFirst();
      await firstMayCommit;
    });
    await firstInserted;
    // The later unit commits first where units run at the same time (it waits for the earlier where one
    // writer runs at a time): either way, what is committed first is numbered first.
    const late = gateways[1 % gateways.length]!.transaction((tx) => tx.events.insertEvent(w.event('event-late'))).then(() =>
      committed.push('event-late'),
    );
    await sleep(300);
    // Nothing of the open unit shows meanwhile (on one SQLite gateway a read waits for the unit).
    if (gateways.length > 1) {
      const seen = await gateways[1]!.events.findEventPage(w.brand.id, latest!.sequence, null, 10);
      expect(seen.map((e) => e.id)).toStrictEqual(committed);
    }
    commitFirst();
    await Promise.all([early.then(() => committed.push('event-early')), late]);
    const page = await db.database.events.findEventPage(w.brand.id, latest!.sequence, null, 10);
    expect(page.map((e) => e.id)).toStrictEqual(committed);
    // Outside a unit of work, an event is numbered after those committed before it too.
    await db.database.events.insertEvent(w.event('event-alone'));
    const after = await db.database.events.findEventPage(w.brand.id, page[1]!.sequence, null, 10);
    expect(after.map((e) => e.id)).toStrictEqual(['event-alone']);
  });

  it('lets a reader paging by sequence see every event of racing writers, once and in order', async () => {
    const { db, gateways, w } = on();
    const [latest] = (await db.database.events.findEventPage(w.brand.id, 0, null, 1000)).slice(-1);
    const written = 48;
    let done = false;
    const writers = racers(gateways, written, async (tx, i) => {
      // Work in the transaction on both sides of the insert, so events are recorded well before commits.
      await tx.waitlists.findSessionById(w.session.id);
      await tx.events.insertEvent(w.event(`paged-${i}`));
      await tx.events.liveEndpointsOfBrand(w.brand.id);
      // Commits come in any order of the recording unless something keeps them in line.
      await sleep(Math.random() * 15);
      await tx.waitlists.findSessionById(w.holdSession.id);
      return `paged-${i}`;
    }).finally(() => (done = true));
    const seen: Array<{ id: string; sequence: number }> = [];
    let cursor = latest!.sequence;
    for (;;) {
      const finished = done;
      const page = await db.database.events.findEventPage(w.brand.id, cursor, null, 7);
      seen.push(...page.map((e) => ({ id: e.id, sequence: e.sequence })));
      if (page.length > 0) cursor = page[page.length - 1]!.sequence;
      else if (finished) break;
    }
    const ids = await writers;
    // Every event, once, each page after the one before: none was passed over for good.
    expect(seen.map((e) => e.id).sort()).toStrictEqual([...ids].sort());
    expect(seen.map((e) => e.sequence)).toStrictEqual([...seen.map((e) => e.sequence)].sort((a, b) => a - b));
    expect(new Set(seen.map((e) => e.sequence)).size).toBe(written);
  });

  it('commits two units that take the events and a session in opposite orders (running one again if it must)', async () => {
    const { db, gateways, w } = on();
    const bump = (tx: Transaction) =>
      tx.waitlists.holdForOffer(w.holdSession.id, 1).then(() => tx.waitlists.releaseOfferHold(w.holdSession.id, 1));
    const [latest] = (await db.database.events.findEventPage(w.brand.id, 0, null, 1000)).slice(-1);
    await Promise.all([
      gateways[0]!.transaction(async (tx) => {
        await tx.events.insertEvent(w.event('deadlock-a'));
        await sleep(100);
        await bump(tx);
      }),
      gateways[1 % gateways.length]!.transaction(async (tx) => {
        await bump(tx);
        await sleep(100);
        await tx.events.insertEvent(w.event('deadlock-b'));
      }),
    ]);
    expect(await db.database.waitlists.findSessionById(w.holdSession.id)).toMatchObject({ reserved: 4, heldForOffers: 0 });
    const page = await db.database.events.findEventPage(w.brand.id, latest!.sequence, null, 10);
    expect(page.map((e) => e.id).sort()).toStrictEqual(['deadlock-a', 'deadlock-b']);
  }, 20_000);
}

// Webhooks.

const WEBHOOK_AT = '2026-03-01T11:00:00.000Z';
const DUE_BY = '2026-03-01T13:00:00.000Z';

export async function webhookRaceWorld(db: TestDb) {
  const { database } = db;
  const brand = await createBrand(db);
  for (const id of ['ep-R1', 'ep-R2'])
    await database.webhooks.insertWebhookEndpoint({
      id,
      brandId: brand.id,
      url: `https://${id}.hooks.test/in`,
      eventTypes: ['booking.created'],
      secretCiphertext: `sealed-${id}`,
      createdAt: WEBHOOK_AT,
    });
  // 8 events of 8 resources, each to both endpoints: 16 deliveries due, none behind another.
  for (let n = 0; n < 8; n += 1) {
    await database.transaction(async (tx) => {
      await tx.events.insertEvent({
        id: `race-evt-${n}`,
        brandId: brand.id,
        type: 'booking.created',
        resourceId: `rR${n}`,
        payload: { n },
        createdAt: WEBHOOK_AT,
      });
      await tx.events.insertPendingDeliveries(
        ['ep-R1', 'ep-R2'].map((endpointId) => ({
          id: `race-d-${n}-${endpointId}`,
          endpointId,
          eventId: `race-evt-${n}`,
          resourceId: `rR${n}`,
          at: WEBHOOK_AT,
        })),
      );
    });
  }
  return { brand, deliveryIds: Array.from({ length: 8 }, (_, n) => [`race-d-${n}-ep-R1`, `race-d-${n}-ep-R2`]).flat() };
}

export function webhookRaces(on: Racing<Awaited<ReturnType<typeof webhookRaceWorld>>>): void {
  it('claims each due delivery for exactly one of 10 racing claims of two', async () => {
    const { db, gateways, w } = on();
    const ids = (rows: DueDelivery[]) => rows.map((d) => d.id);
    const dueBefore = await db.database.webhookDispatch.findDueDeliveries(DUE_BY, 1000);
    expect(ids(dueBefore)).toStrictEqual(w.deliveryIds);
    const lease = (i: number) => `2026-03-04T00:00:0${i}.000Z`;
    const claims = await across(gateways, 10, (gateway, i) => gateway.webhookDispatch.claimDueDeliveries(DUE_BY, 2, lease(i)));
    // 16 due, 10 claims of up to 2: every one claimed, none twice.
    const claimed = claims.flat().map((d) => d.id);
    expect([...claimed].sort()).toStrictEqual([...w.deliveryIds].sort());
    expect(await db.database.webhookDispatch.findDueDeliveries(DUE_BY, 1000)).toStrictEqual([]);
    // Each as it was due, with the lease its own claim gave it.
    const before = new Map(dueBefore.map((d) => [d.id, d]));
    for (const [i, claim] of claims.entries()) {
      for (const delivery of claim) {
        expect(delivery).toStrictEqual({ ...before.get(delivery.id), nextAttemptAt: lease(i) });
        expect((await db.row('webhookDeliveries', { id: delivery.id })).nextAttemptAt).toBe(lease(i));
      }
    }
  });

  it('leases no endpoint past its cap, whatever claims race on whichever gateways', async () => {
    const { db, gateways, w } = on();
    // The leases of the race above have run out: every delivery is due again, none in flight.
    const AFTER = '2026-03-05T00:00:00.000Z';
    const earliest = ['race-d-0-ep-R1', 'race-d-0-ep-R2', 'race-d-1-ep-R1', 'race-d-1-ep-R2'];
    // Event by event; within one, by due time, which the race above set in whichever order its claims took them.
    const due = (await db.database.webhookDispatch.findDueDeliveries(AFTER, 1000, 2)).map((d) => d.id);
    expect([due.slice(0, 2).sort(), due.slice(2).sort()]).toStrictEqual([earliest.slice(0, 2), earliest.slice(2)]);
    const claims = await across(gateways, 10, (gateway) =>
      gateway.webhookDispatch.claimDueDeliveries(AFTER, 10, '2026-03-05T00:00:15.000Z', 2),
    );
    // Each claim counts the leases of those before it, or passes over an endpoint another is claiming for.
    expect(
      claims
        .flat()
        .map((d) => d.id)
        .sort(),
    ).toStrictEqual([...earliest].sort());
    expect(await db.database.webhookDispatch.findDueDeliveries(AFTER, 1000, 2)).toStrictEqual([]);
    expect(await db.database.webhookDispatch.findDueDeliveries(AFTER, 1000)).toHaveLength(w.deliveryIds.length - 4);
  });

  it('swaps a sealed secret for exactly one of racing re-encryptions', async () => {
    const { db, gateways } = on();
    const outcomes = await racers(gateways, 6, (tx, i) => tx.webhooks.replaceSealedSecret('ep-R1', 'sealed-ep-R1', `new-${i}`));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await db.database.webhooks.findWebhookEndpoint('ep-R1'))!.secretCiphertext).toBe(`new-${outcomes.indexOf(true)}`);
  });

  it('leaves each delivery either delivered or given up on when its endpoint is deleted during attempts', async () => {
    const { db, gateways } = on();
    const pendingOfR2 = (await db.rows('webhookDeliveries', { endpointId: 'ep-R2', status: 'pending' })).map((row) => row.id);
    expect(pendingOfR2).toHaveLength(8);
    const delivered = {
      attempts: 1,
      attemptedAt: DUE_BY,
      finishedAt: DUE_BY,
      statusCode: 200,
      error: null,
      status: 'delivered' as const,
      nextAttemptAt: null,
    };
    await Promise.all([
      ...pendingOfR2.map((id, i) => gateways[i % gateways.length]!.transaction((tx) => tx.webhookDispatch.recordAttempt(id, delivered))),
      gateways[1 % gateways.length]!.transaction((tx) => tx.webhooks.deleteWebhookEndpointRow('ep-R2', DUE_BY, 'endpoint deleted')),
    ]);
    for (const row of await db.rows('webhookDeliveries', { endpointId: 'ep-R2' })) {
      expect([
        ['delivered', null],
        ['failed', 'endpoint deleted'],
      ]).toContainEqual([row.status, row.lastError]);
    }
    expect((await db.database.webhooks.findWebhookEndpoint('ep-R2'))!.deletedAt).toBe(DUE_BY);
  });
}

// Idempotency records.

const LEASE = '2026-03-01T11:00:00.000Z';

export async function idempotencyRaceWorld(db: TestDb) {
  // An answer to re-encrypt, of an API key of its own.
  const apiKeyId = `race-${randomUUID()}`;
  await db.database.idempotency.insertRunningRecord({ apiKeyId, key: 'a', requestHash: 'h-a', leaseExpiresAt: LEASE, createdAt: LEASE });
  await db.database.idempotency.completeRecord(apiKeyId, 'a', 201, 'sealed-a');
  return { sealedKey: { apiKeyId, key: 'a', responseBody: 'sealed-a' } };
}

export function idempotencyRaces(on: Racing<Awaited<ReturnType<typeof idempotencyRaceWorld>>>): void {
  const runningRecord = async (db: TestDb) => {
    const apiKeyId = `race-${randomUUID()}`;
    await db.database.idempotency.insertRunningRecord({ apiKeyId, key: 'k', requestHash: 'h', leaseExpiresAt: LEASE, createdAt: LEASE });
    return apiKeyId;
  };

  it('lets exactly one of 10 racing retries take over a record whose lease it read', async () => {
    const { db, gateways } = on();
    const apiKeyId = await runningRecord(db);
    const leases = Array.from({ length: 10 }, (_, i) => `2026-03-03T11:00:0${i}.000Z`);
    const outcomes = await racers(gateways, 10, (tx, i) => tx.idempotency.takeOverRecord(apiKeyId, 'k', LEASE, leases[i]!));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await db.database.idempotency.findIdempotencyRecord(apiKeyId, 'k'))?.leaseExpiresAt).toBe(leases[outcomes.indexOf(true)]);
  });

  it('either takes over a record or deletes it, never both, when takeovers race the run that held it', async () => {
    const { db, gateways } = on();
    for (let round = 0; round < 6; round += 1) {
      const apiKeyId = await runningRecord(db);
      const outcomes = await racers(gateways, 10, async (tx, i) => {
        if (i % 2 === 0) return tx.idempotency.takeOverRecord(apiKeyId, 'k', LEASE, `2026-03-03T12:00:0${i}.000Z`);
        await tx.idempotency.deleteRunningRecord(apiKeyId, 'k', LEASE);
        return false;
      });
      const found = await db.database.idempotency.findIdempotencyRecord(apiKeyId, 'k');
      if (found) {
        expect(outcomes.filter(Boolean)).toHaveLength(1);
        expect(found.leaseExpiresAt).toBe(`2026-03-03T12:00:0${outcomes.indexOf(true)}.000Z`);
      } else {
        expect(outcomes.filter(Boolean)).toHaveLength(0);
      }
    }
  });

  it('keeps the first of 6 racing answers, and lets one of 8 racing "find, else insert" units claim a new key', async () => {
    const { db, gateways } = on();
    const apiKeyId = await runningRecord(db);
    await racers(gateways, 6, (tx, i) => tx.idempotency.completeRecord(apiKeyId, 'k', 200 + i, `answer-${i}`));
    const found = (await db.database.idempotency.findIdempotencyRecord(apiKeyId, 'k'))!;
    expect(found.state).toBe('completed');
    expect(found.responseBody).toBe(`answer-${found.responseStatus! - 200}`);

    const claims = await racers(gateways, 8, async (tx, i) => {
      if (await tx.idempotency.findIdempotencyRecord(apiKeyId, 'new')) return false;
      await tx.idempotency.insertRunningRecord({ apiKeyId, key: 'new', requestHash: `h-${i}`, leaseExpiresAt: LEASE, createdAt: LEASE });
      return true;
    });
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await db.database.idempotency.findIdempotencyRecord(apiKeyId, 'new'))?.requestHash).toBe(`h-${claims.indexOf(true)}`);
  });

  it('swaps a sealed answer for exactly one of racing re-encryptions', async () => {
    const { db, gateways, w } = on();
    const { apiKeyId, key, responseBody } = w.sealedKey;
    const outcomes = await racers(gateways, 6, (tx, i) => tx.idempotency.replaceSealedAnswer(apiKeyId, key, responseBody, `new-${i}`));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await db.database.idempotency.findIdempotencyRecord(apiKeyId, key))!.responseBody).toBe(`new-${outcomes.indexOf(true)}`);
  });
}
