/**
 * Live updates across gateways of one PostgreSQL database (two pools in one process, as two gateway
 * processes): a commit on one wakes the live hub of the other through LISTEN/NOTIFY, each gateway keeps
 * one listening connection whatever its watchers, that connection comes back after the server ends it,
 * and an event no notification announced is caught up by the hub's timer.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { connect, type Connection } from '../../src/db/connect.ts';
import { LISTEN_APPLICATION_NAME } from '../../src/db/postgres/event-hints.ts';
import { watchBookingEvents, type LiveEvent } from '../../src/domain/live/booking-events.ts';
import { startLiveHub, type LiveHub } from '../../src/domain/live/hub.ts';
import type { EventInsert } from '../../src/domain/outbox/store.ts';
import type { CallerDeps } from '../../src/domain/shared/deps.ts';
import type { Database } from '../../src/domain/shared/database.ts';
import { SandboxProcessor } from '../../src/adapters/sandbox-processor.ts';
import { freshPostgresDb, type TestDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { waitFor } from '../support/webhook-receiver.ts';
import { nextWithin } from '../support/live.ts';

let db: (TestDb & { url: string }) | undefined;
let second: Connection | undefined;
let brandId = '';
if (adminUrl) {
  db = await freshPostgresDb();
  second = await connect(db.url);
  afterAll(() => second!.database.close());
  brandId = (await createBrand(db)).id;
}

const event = (n: number): EventInsert => ({
  id: randomUUID(),
  brandId,
  type: 'booking.created',
  resourceId: randomUUID(),
  payload: { n },
  createdAt: '2027-02-01T10:00:00.000Z',
});

const callerOn = (database: Database, live: LiveHub): CallerDeps => ({
  db: database,
  now: () => new Date(),
  payments: new SandboxProcessor({ now: () => new Date() }),
  holdTtlSeconds: 900,
  waitlistOfferTtlSeconds: 900,
  principal: { kind: 'brand', keyId: randomUUID(), organizationId: null, brandIds: [brandId], headerBrandId: null },
  live,
});

/** The listening connections on the test's database (as the test's own role sees them). */
const listening = () =>
  db!.value<number>(
    'SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?',
    LISTEN_APPLICATION_NAME,
  );

describePostgres('live updates on two PostgreSQL gateways', () => {
  it('brings a commit on one gateway to a watcher on the other within a second, on one listening connection', async () => {
    // A timer too slow to matter: only the notification can bring the events in time.
    const hub = await startLiveHub(second!.database, { catchUpIntervalMs: 600_000 });
    try {
      const streams = await Promise.all([1, 2, 3].map(() => watchBookingEvents(callerOn(second!.database, hub), { brandId })));
      await waitFor('the listening connection', async () => (await listening()) === 1, 3000);
      const delays: number[] = [];
      for (let n = 0; n < 20; n += 1) {
        const written = event(n);
        const start = performance.now();
        await db!.database.transaction((tx) => tx.events.insertEvent(written));
        const received = await Promise.all(streams.map((stream) => nextWithin<LiveEvent>(stream, 1000)));
        delays.push(performance.now() - start);
        expect(received.map((r) => r.event.id)).toStrictEqual([written.id, written.id, written.id]);
      }
      delays.sort((a, b) => a - b);
      process.stdout.write(
        `commit on gateway A -> 3 watchers on gateway B: median ${delays[10]!.toFixed(1)} ms, max ${delays[19]!.toFixed(1)} ms\n`,
      );
      expect(delays[19]).toBeLessThan(1000);
      // Three watchers, one hub, one connection listening for this gateway.
      expect(hub.listenerCount).toBe(3);
      expect(await listening()).toBe(1);
      for (const stream of streams) await stream.return!();
      expect(hub.listenerCount).toBe(0);
    } finally {
      await hub.close();
    }
  });

  it('listens again after the server ends the connection, and hints once for what it may have missed', async () => {
    let hints = 0;
    const stop = second!.database.onEventsCommitted(() => (hints += 1));
    await waitFor('the listening connection', async () => (await listening()) === 1, 3000);
    const before = hints;
    await db!.run(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?',
      LISTEN_APPLICATION_NAME,
    );
    // No commit meanwhile: the hint says "read, you may have missed something".
    await waitFor('the hint after listening again', () => hints > before, 5000);
    expect(await listening()).toBe(1);
    const afterReconnect = hints;
    await db!.database.transaction((tx) => tx.events.insertEvent(event(100)));
    await waitFor('the next commit heard', () => hints > afterReconnect, 2000);
    stop();
  });

  it('catches up an event no notification announced within the catch-up interval', async () => {
    const hub = await startLiveHub(second!.database, { catchUpIntervalMs: 300 });
    try {
      const stream = await watchBookingEvents(callerOn(second!.database, hub), { brandId });
      // Written as a seeder writes, outside the port's outbox: no NOTIFY, as if the notification were lost.
      const id = randomUUID();
      const start = performance.now();
      await db!.run(
        'INSERT INTO events (id, brand_id, type, resource_id, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        id,
        brandId,
        'booking.created',
        randomUUID(),
        '{"n":200}',
        '2027-02-01T10:00:00.000Z',
      );
      const received = await nextWithin(stream, 1500);
      const delay = performance.now() - start;
      process.stdout.write(`an event without a notification reached the watcher after ${delay.toFixed(0)} ms (interval 300 ms)\n`);
      expect(received.event.id).toBe(id);
      expect(delay).toBeLessThan(1500);
      await stream.return!();
    } finally {
      await hub.close();
    }
  });

  it('opens no listening connection on a gateway nobody listens on', async () => {
    const idle = await connect(db!.url);
    try {
      await idle.database.transaction((tx) => tx.events.insertEvent(event(300)));
      // The second gateway's only (it has had listeners above): the idle one writes, and listens on nothing.
      expect(await listening()).toBe(1);
    } finally {
      await idle.database.close();
    }
  });
});
