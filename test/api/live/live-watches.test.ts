/**
 * The domain's live watches (src/domain/live) through the port, on either engine: the changes other
 * callers make over HTTP reach a watcher through the hub, with the values the queries show, and each
 * watch checks its caller first as the matching query does.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import type { Principal } from '../../../src/domain/access/principal.ts';
import type { Session } from '../../../src/domain/availability/sessions.ts';
import type { Cart } from '../../../src/domain/bookings/carts.ts';
import { watchSessionAvailability } from '../../../src/domain/live/availability.ts';
import { MAX_UNREAD_EVENTS, watchBookingEvents, type LiveEvent } from '../../../src/domain/live/booking-events.ts';
import { watchCart } from '../../../src/domain/live/carts.ts';
import { startLiveHub } from '../../../src/domain/live/hub.ts';
import { watchWaitlistEntry } from '../../../src/domain/live/waitlist-entries.ts';
import { eventCursor } from '../../../src/domain/outbox/feed.ts';
import type { CallerDeps } from '../../../src/domain/shared/deps.ts';
import { DomainError } from '../../../src/domain/shared/errors.ts';
import type { WaitlistEntry } from '../../../src/domain/waitlists/entry-view.ts';
import { OFFER_TTL, waitlistWorld } from '../../support/waitlist-world.ts';
import { waitFor } from '../../support/webhook-receiver.ts';
import { nextWithin } from '../../support/live.ts';

const w = await waitlistWorld();
const { db, brand, sister, keys, sail } = w;
// A short catch-up interval: a hint missed by this test's hub costs little; the hints themselves are what these tests wait for.
const hub = await startLiveHub(db.database, { catchUpIntervalMs: 250 });
afterAll(() => hub.close());

const principal = (kind: Principal['kind'], brandId = brand.id): Principal => ({
  kind,
  keyId: randomUUID(),
  organizationId: null,
  brandIds: [brandId],
  headerBrandId: null,
});
const callerOf = (kind: Principal['kind'], brandId = brand.id, live: CallerDeps['live'] | null = hub): CallerDeps => ({
  db: db.database,
  now: () => w.clock.now,
  payments: new SandboxProcessor({ now: () => w.clock.now }),
  holdTtlSeconds: 900,
  waitlistOfferTtlSeconds: OFFER_TTL,
  principal: principal(kind, brandId),
  live: live ?? undefined,
});
const secret = callerOf('brand');
const publishable = callerOf('publishable');

async function errorOf(run: () => Promise<unknown>): Promise<{ code: string; details: unknown }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('expected a DomainError');
}

const guests = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ firstName: `Guest${i + 1}`, lastName: 'Costa', priceTierName: 'Adult' }));
const hold = (s: { startLocal: string }, count: number, cartId: string = randomUUID()) =>
  w.checkout({ data: [{ experienceId: sail.id, sessionTime: s.startLocal.slice(0, 16), participants: guests(count) }] }, cartId);

describe('live session availability', () => {
  it('yields the session a hold by another caller changed, with remaining down by exactly the places held, as each key sees it', async () => {
    const outside = await w.session(10, 0);
    const inside = await w.session(10, 0);
    const range = { brandId: brand.id, experienceId: sail.id, from: inside.startLocal.slice(0, 10), to: '2027-01-31' };
    const bySecret = await watchSessionAvailability(secret, range);
    const byPublishable = await watchSessionAvailability(publishable, range);

    // A session outside the range changes first: it is not shown.
    expect((await hold(outside, 2)).status).toBe(201);
    const held = Date.now();
    expect((await hold(inside, 3)).status).toBe(201);
    const view = (remaining: number): Session => ({
      id: inside.id,
      startDateTime: inside.startLocal,
      timezone: sail.timezoneId,
      duration: inside.durationMinutes,
      capacity: 10,
      remaining,
      waitlistId: w.waitlist.id,
      status: 'scheduled',
    });
    expect(await nextWithin(bySecret, 1000)).toStrictEqual([view(7)]);
    const latency = Date.now() - held;
    // A publishable key sees what it can hold: the brand's publishable share (50 % of 10), none held by publishable keys.
    expect(await nextWithin(byPublishable, 1000)).toStrictEqual([view(5)]);
    expect(latency).toBeLessThan(1000);

    expect(hub.listenerCount).toBe(1);
    await bySecret.return!();
    expect(hub.listenerCount).toBe(1);
    await byPublishable.return!();
    expect(hub.listenerCount).toBe(0);
  });

  it('yields each change of places in order, a session once per value', async () => {
    const s = await w.session(10, 0);
    const stream = await watchSessionAvailability(secret, {
      brandId: brand.id,
      experienceId: sail.id,
      from: '2027-01-01',
      to: '2027-01-31',
    });
    for (const count of [1, 2, 3]) expect((await hold(s, count)).status).toBe(201);
    // Holds read in one batch or several come as fewer values, never as an older state after a newer one.
    const seen: number[] = [];
    while (seen.at(-1) !== 4) {
      const value = await nextWithin(stream);
      expect(value.map((x) => x.id)).toStrictEqual([s.id]);
      seen.push(value[0]!.remaining);
    }
    expect(seen.every((remaining, i) => i === 0 || remaining < seen[i - 1]!)).toBe(true);
    expect([9, 7, 4]).toEqual(expect.arrayContaining(seen));
    await stream.return!();
    expect(hub.listenerCount).toBe(0);
  });

  it('follows a waitlist offer: places freed by a cancellation and held for the first entry', async () => {
    const s = await w.session(2, 2);
    const joined = await w.join(w.body(s, 1));
    expect(joined.status).toBe(201);
    const stream = await watchSessionAvailability(publishable, {
      brandId: brand.id,
      experienceId: sail.id,
      from: '2027-01-01',
      to: '2027-01-31',
    });
    const entry = await watchWaitlistEntry(publishable, { brandId: brand.id, entryId: joined.body.id });
    const cancelled = await w.t().rest('POST', '/v1/bookings/cancel', {
      key: keys.brand,
      body: { bookings: [{ bookingId: s.booking!.booking.id, participants: [s.booking!.participants[0]!.id] }] },
    });
    expect(cancelled.status).toBe(200);
    // One place freed and at once held for the entry: none on sale.
    expect((await nextWithin(stream)).map((x) => [x.id, x.remaining])).toStrictEqual([[s.id, 0]]);
    const offered: WaitlistEntry = await nextWithin(entry);
    expect([offered.id, offered.status, offered.offerExpiresAt, offered.brandId]).toStrictEqual([
      joined.body.id,
      'offered',
      w.later(OFFER_TTL).toISOString(),
      brand.id,
    ]);
    await stream.return!();
    await entry.return!();
    expect(hub.listenerCount).toBe(0);
  });

  it('checks the caller as the availability query does', async () => {
    const input = { brandId: brand.id, experienceId: sail.id, from: '2027-01-01', to: '2027-01-31' };
    expect(await errorOf(() => watchSessionAvailability(callerOf('brand', sister.id), input))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await errorOf(() => watchSessionAvailability(secret, { ...input, experienceId: randomUUID() }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await errorOf(() => watchSessionAvailability(secret, { ...input, to: '2026-12-31' }))).toStrictEqual({
      code: 'VALIDATION_FAILED',
      details: { field: 'to' },
    });
    expect(await errorOf(() => watchSessionAvailability(callerOf('brand', brand.id, null), input))).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(hub.listenerCount).toBe(0);
  });
});

describe('live carts', () => {
  it('moves a cart to paid with its booking confirmed after the sandbox payment', async () => {
    const s = await w.session(10, 0);
    const cartId = randomUUID();
    const checkout = await hold(s, 2, cartId);
    expect(checkout.status).toBe(201);
    const stream = await watchCart(secret, { brandId: brand.id, cartId });
    const paid = await w.t().rest('POST', '/v1/sandbox/payment_intents/confirm', {
      body: { paymentIntentSecret: checkout.body.paymentIntentSecret, outcome: 'succeeded' },
    });
    expect(paid.status).toBe(200);
    // The checkout's own event may still be on its way to the hub: its state (open, processing) comes first then.
    let cart: Cart = await nextWithin(stream);
    if (cart.status === 'open') {
      expect(cart.bookings.map((b) => b.status)).toStrictEqual(['processing']);
      cart = await nextWithin(stream);
    }
    expect([cart.id, cart.status, cart.paymentIntentStatus, cart.totalAmount, cart.bookings.map((b) => b.status)]).toStrictEqual([
      cartId,
      'paid',
      'succeeded',
      111.93,
      ['confirmed'],
    ]);
    await stream.return!();
    expect(hub.listenerCount).toBe(0);
  });

  it('checks the caller as the cart query does: secret keys of the brand, a cart of the brand', async () => {
    const s = await w.session(10, 0);
    const cartId = randomUUID();
    expect((await hold(s, 1, cartId)).status).toBe(201);
    expect(await errorOf(() => watchCart(publishable, { brandId: brand.id, cartId }))).toMatchObject({
      code: 'FORBIDDEN',
      details: { keyKind: 'publishable' },
    });
    expect(await errorOf(() => watchCart(callerOf('brand', sister.id), { brandId: brand.id, cartId }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await errorOf(() => watchCart(secret, { brandId: brand.id, cartId: randomUUID() }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(hub.listenerCount).toBe(0);
  });
});

describe('live waitlist entries', () => {
  it('checks the caller as leaving the waitlist does', async () => {
    const s = await w.session(2, 2);
    const joined = await w.join(w.body(s, 1));
    expect(
      await errorOf(() => watchWaitlistEntry(callerOf('brand', sister.id), { brandId: sister.id, entryId: joined.body.id })),
    ).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(
      await errorOf(() => watchWaitlistEntry(callerOf('brand', sister.id), { brandId: brand.id, entryId: joined.body.id })),
    ).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(hub.listenerCount).toBe(0);
  });
});

describe('live booking events', () => {
  it('refuses publishable keys, as the events feed does, and checks the cursor and types', async () => {
    expect(await errorOf(() => watchBookingEvents(publishable, { brandId: brand.id }))).toStrictEqual({
      code: 'FORBIDDEN',
      details: { keyKind: 'publishable' },
    });
    expect(await errorOf(() => watchBookingEvents(secret, { brandId: brand.id, after: 'not-a-cursor' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'after' },
    });
    expect(await errorOf(() => watchBookingEvents(secret, { brandId: brand.id, types: ['booking.nope'] }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'types' },
    });
    expect(await errorOf(() => watchBookingEvents(callerOf('brand', sister.id), { brandId: brand.id }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(hub.listenerCount).toBe(0);
  });

  it('resumes from a cursor while events are written: every later event once, in order, replayed then live', async () => {
    const s = await w.session(40, 0);
    for (let i = 0; i < 4; i += 1) expect((await hold(s, 1)).status).toBe(201);
    const before = await db.database.events.findEventPage(brand.id, 0, null, 1000);
    const resumeAt = before[before.length - 3]!;
    // Writers keep checking out while the watcher replays and goes live.
    const writing = Promise.all(Array.from({ length: 12 }, () => hold(s, 1)));
    const stream = await watchBookingEvents(secret, { brandId: brand.id, after: eventCursor(resumeAt.sequence) });
    // Two events after the cursor, then one booking.created per checkout.
    const got: LiveEvent[] = [];
    while (got.length < 2 + 12) got.push(await nextWithin(stream, 3000));
    expect((await writing).map((res) => res.status)).toStrictEqual(Array.from({ length: 12 }, () => 201));
    const all = await db.database.events.findEventPage(brand.id, resumeAt.sequence, null, 1000);
    expect(all.length).toBe(2 + 12);
    expect(got.map((g) => g.cursor)).toStrictEqual(all.map((e) => eventCursor(e.sequence)));
    expect(got.map((g) => g.event)).toStrictEqual(all.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt, data: e.payload })));
    await stream.return!();
    expect(hub.listenerCount).toBe(0);
  });

  it('ends with SLOW_CONSUMER once more events wait unread than it keeps, and unregisters at once', async () => {
    const stream = await watchBookingEvents(secret, { brandId: brand.id, types: ['booking.created'] });
    await db.database.transaction(async (tx) => {
      for (let n = 0; n <= MAX_UNREAD_EVENTS; n += 1) {
        await tx.events.insertEvent({
          id: randomUUID(),
          brandId: brand.id,
          type: 'booking.created',
          resourceId: randomUUID(),
          payload: { n },
          createdAt: w.clock.now.toISOString(),
        });
      }
    });
    await waitFor('the stream to give up', () => hub.listenerCount === 0, 5000);
    expect(await errorOf(() => stream.next())).toStrictEqual({ code: 'SLOW_CONSUMER', details: { maxUnread: MAX_UNREAD_EVENTS } });
    expect(await stream.next()).toStrictEqual({ value: undefined, done: true });
  });
});
