/**
 * Crash safety. The real server (a child process) takes a burst of concurrent customers (checkouts,
 * sandbox payments, cancellations of whole bookings and of participants, refunds, waitlist joins,
 * lapsing holds and offers) and is killed with SIGKILL at a random moment mid-burst, twice; each time
 * the database it leaves (a SQLite file, or a PostgreSQL database), and the database after a restart on
 * it, satisfy every invariant (test/support/invariants.ts): places, refunds, participants, events, deliveries, integrity. After the last restart
 * every event reaches the webhook receiver (none was lost) and the refund reconciler settles every
 * refund a kill cut off between its reservation and its settlement (none stays pending).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { burstUntilKilled, crashEnv as env, seeded, serverErrors, WORKERS } from '../../support/crash-burst.ts';
import { freshSharedDb } from '../../support/db.ts';
import { createWebhookEndpoint } from '../../../fixtures/factories/webhooks.ts';
import { invariantViolations } from '../../support/invariants.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../../support/server-process.ts';
import { createShop } from '../../support/shop-world.ts';
import { startReceiver, waitFor } from '../../support/webhook-receiver.ts';

const CYCLES = 2;

// The database the server processes run on (DATABASE_URL = url); `db` reads back what they left.
const { db, url } = await freshSharedDb();
const receiver = await startReceiver();
let server: ServerProcess | undefined;

afterAll(async () => {
  await stopServerProcess(server);
  await receiver.close();
});

const count = async (sql: string) => (await db.value(sql)) as number;

describe('a server killed with SIGKILL mid-burst', () => {
  it('leaves, and restarts on, a database where every invariant holds and no event is lost', { timeout: 120_000 }, async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
    const random = seeded(seed);
    const { shop, brand, sessionTimes } = await createShop(db, { sessions: 10, capacity: 8 });
    await createWebhookEndpoint(db, brand.id, { url: receiver.url('/crash') });
    const started = Date.now();
    const phases: string[] = [];
    const phase = (name: string, since: number) => phases.push(`${name} ${Date.now() - since} ms`);

    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const starting = Date.now();
      server = await startServerProcess(url, env);
      phase('start', starting);
      const bursting = Date.now();
      const { tally, interrupted, killAfter } = await burstUntilKilled(server, shop, sessionTimes, random);
      phase('burst', bursting);
      console.log(
        `${db.engine}, seed ${seed}, cycle ${cycle}: killed ${killAfter.ms} ms after customer ${killAfter.journeys}; ${JSON.stringify(tally)}`,
      );
      expect(interrupted, `seed ${seed}`).toBe(WORKERS);
      expect(serverErrors(tally), `seed ${seed}: server errors`).toEqual([]);
      expect(await invariantViolations(db), `seed ${seed}, cycle ${cycle}, right after the kill`).toEqual([]);
    }

    // The last restart: the sweeper fails the lapsed holds and expires the offers, the dispatcher catches up,
    // the reconciler settles the refunds the kills cut off.
    const cutOff = await count("SELECT count(*) FROM refunds WHERE status = 'pending'");
    const restarting = Date.now();
    server = await startServerProcess(url, env);
    phase('start', restarting);
    const catchingUp = Date.now();
    const eventIds = new Set((await db.values('SELECT id FROM events')) as string[]);
    const delivered = () =>
      new Set(
        receiver
          .at('/crash')
          .filter((r) => r.status === 200)
          .map((r) => JSON.parse(r.body).id as string),
      );
    await waitFor(
      'every event delivered to the webhook receiver',
      () => {
        const got = delivered();
        return [...eventIds].every((id) => got.has(id));
      },
      20_000,
    );
    await waitFor(
      'every lapsed hold failed',
      async () => (await count("SELECT count(*) FROM bookings WHERE status = 'processing'")) === 0,
      10_000,
    );
    await waitFor(
      'every cut-off refund reconciled',
      async () => (await count("SELECT count(*) FROM refunds WHERE status = 'pending'")) === 0,
      10_000,
    );
    phase('catch-up', catchingUp);
    // An Idempotency-Key whose request was cut off stays `running` until a retry takes it over after its lease.
    phases.push(
      `reconciled: ${cutOff} cut-off refund(s); left running: ${await count("SELECT count(*) FROM idempotency_keys WHERE state = 'running'")} idempotency key(s)`,
    );
    const statuses = new Set(await db.values('SELECT DISTINCT status FROM bookings'));
    expect(statuses, `seed ${seed}`).toEqual(new Set(['confirmed', 'cancelled', 'refunded', 'failed']));
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await invariantViolations(db), `seed ${seed}, after the restart`).toEqual([]);
    console.log(`crash test on ${db.engine}: ${CYCLES} kills and restarts in ${Date.now() - started} ms (${phases.join(', ')})`);
  });
});
