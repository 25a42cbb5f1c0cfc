/**
 * The pool opens at most DATABASE_POOL_SIZE connections, the server cancels statements that run too long,
 * and connections the server ends never take the process down.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { loadConfig } from '../../src/config.ts';
import { postgresUnavailable } from '../../src/db/postgres/database.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';

describePostgres('the PostgreSQL pool', () => {
  const database = freshPostgresDatabase();
  const open: PgDb[] = [];
  const connect = (options: Parameters<typeof openPostgres>[1]) => {
    const db = openPostgres(database.url(), options);
    open.push(db);
    return db;
  };
  let observer: PgDb;
  beforeAll(() => {
    observer = connect({ poolSize: 1 });
  });
  afterAll(() => Promise.all(open.map(closePostgres)));

  it('opens no more connections than DATABASE_POOL_SIZE, however many queries wait', async () => {
    const db = connect({ poolSize: loadConfig({ DATABASE_POOL_SIZE: '3' }).DATABASE_POOL_SIZE });
    expect(db.$client.options.max).toBe(3);

    let running = true;
    // Not a read (a read may share a connection with others: read-lanes.ts), so each takes a connection.
    const sleep = 'DO $$ BEGIN PERFORM pg_sleep(0.4); END $$';
    const sleepers = Promise.all(Array.from({ length: 8 }, () => db.$client.query(sleep))).finally(() => {
      running = false;
    });
    const seen: number[] = [];
    while (running) {
      const active = await observer.$client.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1 AND state = 'active'`,
        [sleep],
      );
      seen.push(Number(active.rows[0]!.n));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sleepers;

    expect(Math.max(...seen)).toBe(3);
    expect(db.$client.totalCount).toBe(3);
  });

  it('names its connections tessera and gives them a 15 s statement timeout by default', async () => {
    const settings = await observer.$client.query(
      `SELECT current_setting('application_name') AS name, current_setting('statement_timeout') AS timeout`,
    );

    expect(settings.rows[0]).toEqual({ name: 'tessera', timeout: '15s' });
  });

  it('has a statement running past the timeout cancelled by the server', async () => {
    const db = connect({ statementTimeoutMs: 200 });
    const started = Date.now();

    await expect(db.$client.query('SELECT pg_sleep(5)')).rejects.toMatchObject({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    const after = await db.$client.query('SELECT 1 AS one');
    expect(after.rows).toEqual([{ one: 1 }]);
  });

  it('waits for a pooled connection while all are busy DATABASE_CONNECT_TIMEOUT_MS at most, a failure the port answers 503', async () => {
    const db = connect({ poolSize: 1, connectTimeoutMs: 300 });
    const busy = await db.$client.connect();
    const started = Date.now();
    const waited = await db.$client.query('SELECT 1').catch((error: Error) => error);
    const ms = Date.now() - started;
    busy.release();

    expect(waited).toMatchObject({ message: 'timeout exceeded when trying to connect' });
    expect(postgresUnavailable(waited as Error)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(3_000);
    expect((await db.$client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('survives the server ending connections that are checked out, busy or idle, and goes on with fresh ones', async () => {
    const db = connect({ poolSize: 2 });
    const pidOf = async (client: { query: (text: string) => Promise<{ rows: Array<{ pid: number }> }> }) =>
      (await client.query('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const terminate = (pid: number) => observer.$client.query('SELECT pg_terminate_backend($1)', [pid]);
    for (let round = 0; round < 5; round += 1) {
      const busy = await db.$client.connect();
      const idle = await db.$client.connect();
      const [busyPid, idlePid] = [await pidOf(busy), await pidOf(idle)];
      const running = busy.query('SELECT pg_sleep(5)').then(
        () => 'finished',
        (error: Error) => error.message,
      );
      await terminate(busyPid);
      await terminate(idlePid);
      // Without a listener of their own, both connections' 'error' events would be uncaught exceptions here.
      expect(await running).toBe('terminating connection due to administrator command');
      await new Promise((resolve) => setTimeout(resolve, 100));
      busy.release();
      idle.release();
      expect((await db.$client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    }
    expect(db.$client.totalCount).toBeLessThanOrEqual(2);
  });
});
