/**
 * /readyz follows writes, not just reads: 503 while the database refuses writes (SQLite `query_only`, as
 * a read-only or full file; PostgreSQL `default_transaction_read_only`, as a primary demoted by a
 * failover, taking effect on the gateway's new connections) or while a write waits past
 * READINESS_TIMEOUT_MS (SQLite: the write queue held by a unit of work; PostgreSQL: the heartbeat row
 * locked by another session), and 200 again once writes go through. Answers are reused for
 * READINESS_CACHE_MS; a gateway shutting down is not ready whatever its database says.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { asAdmin, endSessionsStatement } from '../../../fixtures/postgres/admin.ts';
import { startApp } from '../../support/app.ts';
import { freshSharedDb } from '../../support/db.ts';
import { admin } from '../../support/postgres.ts';
import { waitFor } from '../../support/webhook-receiver.ts';

const { db, url } = await freshSharedDb();

/** Makes every write fail while reads go on; returns what undoes it. */
async function refuseWrites(): Promise<() => Promise<void>> {
  if (db.engine === 'sqlite') {
    await db.run('PRAGMA query_only = 1');
    return () => db.run('PRAGMA query_only = 0');
  }
  // Sessions read the setting when they start: end the open ones, and the pool's next ones are read-only.
  const name = await db.value<string>('SELECT current_database()');
  const setting = async (value: 'on' | 'off') =>
    admin(async (client) => {
      await client.query(`ALTER DATABASE ${name} SET default_transaction_read_only = ${value}`);
      await client.query(endSessionsStatement(name));
    });
  await setting('on');
  return () => setting('off');
}

/**
 * Makes the next write wait: SQLite's one writer busy with a unit of work, or PostgreSQL's heartbeat row
 * written by an open transaction of another session. Resolves once that holds; `release` ends it.
 */
async function stallWrites(): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const holder =
    db.engine === 'sqlite'
      ? db.database.transaction(async () => {
          holding();
          await released;
        })
      : asAdmin(url, async (client) => {
          await client.query('BEGIN');
          await client.query(
            'INSERT INTO readiness_heartbeat (id, written_at) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at',
          );
          holding();
          await released;
          await client.query('COMMIT');
        });
  await held;
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}

const heartbeat = () => db.value<string>('SELECT written_at FROM readiness_heartbeat');

describe('/readyz', () => {
  it('is 503 "database writes failing" while the database refuses writes, with the cause in the log, and 200 once it takes them again', async () => {
    const lines: Array<Record<string, any>> = [];
    const t = await startApp(db, { readiness: { cacheMs: 0 }, logStream: { write: (line) => lines.push(JSON.parse(line)) } });
    expect(await t.rest('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });

    const restore = await refuseWrites();
    let answer: Awaited<ReturnType<typeof t.rest>> | undefined;
    try {
      // PostgreSQL: until the pool has let go of the sessions that were ended, a check may meet one.
      await waitFor('readiness to see the refused write', async () => {
        answer = await t.rest('GET', '/readyz');
        return answer.body.reason === 'database writes failing';
      });
      expect(answer).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'database writes failing' } });
      expect(Object.keys(answer!.body)).toEqual(['status', 'reason']);
      expect((await t.rest('GET', '/healthz')).status).toBe(200);
      const logged = lines.find((l) => l.msg === 'not ready' && l.reqId === answer!.headers['x-request-id']);
      expect(logged).toMatchObject({ level: 40, reason: 'database writes failing' });
      expect(logged!.err.message).toContain(
        { sqlite: 'attempt to write a readonly database', postgresql: 'cannot execute INSERT in a read-only transaction' }[db.engine],
      );
    } finally {
      await restore();
    }
    await waitFor('readiness to see writes go through again', async () => (await t.rest('GET', '/readyz')).status === 200);
    expect(await t.rest('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('is 503 "database writes stalled" while the heartbeat write waits past READINESS_TIMEOUT_MS, and 200 once it goes through', async () => {
    const t = await startApp(db, { readiness: { timeoutMs: 300, cacheMs: 0 } });
    expect((await t.rest('GET', '/readyz')).status).toBe(200);
    const before = await heartbeat();

    const stall = await stallWrites();
    try {
      for (let call = 0; call < 2; call += 1) {
        const started = Date.now();
        const res = await t.rest('GET', '/readyz');
        expect(res).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'database writes stalled' } });
        expect(Date.now() - started).toBeGreaterThanOrEqual(300);
        expect(Date.now() - started).toBeLessThan(2000);
      }
    } finally {
      await stall.release();
    }
    expect(await t.rest('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect(await heartbeat()).not.toBe(before);
  });

  it('reuses an answer for READINESS_CACHE_MS: probes in between write nothing', async () => {
    const t = await startApp(db, { readiness: { cacheMs: 60_000 } });
    expect((await t.rest('GET', '/readyz')).status).toBe(200);
    const written = await heartbeat();
    for (let call = 0; call < 3; call += 1) expect((await t.rest('GET', '/readyz')).status).toBe(200);
    expect(await heartbeat()).toBe(written);
    expect(await db.value('SELECT count(*) FROM readiness_heartbeat')).toBe(1);
  });

  it('is 503 "shutting down" once shutdown has begun, while other requests are still served, with Connection: close', async () => {
    const t = await startApp(db);
    expect((await t.rest('GET', '/readyz')).status).toBe(200);
    t.app.readiness.shutDown();
    const res = await t.rest('GET', '/readyz');
    expect(res).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'shutting down' } });
    expect(res.headers.connection).toBe('close');
    const served = await t.rest('GET', '/healthz');
    expect(served).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(served.headers.connection).toBe('close');
  });

  it('reads READINESS_TIMEOUT_MS (2 s by default, 100 ms to 1 minute) and READINESS_CACHE_MS (1 s, 0 to 1 minute)', () => {
    expect(loadConfig({})).toMatchObject({ READINESS_TIMEOUT_MS: 2_000, READINESS_CACHE_MS: 1_000 });
    expect(loadConfig({ READINESS_TIMEOUT_MS: '500', READINESS_CACHE_MS: '0' })).toMatchObject({
      READINESS_TIMEOUT_MS: 500,
      READINESS_CACHE_MS: 0,
    });
    for (const [name, bad] of [
      ['READINESS_TIMEOUT_MS', '99'],
      ['READINESS_TIMEOUT_MS', '60001'],
      ['READINESS_CACHE_MS', '-1'],
      ['READINESS_CACHE_MS', 'soon'],
    ] as const) {
      expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(name));
    }
  });
});
