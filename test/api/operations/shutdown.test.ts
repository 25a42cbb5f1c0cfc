/**
 * SIGTERM on the real server (a child process, as `npm start` runs it). With a drain window
 * (SHUTDOWN_DRAIN_MS), readiness fails first while requests are still served, answered with
 * `Connection: close`. Then (at once without a window) the request in flight is
 * answered and its connection closed, new connections are refused, requests that arrive on open
 * connections meanwhile get 503 and are not run, the webhook delivery in flight is recorded, the
 * database is left consistent and the process exits 0. SHUTDOWN_TIMEOUT_MS and a second signal cut the
 * drain short. A restart carries on from the database: holds that lapsed meanwhile are failed at once
 * and pending webhook deliveries go out.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkout, fetchSender, guests, type Shop } from '../../support/booking-traffic.ts';
import { freshSharedDb, type TestDb } from '../../support/db.ts';
import { createWebhookEndpoint } from '../../../fixtures/factories/webhooks.ts';
import { invariantViolations } from '../../support/invariants.ts';
import { requestBegunOnKeptAliveConnection, slowRequest, type RawRequest } from '../../support/raw-http.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../../support/server-process.ts';
import { createShop } from '../../support/shop-world.ts';
import { startReceiver, waitFor } from '../../support/webhook-receiver.ts';

const receiver = await startReceiver();
let server: ServerProcess | undefined;

afterEach(() => stopServerProcess(server));
afterAll(() => receiver.close());

/**
 * A database of its own (`url` for the server processes, `db` to read back what they left) with a shop
 * (2 sessions of 4 places) whose booking.created events go to `hookPath` on the receiver.
 */
async function world(hookPath: string) {
  const { db, url } = await freshSharedDb();
  const made = await createShop(db, { sessions: 2, capacity: 4 });
  await createWebhookEndpoint(db, made.brand.id, { url: receiver.url(hookPath), events: ['booking.created', 'booking.failed'] });
  return { db, url, ...made };
}

// Made here, not in the tests: each database is dropped (or its file removed) after the file's tests.
const worlds = {
  window: await world('/window'),
  drain: await world('/drain'),
  timeout: await world('/timeout'),
  twice: await world('/twice'),
  restart: await world('/restart'),
};

const checkoutRequest = (shop: Shop, sessionTime: string, count: number): RawRequest => ({
  method: 'POST',
  path: `/v1/brands/${shop.brandId}/carts/${randomUUID()}/payment_intents`,
  headers: { authorization: `Bearer ${shop.key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ data: [{ experienceId: shop.experienceId, sessionTime, participants: guests(count) }] }),
});

/** A checkout the server has taken up but whose last bytes have not arrived yet: a client on a slow network. */
const checkoutInFlight = (srv: ServerProcess, shop: Shop, sessionTime: string) =>
  slowRequest(srv.port, checkoutRequest(shop, sessionTime, 2));

const refused = async (url: string) => {
  try {
    await fetch(`${url}/healthz`);
    return 'answered';
  } catch (error) {
    return String((error as { cause?: { code?: string } }).cause?.code);
  }
};

async function readDb(db: TestDb) {
  return {
    violations: await invariantViolations(db),
    bookings: await db.all('SELECT status, count(*) AS n FROM bookings GROUP BY status'),
    // A comparison is 1/0 on SQLite and a boolean on PostgreSQL: CASE makes it a number on both.
    deliveries: await db.all<{ status: string; attempts: number; leased: number }>(
      'SELECT status, attempts, CASE WHEN next_attempt_at > created_at THEN 1 ELSE 0 END AS leased FROM webhook_deliveries ORDER BY event_sequence',
    ),
  };
}

describe('SIGTERM', () => {
  it(
    'with SHUTDOWN_DRAIN_MS, fails readiness first and serves what arrives during the window; then refuses connections, finishes the request in flight and exits 0',
    { timeout: 40_000 },
    async () => {
      receiver.respond = () => 200;
      const { db, url, shop, sessionTimes } = worlds.window;
      server = await startServerProcess(url, { SHUTDOWN_DRAIN_MS: '3000', READINESS_CACHE_MS: '0' });
      const send = fetchSender(server.url);
      expect(await send('GET', '/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
      const slow = await checkoutInFlight(server, shop, sessionTimes[1]!);

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await server.waitForOutput('shutting down: /readyz answers 503; still serving for SHUTDOWN_DRAIN_MS (3000 ms)');
      const readyz = await fetch(`${server.url}/readyz`);
      expect(readyz.status).toBe(503);
      expect(await readyz.json()).toEqual({ status: 'unavailable', reason: 'shutting down' });
      expect(readyz.headers.get('connection')).toBe('close');

      // A load balancer that has not caught up yet still sends: served in full, on a new connection.
      const during = await checkout(send, shop, sessionTimes[0]!, 1);
      expect(during).toMatchObject({ status: 201, secret: expect.stringMatching(/^pi_sbx_/) });
      expect(server.output()).not.toContain('shutting down: draining');

      // The window ends: the listener closes, no earlier than SHUTDOWN_DRAIN_MS after the signal.
      await server.waitForOutput('shutting down: draining');
      let state = await refused(server.url);
      while (state !== 'ECONNREFUSED' && Date.now() - signalled < 6000) state = await refused(server.url);
      expect(state).toBe('ECONNREFUSED');
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(3000);

      // The checkout in flight since before the signal is still answered.
      slow.finish();
      const [answered, ...more] = await slow.responses;
      expect(answered!.status).toBe(201);
      expect(answered!.headers.connection).toBe('close');
      expect(more).toEqual([]);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.output()).toContain('shut down cleanly');

      const after = await readDb(db);
      expect(after.violations).toEqual([]);
      expect(after.bookings).toEqual([{ status: 'processing', n: 2 }]);
    },
  );

  it(
    'drains: the request in flight is answered, later ones are refused and never run, the delivery in flight is recorded, exit 0',
    { timeout: 40_000 },
    async () => {
      const held: ServerResponse[] = [];
      receiver.respond = ({ path, count }) => (path === '/drain' && held.length === 0 && count === 0 ? (res) => held.push(res) : 200);
      const { db, url, shop, sessionTimes } = worlds.drain;
      server = await startServerProcess(url);

      expect((await checkout(fetchSender(server.url), shop, sessionTimes[0]!, 1)).status).toBe(201);
      await waitFor('the booking.created delivery to reach the receiver', () => held.length === 1);
      // Taken up before the signal: a checkout begun on a kept-alive connection (only its first line
      // has arrived), then a checkout whose body is still arriving.
      const late = await requestBegunOnKeptAliveConnection(server.port, checkoutRequest(shop, sessionTimes[0]!, 1));
      const slow = await checkoutInFlight(server, shop, sessionTimes[1]!);

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await server.waitForOutput('shutting down: draining');
      let state = await refused(server.url);
      while (state !== 'ECONNREFUSED' && Date.now() - signalled < 2000) state = await refused(server.url);
      expect(state).toBe('ECONNREFUSED');

      // The begun request completes during the drain: refused in the API's error shape, not run.
      late.finish();
      const [turnedAway, ...noMore] = await late.responses;
      expect(turnedAway!.status).toBe(503);
      expect(turnedAway!.headers).toMatchObject({ connection: 'close', 'retry-after': '1' });
      expect(JSON.parse(turnedAway!.body).error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The server is shutting down; retry the request',
      });
      expect(noMore).toEqual([]);

      // The rest of the slow body, and another checkout pipelined behind it: the first is answered and its
      // connection closed (no idle keep-alive to wait for); the pipelined one is never run.
      slow.finish(checkoutRequest(shop, sessionTimes[0]!, 1));
      const [answered, ...dropped] = await slow.responses;
      expect(answered!.status).toBe(201);
      expect(answered!.headers.connection).toBe('close');
      expect(JSON.parse(answered!.body).paymentIntentSecret).toMatch(/^pi_sbx_/);
      expect(dropped).toEqual([]);

      // The webhook delivery is still in flight: the process waits for it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.child.exitCode).toBe(null);
      held[0]!.writeHead(200).end();
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.output()).toContain('shut down cleanly');

      const after = await readDb(db);
      expect(after.violations).toEqual([]);
      // The first checkout and the slow one; neither refused request left anything.
      expect(after.bookings).toEqual([{ status: 'processing', n: 2 }]);
      // The delivery in flight was recorded as delivered. The slow checkout's event came during the drain,
      // when no new delivery starts: it waits, never attempted nor leased, for the next process.
      expect(after.deliveries).toEqual([
        { status: 'delivered', attempts: 1, leased: 1 },
        { status: 'pending', attempts: 0, leased: 0 },
      ]);
    },
  );

  it('gives up after SHUTDOWN_TIMEOUT_MS with a log line and exit code 1', { timeout: 40_000 }, async () => {
    const { db, url, shop, sessionTimes } = worlds.timeout;
    server = await startServerProcess(url, { SHUTDOWN_TIMEOUT_MS: '500' });
    await checkoutInFlight(server, shop, sessionTimes[0]!);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(500);
    expect(Date.now() - signalled).toBeLessThan(3000);
    expect(server.output()).toContain('shutdown did not finish within SHUTDOWN_TIMEOUT_MS (500 ms): exiting');
    expect((await readDb(db)).violations).toEqual([]);
  });

  it('exits at once on a second signal', { timeout: 40_000 }, async () => {
    const { db, url, shop, sessionTimes } = worlds.twice;
    server = await startServerProcess(url);
    await checkoutInFlight(server, shop, sessionTimes[0]!);
    server.child.kill('SIGTERM');
    await server.waitForOutput('shutting down: draining');
    const again = Date.now();
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 130, signal: null });
    expect(Date.now() - again).toBeLessThan(1000);
    expect(server.output()).toContain('second signal while shutting down: exiting without waiting for in-flight work');
    expect((await readDb(db)).violations).toEqual([]);
  });
});

describe('a restart', () => {
  it(
    'fails the holds that lapsed while no server ran, returning their places, and sends the pending deliveries',
    { timeout: 40_000 },
    async () => {
      let up = false;
      receiver.respond = ({ path }) => (path === '/restart' && !up ? 503 : 200);
      const { db, url, shop, sessionTimes } = worlds.restart;
      server = await startServerProcess(url, { HOLD_TTL_SECONDS: '1', WEBHOOK_RETRY_BASE_SECONDS: '0.1' });
      const send = fetchSender(server.url);
      const held = await checkout(send, shop, sessionTimes[0]!, 3);
      expect(held.status).toBe(201);
      await waitFor('a refused delivery attempt', () => receiver.at('/restart').length >= 1);
      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      const down = await readDb(db);
      expect(down.bookings).toEqual([{ status: 'processing', n: 1 }]);
      expect(down.deliveries.map((d) => d.status)).toEqual(['pending']);

      await new Promise((resolve) => setTimeout(resolve, 1100)); // the hold lapses while nothing runs
      up = true;
      server = await startServerProcess(url, { HOLD_TTL_SECONDS: '1' });
      const availability = await fetchSender(server.url)(
        'GET',
        `/v1/brands/${shop.brandId}/experiences/${shop.experienceId}/availability?from=${sessionTimes[0]!.slice(0, 10)}&to=${sessionTimes[0]!.slice(0, 10)}`,
        { key: shop.key },
      );
      expect(availability.body.data[0]).toMatchObject({ startDateTime: `${sessionTimes[0]}:00`, remaining: 4 });
      const restarted = await readDb(db);
      expect(restarted.bookings).toEqual([{ status: 'failed', n: 1 }]);
      expect(restarted.violations).toEqual([]);

      await waitFor(
        'booking.created then booking.failed delivered',
        () => receiver.at('/restart').filter((r) => r.status === 200).length === 2,
      );
      expect(
        receiver
          .at('/restart')
          .filter((r) => r.status === 200)
          .map((r) => JSON.parse(r.body).type),
      ).toEqual(['booking.created', 'booking.failed']);
    },
  );
});
