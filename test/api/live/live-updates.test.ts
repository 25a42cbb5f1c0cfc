/**
 * Live updates as clients receive them: a real graphql-ws client over a WebSocket and a real graphql-sse
 * client over HTTP, against a listening gateway, while other clients change things over REST.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb, type TestDb } from '../../support/db.ts';
import { sample, scrape } from '../../support/metrics.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { connected, listen, sseClient, subscribe, subscriptionsRunning, wsClient, type Listening } from '../../support/live.ts';
import type { Client as WsClient } from 'graphql-ws';
import type { Client as SseClient } from 'graphql-sse';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const { experience } = await createExperience(db, brand.id, {}, { priceTiers: [{ name: 'Adult', priceMinor: 5000 }], taxes: [] });

/**
 * Holds one read of a cart's row, once it has read the row, until released: the second read of `cartId`
 * (a cart watch reads it once to check the caller, then once more as it starts watching).
 */
const cartRowGate: { cartId: string | null; reads: number; reached: () => void; released: Promise<void> } = {
  cartId: null,
  reads: 0,
  reached: () => {},
  released: Promise.resolve(),
};
const carts = db.database.carts;
const database = {
  ...db.database,
  carts: {
    ...carts,
    findCartRow: async (id: string) => {
      const row = await carts.findCartRow(id);
      if (id === cartRowGate.cartId && ++cartRowGate.reads === 2) {
        cartRowGate.reached();
        await cartRowGate.released;
      }
      return row;
    },
  },
};

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp({ ...db, database } as TestDb, { now: () => NOW });
  at = await listen(t.app);
});

let day = 0;
/** A session of its own for each test, in December 2026. */
async function newSession(capacity = 10) {
  day += 1;
  const date = `2026-12-${String(day).padStart(2, '0')}`;
  return { date, session: await createSession(db, experience, { startLocal: `${date}T09:00:00`, capacity }) };
}

/** Another client's checkout over REST with the secret key: `people` places held until paid. */
async function checkout(startLocal: string, people = 2) {
  const cartId = randomUUID();
  const participants = Array.from({ length: people }, (_, i) => ({
    firstName: `Guest${i + 1}`,
    lastName: 'Silva',
    priceTierName: 'Adult',
  }));
  participants[0] = { ...participants[0]!, emailAddress: 'ana@example.test' } as (typeof participants)[0];
  const res = await t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, {
    key: secret,
    body: { data: [{ experienceId: experience.id, sessionTime: startLocal, participants }] },
  });
  expect(res.status).toBe(201);
  return { cartId, paymentIntentSecret: res.body.paymentIntentSecret as string };
}

/** Subscribes and waits until the gateway runs the watch, so a change made next reaches it. */
async function watch(client: WsClient | SseClient, query: string, variables: Record<string, unknown>) {
  const running = t.app.liveConnections.subscriptions;
  const live = subscribe(client, query, variables);
  await subscriptionsRunning(t.app, running + 1);
  return live;
}

/** The availability query's answer over HTTP, for the same key. */
async function availabilityOver(date: string, key: string) {
  const res = await t.gql(
    `query($b: UUID!, $e: UUID!, $d: LocalDate!) { availability(brandId: $b, experienceId: $e, from: $d, to: $d) { uuid capacity remaining } }`,
    { b: brand.id, e: experience.id, d: date },
    { key },
  );
  return res.body.data.availability;
}

const AVAILABILITY = `subscription($b: UUID!, $e: UUID!, $from: LocalDate!, $to: LocalDate!) {
  sessionAvailability(brandId: $b, experienceId: $e, from: $from, to: $to) { uuid capacity remaining }
}`;

describe('sessionAvailability', () => {
  it("reaches a shop page's publishable key within 1 s of another client's hold, with the exact places left", async () => {
    const { date, session } = await newSession(10);
    const client = wsClient(at.ws, { key: publishable, lazy: false });
    await connected(client);
    const live = await watch(client, AVAILABILITY, { b: brand.id, e: experience.id, from: date, to: date });
    await checkout(session.startLocal, 3);
    const started = Date.now();
    const update = await live.next(1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    // 7 places are left; a publishable key is shown what its holds may still take: the brand's
    // publishable share (50 % of 10), as the availability query shows that key.
    expect(update).toEqual({ data: { sessionAvailability: [{ uuid: session.id, capacity: 10, remaining: 5 }] } });
    expect(await availabilityOver(date, publishable)).toEqual([{ uuid: session.id, capacity: 10, remaining: 5 }]);
  });

  it('shows a secret key every place left', async () => {
    const { date, session } = await newSession(10);
    const client = wsClient(at.ws, { key: secret, lazy: false });
    await connected(client);
    const live = await watch(client, AVAILABILITY, { b: brand.id, e: experience.id, from: date, to: date });
    await checkout(session.startLocal, 3);
    expect(await live.next(1_000)).toEqual({ data: { sessionAvailability: [{ uuid: session.id, capacity: 10, remaining: 7 }] } });
  });

  it('reaches a client on Server-Sent Events the same way', async () => {
    const { date, session } = await newSession(6);
    const live = await watch(sseClient(at.http, { key: publishable }), AVAILABILITY, {
      b: brand.id,
      e: experience.id,
      from: date,
      to: date,
    });
    await checkout(session.startLocal, 2);
    expect(await live.next(1_000)).toEqual({ data: { sessionAvailability: [{ uuid: session.id, capacity: 6, remaining: 3 }] } });
    expect(await availabilityOver(date, publishable)).toEqual([{ uuid: session.id, capacity: 6, remaining: 3 }]);
  });
});

/** The booking page's subscription (examples/booking-page). */
const PAGE_CART = `subscription($b: UUID!, $c: UUID!, $s: String) { cartUpdated(brandId: $b, cartId: $c, paymentIntentSecret: $s) { uuid status confirmationCode bookings { status } } }`;

describe('cartUpdated', () => {
  it('tells the page its booking is confirmed once the guest paid in the sandbox, without polling', async () => {
    const { session } = await newSession(10);
    const { cartId, paymentIntentSecret } = await checkout(session.startLocal, 2);
    const client = wsClient(at.ws, { key: secret });
    const live = await watch(
      client,
      'subscription($b: UUID!, $c: UUID!) { cartUpdated(brandId: $b, cartId: $c) { uuid status paymentIntentStatus bookings { status session { uuid remaining } } } }',
      {
        b: brand.id,
        c: cartId,
      },
    );
    const paid = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret, outcome: 'succeeded' } });
    expect(paid.status).toBe(200);
    expect(await live.next(1_000)).toEqual({
      data: {
        cartUpdated: {
          uuid: cartId,
          status: 'PAID',
          paymentIntentStatus: 'SUCCEEDED',
          bookings: [{ status: 'CONFIRMED', session: { uuid: session.id, remaining: 8 } }],
        },
      },
    });
  });

  it('never sends a state mixed from before and after a payment that commits while the cart is read', async () => {
    const { session } = await newSession(10);
    const { cartId, paymentIntentSecret } = await checkout(session.startLocal, 2);
    let release = () => {};
    const reached = new Promise<void>((resolve) => {
      Object.assign(cartRowGate, { cartId, reads: 0, reached: resolve, released: new Promise<void>((done) => (release = done)) });
    });
    const live = subscribe(
      wsClient(at.ws, { key: secret }),
      'subscription($b: UUID!, $c: UUID!) { cartUpdated(brandId: $b, cartId: $c) { uuid status paymentIntentStatus bookings { status } } }',
      { b: brand.id, c: cartId },
    );
    // The watch has read the cart's row (still open); the payment commits before it reads the rest.
    await reached;
    const paid = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret, outcome: 'succeeded' } });
    expect(paid.status).toBe(200);
    release();
    expect(await live.next(1_000)).toEqual({
      data: { cartUpdated: { uuid: cartId, status: 'PAID', paymentIntentStatus: 'SUCCEEDED', bookings: [{ status: 'CONFIRMED' }] } },
    });
    // Nothing else follows: the payment's own event finds the state already sent.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(live.pending).toBe(0);
  });

  it("reaches the booking page's publishable key that passes its payment intent's client secret: CONFIRMED once paid", async () => {
    const { session } = await newSession(10);
    const { cartId, paymentIntentSecret } = await checkout(session.startLocal, 2);
    const live = await watch(wsClient(at.ws, { key: publishable, headers: { origin: 'https://shop.example' } }), PAGE_CART, {
      b: brand.id,
      c: cartId,
      s: paymentIntentSecret,
    });
    const paid = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret, outcome: 'succeeded' } });
    expect(paid.status).toBe(200);
    const confirmationCode = await db.value<string>('SELECT confirmation_code FROM carts WHERE id = ?', cartId);
    expect(confirmationCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(await live.next(1_000)).toEqual({
      data: { cartUpdated: { uuid: cartId, status: 'PAID', confirmationCode, bookings: [{ status: 'CONFIRMED' }] } },
    });
  });

  it('sends the settled cart at once to a page that subscribes only after its payment landed', async () => {
    const { session } = await newSession(10);
    const { cartId, paymentIntentSecret } = await checkout(session.startLocal, 1);
    const paid = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret, outcome: 'succeeded' } });
    expect(paid.status).toBe(200);
    const live = subscribe(wsClient(at.ws, { key: publishable }), PAGE_CART, { b: brand.id, c: cartId, s: paymentIntentSecret });
    expect((await live.next(1_000)).data.cartUpdated).toMatchObject({ uuid: cartId, status: 'PAID', bookings: [{ status: 'CONFIRMED' }] });
  });

  it("refuses a publishable key without the secret, with another cart's or an earlier checkout's, with one answer", async () => {
    const { session } = await newSession(10);
    const mine = await checkout(session.startLocal, 1);
    const other = await checkout(session.startLocal, 1);
    const earlier = mine.paymentIntentSecret;
    // Checking the same cart out again replaces its intent: the first secret no longer opens it.
    const again = await t.rest('POST', `/v1/brands/${brand.id}/carts/${mine.cartId}/payment_intents`, {
      key: secret,
      body: {
        data: [
          {
            experienceId: experience.id,
            sessionTime: session.startLocal,
            participants: [{ firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult', emailAddress: 'ana@example.test' }],
          },
        ],
      },
    });
    expect(again.status).toBe(201);
    const current = again.body.paymentIntentSecret as string;
    expect(current).not.toBe(earlier);
    const client = wsClient(at.ws, { key: publishable });
    const refusal = {
      errors: [
        {
          message:
            "A publishable key may watch a cart only with the client secret of the cart's current payment intent (paymentIntentSecret); or use a secret key (sk_...) from a server",
          locations: [{ line: 1, column: 50 }],
          path: ['cartUpdated'],
          extensions: { code: 'FORBIDDEN', keyKind: 'publishable' },
        },
      ],
    };
    for (const s of [undefined, '', other.paymentIntentSecret, earlier, `${current}x`]) {
      const live = subscribe(client, PAGE_CART, { b: brand.id, c: mine.cartId, s });
      expect(await live.next()).toEqual(refusal);
      expect(await live.end()).toEqual({});
    }
    // An unknown cart, even with a real secret: the same answer, not NOT_FOUND.
    const unknown = subscribe(client, PAGE_CART, { b: brand.id, c: randomUUID(), s: current });
    expect(await unknown.next()).toEqual(refusal);
    // The right secret opens it; a secret key needs none, and is not judged by one.
    const opened = await watch(client, PAGE_CART, { b: brand.id, c: mine.cartId, s: current });
    const bySecretKey = await watch(wsClient(at.ws, { key: secret }), PAGE_CART, { b: brand.id, c: mine.cartId, s: 'wrong' });
    expect(
      (await t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret: current, outcome: 'succeeded' } }))
        .status,
    ).toBe(200);
    expect((await opened.next(1_000)).data.cartUpdated.bookings).toEqual([{ status: 'CONFIRMED' }]);
    expect((await bySecretKey.next(1_000)).data.cartUpdated.bookings).toEqual([{ status: 'CONFIRMED' }]);
  });
});

const EVENTS = `subscription($b: UUID!, $after: String) {
  bookingEvents(brandId: $b, after: $after) { cursor node { type data } }
}`;

describe('bookingEvents', () => {
  it('is refused to a publishable key with FORBIDDEN', async () => {
    const live = subscribe(wsClient(at.ws, { key: publishable }), EVENTS, { b: brand.id });
    const answer = await live.next();
    expect(answer.errors?.map((e) => [e.message, e.extensions])).toEqual([
      [
        'A publishable key may not use bookingEvents: use a secret key (sk_...) from a server',
        { code: 'FORBIDDEN', keyKind: 'publishable' },
      ],
    ]);
    expect(await live.end()).toEqual({});
  });

  it('resumes from the last cursor received: nothing written while disconnected is missed, nothing repeated', async () => {
    const { session } = await newSession(20);
    const bookingOf = (edge: { node: { data: { id: string; cartId: string } } }) => edge.node.data.cartId;
    const client = wsClient(at.ws, { key: secret });
    const first = await watch(client, EVENTS, { b: brand.id });
    const a = await checkout(session.startLocal, 1);
    const seen = (await first.next(1_000)).data.bookingEvents;
    expect([seen.node.type, bookingOf(seen)]).toEqual(['BOOKING_CREATED', a.cartId]);
    first.dispose();

    // Written while the subscriber is away.
    const b = await checkout(session.startLocal, 1);
    expect(
      (
        await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
          body: { paymentIntentSecret: b.paymentIntentSecret, outcome: 'succeeded' },
        })
      ).status,
    ).toBe(200);
    const c = await checkout(session.startLocal, 1);

    const again = await watch(client, EVENTS, { b: brand.id, after: seen.cursor });
    const d = await checkout(session.startLocal, 1);
    const received = [];
    for (let i = 0; i < 4; i++) received.push((await again.next(1_000)).data.bookingEvents);
    expect(received.map((edge) => [edge.node.type, bookingOf(edge)])).toEqual([
      ['BOOKING_CREATED', b.cartId],
      ['BOOKING_CONFIRMED', b.cartId],
      ['BOOKING_CREATED', c.cartId],
      ['BOOKING_CREATED', d.cartId],
    ]);
    // Cursors only grow: each is the position to resume after.
    expect(new Set(received.map((edge) => edge.cursor)).size).toBe(4);
    expect(again.pending).toBe(0);
  });
});

describe('subscriptions per connection', () => {
  it('refuses the 101st subscription on one connection with TOO_MANY_SUBSCRIPTIONS, and takes one again once one completed', async () => {
    const { date } = await newSession(10);
    const client = wsClient(at.ws, { key: secret, lazy: false });
    await connected(client);
    const running = t.app.liveConnections.subscriptions;
    const variables = { b: brand.id, e: experience.id, from: date, to: date };
    const open = Array.from({ length: 100 }, () => subscribe(client, AVAILABILITY, variables));
    const refused = subscribe(client, AVAILABILITY, variables);
    expect((await refused.end()).error).toEqual([
      {
        message:
          'This connection already has 100 subscriptions open, the most it may (LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION); complete one first.',
        extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 100 },
      },
    ]);
    await subscriptionsRunning(t.app, running + 100);
    // What an operator sees of them: the gateway's own counts, at the scrape.
    const metrics = await scrape(t);
    expect(sample(metrics, 'live_subscriptions')).toBe(running + 100);
    expect(sample(metrics, 'live_connections')).toBe(t.app.liveConnections.size);
    open[0]!.dispose();
    await subscriptionsRunning(t.app, running + 99);
    await watch(client, AVAILABILITY, variables);
    expect(client.closed).toEqual([]);
  });
});
