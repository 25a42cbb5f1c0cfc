/**
 * One stuck holder does not stop everyone. A gateway's session left idle inside a transaction holding a
 * session's row (a gateway frozen, or cut off, mid-unit) delays only the writes of that row: they answer
 * 503 DATABASE_UNAVAILABLE with Retry-After once lock_timeout passes, never a 500 and never after the
 * statement timeout; writes of other rows go on meanwhile; and the server ends the holder's session after
 * idle_in_transaction_session_timeout, which frees the row.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrandFamily } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { closePostgres, openPostgres } from '../../src/db/postgres/client.ts';
import { postgresDefaults } from '../../src/db/postgres/defaults.ts';
import { startApp } from '../support/app.ts';
import { guest } from '../support/checkout.ts';
import { freshPostgresDb } from '../support/db.ts';
import { describePostgres } from '../support/postgres.ts';

describePostgres('a row held by a stuck session', () => {
  let db: Awaited<ReturnType<typeof freshPostgresDb>>;
  let checkout: (s: { startLocal: string }) => Promise<{ status: number; body: any; headers: Record<string, unknown>; ms: number }>;
  let held: { id: string; startLocal: string };
  let free: { id: string; startLocal: string };
  beforeAll(async () => {
    db = await freshPostgresDb();
    const { brand, keys } = await createBrandFamily(db);
    const sail = (await createExperience(db, brand.id, { title: 'Sunset Sail' })).experience;
    held = await createSession(db, sail, { startLocal: '2027-04-01T18:00:00', capacity: 10 });
    free = await createSession(db, sail, { startLocal: '2027-04-02T18:00:00', capacity: 10 });
    const t = await startApp(db);
    checkout = async (s) => {
      const started = Date.now();
      const answer = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
        key: keys.brand,
        body: { data: [{ experienceId: sail.id, sessionTime: s.startLocal.slice(0, 16), participants: [guest('Ana')] }] },
      });
      return { ...answer, ms: Date.now() - started };
    };
  });

  it('has lock_timeout, idle_in_transaction_session_timeout and statement_timeout on the gateway sessions', async () => {
    const settings = await db.pg.$client.query<{ lock: string; idle: string; statement: string }>(
      `SELECT current_setting('lock_timeout') AS lock, current_setting('idle_in_transaction_session_timeout') AS idle,
              current_setting('statement_timeout') AS statement`,
    );
    expect(settings.rows[0]).toEqual({ lock: '5s', idle: '10s', statement: '15s' });
  });

  it('answers writes of that row 503 within lock_timeout, serves the others, and is freed once the server ends the idle session', async () => {
    // Another gateway's connection, frozen in the middle of a unit of work on `held`.
    const otherGateway = openPostgres(db.url, { poolSize: 1 });
    afterAll(() => closePostgres(otherGateway));
    const frozen = await otherGateway.$client.connect();
    const ended = new Promise<void>((resolve) => frozen.once('error', () => resolve()));
    await frozen.query('BEGIN');
    await frozen.query('SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE', [held.id]);
    const frozenAt = Date.now();

    const [stuck, unaffected] = await Promise.all([checkout(held), checkout(free)]);
    expect(unaffected.status).toBe(201);
    expect(unaffected.ms).toBeLessThan(postgresDefaults.lockTimeoutMs);
    expect(stuck.status).toBe(503);
    expect(stuck.headers['retry-after']).toBe('2');
    expect(stuck.body.error.code).toBe('DATABASE_UNAVAILABLE');
    expect(stuck.ms).toBeGreaterThanOrEqual(postgresDefaults.lockTimeoutMs - 50);
    expect(stuck.ms).toBeLessThan(10_000);

    // The server ends the frozen session; its row is free again.
    await ended;
    expect(Date.now() - frozenAt).toBeGreaterThanOrEqual(postgresDefaults.idleInTransactionTimeoutMs - 50);
    frozen.release(new Error('ended by the server'));
    expect((await checkout(held)).status).toBe(201);
  }, 30_000);
});
