/**
 * Crash safety. The real server (a child process) takes a burst of concurrent customers (checkouts,
 * sandbox payments, cancellations of whole bookings and of participants, refunds, waitlist joins,
 * lapsing holds and offers) and is killed with SIGKILL at a random moment mid-burst, twice; each time
 * the file it leaves, and the file after a restart on it, satisfy every invariant (test/support/
 * invariants.ts): places, refunds, participants, events, deliveries, integrity. After the last restart
 * every event reaches the webhook receiver (none was lost) and the refund reconciler settles every
 * refund a kill cut off between its reservation and its settlement (none stays pending).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/db/sqlite/client.ts';
import { burstUntilKilled, crashEnv as env, seeded, serverErrors, WORKERS } from '../../support/crash-burst.ts';
import { createWebhookEndpoint } from '../../../fixtures/factories/webhooks.ts';
import { invariantViolations } from '../../support/invariants.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../../support/server-process.ts';
import { createShop } from '../../support/shop-world.ts';
import { startReceiver, waitFor } from '../../support/webhook-receiver.ts';

const CYCLES = 2;

const dir = mkdtempSync(join(tmpdir(), 'tessera-crash-'));
const file = join(dir, 'tessera.sqlite');
const receiver = await startReceiver();
let server: ServerProcess | undefined;

afterAll(async () => {
  await stopServerProcess(server);
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

function pendingRefundsOnDisk(): number {
  const db = openDatabase(file);
  try {
    return db.$client.prepare("SELECT count(*) FROM refunds WHERE status = 'pending'").pluck().get() as number;
  } finally {
    closeDatabase(db);
  }
}

function violationsOnDisk(): string[] {
  const db = openDatabase(file);
  try {
    return invariantViolations(db.$client);
  } finally {
    closeDatabase(db);
  }
}

describe('a server killed with SIGKILL mid-burst', () => {
  it('leaves, and restarts on, a database where every invariant holds and no event is lost', { timeout: 90_000 }, async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
    const random = seeded(seed);
    const setup = openDatabase(file);
    const { shop, brand, sessionTimes } = createShop(setup, { sessions: 10, capacity: 8 });
    createWebhookEndpoint(setup, brand.id, { url: receiver.url('/crash') });
    closeDatabase(setup);
    const started = Date.now();
    const phases: string[] = [];
    const phase = (name: string, since: number) => phases.push(`${name} ${Date.now() - since} ms`);

    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const starting = Date.now();
      server = await startServerProcess(file, env);
      phase('start', starting);
      const bursting = Date.now();
      const { tally, interrupted, killAfter } = await burstUntilKilled(server, shop, sessionTimes, random);
      phase('burst', bursting);
      console.log(`seed ${seed}, cycle ${cycle}: killed ${killAfter.ms} ms after customer ${killAfter.journeys}; ${JSON.stringify(tally)}`);
      expect(interrupted, `seed ${seed}`).toBe(WORKERS);
      expect(serverErrors(tally), `seed ${seed}: server errors`).toEqual([]);
      expect(violationsOnDisk(), `seed ${seed}, cycle ${cycle}, right after the kill`).toEqual([]);
    }

    // The last restart: the sweeper fails the lapsed holds and expires the offers, the dispatcher catches up,
    // the reconciler settles the refunds the kills cut off.
    const cutOff = pendingRefundsOnDisk();
    const restarting = Date.now();
    server = await startServerProcess(file, env);
    phase('start', restarting);
    const catchingUp = Date.now();
    const db = openDatabase(file);
    try {
      const eventIds = new Set(db.$client.prepare('SELECT id FROM events').pluck().all() as string[]);
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
        () => db.$client.prepare("SELECT count(*) FROM bookings WHERE status = 'processing'").pluck().get() === 0,
        10_000,
      );
      const count = (sql: string) => db.$client.prepare(sql).pluck().get() as number;
      await waitFor('every cut-off refund reconciled', () => count("SELECT count(*) FROM refunds WHERE status = 'pending'") === 0, 10_000);
      phase('catch-up', catchingUp);
      // An Idempotency-Key whose request was cut off stays `running` until a retry takes it over after its lease.
      phases.push(
        `reconciled: ${cutOff} cut-off refund(s); left running: ${count("SELECT count(*) FROM idempotency_keys WHERE state = 'running'")} idempotency key(s)`,
      );
      const statuses = new Set(db.$client.prepare('SELECT DISTINCT status FROM bookings').pluck().all());
      expect(statuses, `seed ${seed}`).toEqual(new Set(['confirmed', 'cancelled', 'refunded', 'failed']));
    } finally {
      closeDatabase(db);
    }
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(violationsOnDisk(), `seed ${seed}, after the restart`).toEqual([]);
    console.log(`crash test: ${CYCLES} kills and restarts in ${Date.now() - started} ms (${phases.join(', ')})`);
  });
});
