/**
 * Reads outside units of work share lanes (src/db/postgres/read-lanes.ts): reads sent together go to one
 * connection, up to LANE_DEPTH a lane (LANE_MOST when the pool has no connection free), a lane running a
 * slow read takes no more, a read that fails on its own leaves its lane working, and a lane whose connection
 * the server ends fails its reads as the database being unavailable.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { postgresUnavailable } from '../../src/db/postgres/database.ts';
import { LANE_DEPTH, LANE_MOST } from '../../src/db/postgres/read-lanes.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';

describePostgres('reads sharing lanes on PostgreSQL', () => {
  const database = freshPostgresDatabase();
  const open: PgDb[] = [];
  // DATABASE_POOL_SIZE 5 unless told: one lane.
  const connect = (poolSize = 5) => {
    const db = openPostgres(database.url(), { poolSize });
    open.push(db);
    return db;
  };
  let observer: PgDb;
  beforeAll(() => {
    observer = connect();
  });
  afterAll(() => Promise.all(open.map(closePostgres)));

  const backend = async (db: PgDb, text = 'SELECT pg_backend_pid() AS pid') => (await db.$client.query<{ pid: number }>(text)).rows[0]!.pid;

  it('sends the reads of one turn on one connection, and gives it back once they are answered', async () => {
    const db = connect();
    const pids = await Promise.all(Array.from({ length: 6 }, () => backend(db)));
    expect(new Set(pids).size).toBe(1);
    expect(db.$client.totalCount).toBe(1);
    expect(db.$client.idleCount).toBe(1);
  });

  it("takes 128 reads sent together on a default pool's two lanes (64 requests reading two things at once), and the one past them on a connection of its own", async () => {
    const db = connect(10);
    const pids = await Promise.all(Array.from({ length: 2 * LANE_DEPTH + 1 }, () => backend(db)));
    const readsOf = new Map<number, number>();
    for (const pid of pids) readsOf.set(pid, (readsOf.get(pid) ?? 0) + 1);
    const perConnection = [...readsOf.values()].sort((a, b) => b - a);
    expect(LANE_DEPTH).toBe(64);
    expect(perConnection).toStrictEqual([64, 64, 1]);
  });

  it("puts the reads past a full lane on it still when the pool has no connection free, up to LANE_MOST: only the one past waits in the pool's queue", async () => {
    const db = connect();
    // The pool's other four connections, held as units of work would hold them.
    const held = await Promise.all(Array.from({ length: 4 }, () => db.$client.connect()));
    try {
      const heldPids = await Promise.all(
        held.map(async (client) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid),
      );
      const reads = Promise.all(Array.from({ length: LANE_MOST + 1 }, () => backend(db)));
      // Sent: only the one past LANE_MOST waits for a connection (the lane's, once it has answered the rest).
      expect(db.$client.waitingCount).toBe(1);
      const pids = new Set(await reads);
      expect(pids.size).toBe(1);
      expect(heldPids).not.toContain([...pids][0]);
    } finally {
      for (const client of held) client.release();
    }
  });

  it('sends no more reads to a lane that has answered nothing for a while: they do not wait behind a slow one', async () => {
    const db = connect();
    const started = Date.now();
    const slow = backend(db, 'SELECT pg_sleep(0.6), pg_backend_pid() AS pid');
    await new Promise((resolve) => setTimeout(resolve, 80));
    const quick = await backend(db);
    expect(Date.now() - started).toBeLessThan(450);
    expect(quick).not.toBe(await slow);
  });

  it('keeps a lane working after a read that failed on its own', async () => {
    const db = connect();
    const [failed, ...pids] = await Promise.allSettled([db.$client.query('SELECT 1 / 0'), backend(db), backend(db)]);
    expect(failed).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(pids).toStrictEqual([
      { status: 'fulfilled', value: expect.any(Number) },
      { status: 'fulfilled', value: (pids[0] as PromiseFulfilledResult<number>).value },
    ]);
    // Given back to the pool, not dropped.
    expect(db.$client.totalCount).toBe(1);
    expect(await backend(db)).toBe((pids[0] as PromiseFulfilledResult<number>).value);
  });

  it('fails the reads of a lane whose connection the server ended as unavailable; the next read connects again', async () => {
    const db = connect();
    const sleep = 'SELECT pg_sleep(5) AS ended';
    const reads = Promise.allSettled([db.$client.query(sleep), db.$client.query('SELECT 2 AS behind')]);
    let pid: number | undefined;
    for (let i = 0; i < 50 && pid === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const found = await observer.$client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1 AND state = 'active'`,
        [sleep],
      );
      pid = found.rows[0]?.pid;
    }
    await observer.$client.query('SELECT pg_terminate_backend($1)', [pid]);
    const [ended, behind] = await reads;
    for (const settled of [ended, behind]) {
      expect(settled.status).toBe('rejected');
      expect(postgresUnavailable((settled as PromiseRejectedResult).reason as object)).toBe(true);
    }
    expect(await backend(db)).not.toBe(pid);
  });
});
