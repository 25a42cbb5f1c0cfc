/**
 * Crash safety on PostgreSQL: the real server (a child process) on a PostgreSQL database takes a burst of
 * concurrent customers and is killed with SIGKILL at a random moment mid-burst, twice; each time the
 * database it leaves, and the database after a restart, satisfy every invariant (read back into SQLite,
 * where test/support/invariants.ts checks them). After the last restart every event reaches the webhook
 * receiver, every lapsed hold is failed and every refund a kill cut off is settled.
 */
import { afterAll, expect, it } from 'vitest';
import { createWebhookEndpoint } from '../../fixtures/factories/webhooks.ts';
import { closePostgres, migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { burstUntilKilled, crashEnv, seeded, serverErrors, WORKERS } from '../support/crash-burst.ts';
import { freshDb } from '../support/db.ts';
import { invariantViolations } from '../support/invariants.ts';
import { createTestDatabase, describePostgres } from '../support/postgres.ts';
import { copyRows, sqliteCopyOf } from '../support/postgres-rows.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../support/server-process.ts';
import { createShop } from '../support/shop-world.ts';
import { startReceiver, waitFor } from '../support/webhook-receiver.ts';

const CYCLES = 2;

describePostgres('a server on PostgreSQL killed with SIGKILL mid-burst', () => {
  let server: ServerProcess | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let pg: PgDb | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await stopServerProcess(server);
    await receiver?.close();
    if (pg) await closePostgres(pg);
    await drop?.();
  });

  const violations = async () => invariantViolations((await sqliteCopyOf(pg!)).$client);
  const count = async (query: string) => Number((await pg!.$client.query<{ n: string }>(query)).rows[0]!.n);

  it('leaves, and restarts on, a database where every invariant holds and no event is lost', { timeout: 120_000 }, async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
    const random = seeded(seed);
    receiver = await startReceiver();
    const target = await createTestDatabase();
    drop = target.drop;
    const world = freshDb();
    const { shop, brand, sessionTimes } = createShop(world, { sessions: 10, capacity: 8 });
    createWebhookEndpoint(world, brand.id, { url: receiver.url('/crash') });
    pg = openPostgres(target.url, { poolSize: 2 });
    await migratePostgres(pg);
    await copyRows(world, pg);

    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      server = await startServerProcess(target.url, crashEnv);
      const { tally, interrupted, killAfter } = await burstUntilKilled(server, shop, sessionTimes, random);
      console.log(
        `PostgreSQL, seed ${seed}, cycle ${cycle}: killed ${killAfter.ms} ms after customer ${killAfter.journeys}; ${JSON.stringify(tally)}`,
      );
      expect(interrupted, `seed ${seed}`).toBe(WORKERS);
      expect(serverErrors(tally), `seed ${seed}: server errors`).toEqual([]);
      expect(await violations(), `seed ${seed}, cycle ${cycle}, right after the kill`).toEqual([]);
    }

    server = await startServerProcess(target.url, crashEnv);
    const eventIds = new Set((await pg.$client.query<{ id: string }>('SELECT id FROM events')).rows.map((row) => row.id));
    const delivered = () =>
      new Set(
        receiver!
          .at('/crash')
          .filter((r) => r.status === 200)
          .map((r) => JSON.parse(r.body).id as string),
      );
    await waitFor('every event delivered to the webhook receiver', () => [...eventIds].every((id) => delivered().has(id)), 20_000);
    const settled = async (what: string, query: string) => {
      const deadline = Date.now() + 10_000;
      while ((await count(query)) !== 0) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await settled('every lapsed hold failed', "SELECT count(*) AS n FROM bookings WHERE status = 'processing'");
    await settled('every cut-off refund reconciled', "SELECT count(*) AS n FROM refunds WHERE status = 'pending'");
    const statuses = new Set(
      (await pg.$client.query<{ status: string }>('SELECT DISTINCT status FROM bookings')).rows.map((r) => r.status),
    );
    expect(statuses, `seed ${seed}`).toEqual(new Set(['confirmed', 'cancelled', 'refunded', 'failed']));
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await violations(), `seed ${seed}, after the restart`).toEqual([]);
  });
});
