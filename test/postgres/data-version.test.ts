/**
 * The data version on PostgreSQL without a statement per request (src/db/postgres/data-version.ts): every
 * table notifies the data channel when written, by anyone; the gateway's version lives in memory, moved by
 * those notifications and by its own commits, and falls back to the server's snapshot while its listening
 * connection does not listen. What a user sees, through HTTP on a cached read: a write in plain SQL on
 * another connection within a bound, this gateway's own writes at once, and fresh answers while the
 * listening connection is ended by the server or cut silently by the network.
 */
import { createServer, Socket, type Server } from 'node:net';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { admissionDefaults } from '../../src/db/admission.ts';
import { openPostgres } from '../../src/db/postgres/client.ts';
import { postgresEngine } from '../../src/db/postgres/database.ts';
import { LISTEN_APPLICATION_NAME } from '../../src/db/postgres/listener.ts';
import * as schema from '../../src/db/postgres/schema/index.ts';
import { UNVERSIONED_TABLES } from '../../src/db/unversioned-tables.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createHost } from '../../fixtures/factories/catalog.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { freshPostgresDb, testDbOf, type TestDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { statementsBesidesLiveness } from '../support/statements.ts';
import { waitFor } from '../support/webhook-receiver.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

/** Another session on the database, as psql or another program would write through. */
const other = adminUrl ? new pg.Client({ connectionString: db!.url }) : undefined;
await other?.connect();
afterAll(() => other?.end());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The listening connections on the test's database. */
const listening = () =>
  db!.value<number>(
    'SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?',
    LISTEN_APPLICATION_NAME,
  );

/** A brand with a host, a secret key and an app reading it: GET of the host is a cached read. */
async function world(app?: TestApp, on: TestDb = db!) {
  const brand = await createBrand(on);
  const key = (await createApiKey(on, { brandId: brand.id })).secret;
  const host = await createHost(on, brand.id, { description: 'Skipper' });
  const t = app ?? (await startApp(on));
  const path = `/v1/brands/${brand.id}/hosts/${host.id}`;
  const read = async () => {
    const res = await t.rest('GET', path, { key });
    expect(res.status).toBe(200);
    return res.body.data.description as string;
  };
  const writeInSql = (description: string) => other!.query('UPDATE hosts SET description = $1 WHERE id = $2', [description, host.id]);
  return { t, key, path, read, writeInSql };
}

const statementsOf = <T>(fn: () => Promise<T>) => statementsBesidesLiveness(db!, fn);

/** Reads until `read` answers `expected`, for `boundMs` at most; how long it took. */
async function seenAfter(read: () => Promise<string>, expected: string, boundMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    const answer = await read();
    const elapsed = performance.now() - start;
    if (answer === expected) return elapsed;
    if (elapsed > boundMs) throw new Error(`still "${answer}" after ${boundMs} ms, not "${expected}"`);
    await sleep(2);
  }
}

describePostgres('the data version on PostgreSQL', () => {
  it('has the data-change trigger on every table of the schema but those no cached answer reads, statement-level, for every kind of write', async () => {
    const tables = Object.values(schema)
      .filter((table) => is(table, PgTable))
      .map((table) => getTableName(table as PgTable))
      .sort();
    const inDatabase = await db!.values<string>(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`);
    expect(inDatabase).toStrictEqual(tables);
    // No cached answer reads the heartbeat, which every readiness check writes (migration 0013), nor bookings
    // and what they write (0014): they move no data version.
    expect(tables.filter((table) => UNVERSIONED_TABLES.has(table))).toStrictEqual([...UNVERSIONED_TABLES].sort());
    const watched = tables.filter((table) => !UNVERSIONED_TABLES.has(table));
    const triggers = await db!.all<{ table: string; definition: string }>(
      `SELECT c.relname AS "table", pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE t.tgname = 'tessera_data_changed' AND c.relnamespace = current_schema()::regnamespace ORDER BY c.relname`,
    );
    expect(triggers.map((trigger) => trigger.table)).toStrictEqual(watched);
    for (const { table, definition } of triggers) {
      expect(definition).toBe(
        `CREATE TRIGGER tessera_data_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.${table} FOR EACH STATEMENT EXECUTE FUNCTION tessera_data_changed()`,
      );
    }
  });

  it('notifies the data channel once per committed transaction that wrote, and not for one rolled back', async () => {
    const listener = new pg.Client({ connectionString: db!.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.channel));
    await listener.query('LISTEN tessera_data');
    try {
      const brand = await createBrand(db!);
      await sleep(100);
      heard.length = 0;
      await other!.query('BEGIN');
      await other!.query(`UPDATE brands SET name = 'One' WHERE id = $1`, [brand.id]);
      await other!.query(`UPDATE brands SET name = 'Two' WHERE id = $1`, [brand.id]);
      await other!.query('COMMIT');
      await other!.query('BEGIN');
      await other!.query(`UPDATE brands SET name = 'Three' WHERE id = $1`, [brand.id]);
      await other!.query('ROLLBACK');
      await other!.query(`SELECT name FROM brands WHERE id = $1`, [brand.id]);
      await sleep(200);
      expect(heard).toStrictEqual(['tessera_data']);
    } finally {
      await listener.end();
    }
  });

  it('answers a cached read without a statement, and sees a write in plain SQL on another connection within a second, not before', async () => {
    const { read, writeInSql } = await world();
    await read();
    await waitFor('the listening connection', async () => (await listening()) === 1, 3000);
    // Once the notifications of the writes above have come (each moves the version, so the key and the
    // answer are read again once), a cached read and the version in memory: no statement at all.
    await waitFor('a read from the cache', async () => (await statementsOf(read)).sql.length === 0, 3000);
    const cached = await statementsOf(read);
    expect(cached.result).toBe('Skipper');
    expect(cached.sql).toStrictEqual([]);
    const delays: number[] = [];
    for (let n = 1; n <= 10; n += 1) {
      // Before the write, the cached answer stands.
      for (let i = 0; i < 3; i += 1) expect(await read()).toBe(n === 1 ? 'Skipper' : `Skipper ${n - 1}`);
      await writeInSql(`Skipper ${n}`);
      delays.push(await seenAfter(read, `Skipper ${n}`, 1000));
    }
    delays.sort((a, b) => a - b);
    process.stdout.write(
      `a write in plain SQL seen by a cached read after: median ${delays[5]!.toFixed(1)} ms, max ${delays[9]!.toFixed(1)} ms\n`,
    );
  });

  it("sees this gateway's own writes at the next request, with no wait: through its units and outside them", async () => {
    const { t, key, path, read } = await world();
    await read();
    await waitFor('the listening connection', async () => (await listening()) === 1, 3000);
    for (let n = 1; n <= 20; n += 1) {
      expect(await read()).toBe(n === 1 ? 'Skipper' : `Own ${n - 1}`);
      const res = await t.rest('PATCH', path, { key, body: { description: `Own ${n}` } });
      expect(res.status).toBe(200);
      // The very next request, no pause: the notification may not have arrived, the gateway's own COMMIT did.
      expect(await read()).toBe(`Own ${n}`);
    }
    const host = path.split('/').pop()!;
    await db!.update('hosts', { id: host }, { description: 'Seeded' });
    expect(await read()).toBe('Seeded');
  });

  it('stays fresh while the server has ended the listening connection (the snapshot), and after it listens again', async () => {
    const { read, writeInSql } = await world();
    await read();
    await waitFor('the listening connection', async () => (await listening()) === 1, 3000);
    await db!.run(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?',
      LISTEN_APPLICATION_NAME,
    );
    await waitFor('the connection gone', async () => (await listening()) === 0, 3000);
    // Not listening: each request reads the snapshot, so a write elsewhere is seen at the next request.
    await writeInSql('While deaf');
    const deaf = await statementsOf(read);
    expect(deaf.result).toBe('While deaf');
    expect(deaf.sql.some((statement) => statement.includes('pg_current_snapshot'))).toBe(true);
    await waitFor('listening again', async () => (await listening()) === 1, 5000);
    await waitFor('the version in memory again', async () => (await statementsOf(read)).sql.length === 0, 3000);
    await writeInSql('Heard again');
    expect(await seenAfter(read, 'Heard again', 1000)).toBeLessThan(1000);
  });

  it('bounds the staleness when the network cuts the listening connection silently: the liveness check falls back, then listens again', async () => {
    // A gateway whose connections pass a proxy that can stop relaying the listening one without a word
    // (no FIN, no error), as a partition would; its check every 100 ms waits 200 ms for an answer.
    const proxy = await silencingProxy(new URL(db!.url));
    const url = new URL(db!.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const gateway = testDbOf(
      postgresEngine(openPostgres(url.toString(), { poolSize: 4 }), admissionDefaults, { checkIntervalMs: 100, checkTimeoutMs: 200 }),
    );
    afterAll(async () => {
      await gateway.database.close();
      await proxy.close();
    });
    const { read, writeInSql } = await world(await startApp(gateway), gateway);
    await read();
    await waitFor('the version in memory', async () => (await statementsOf(read)).sql.length === 0, 3000);
    const cut = proxy.silence();
    expect(cut).toHaveLength(1);
    await writeInSql('Across a partition');
    const start = performance.now();
    // Without the check the gateway would go on answering from its cache: its version would never move.
    expect(await seenAfter(read, 'Across a partition', 2000)).toBeLessThan(2000);
    process.stdout.write(
      `a write during a silent cut seen after ${(performance.now() - start).toFixed(0)} ms (check 100 ms, timeout 200 ms)\n`,
    );
    // It listens again on a new connection, and ends the old one's server process, which the server still
    // holds (the proxy keeps its socket open) and which would hold back the notification queue.
    await waitFor('the version in memory again', async () => (await statementsOf(read)).sql.length === 0, 5000);
    const orphans = () => db!.value<number>('SELECT count(*)::int FROM pg_stat_activity WHERE client_port = ANY(?::int[])', cut);
    await waitFor('the old listening process ended', async () => (await orphans()) === 0, 3000);
    await writeInSql('Heard again');
    expect(await seenAfter(read, 'Heard again', 1000)).toBeLessThan(1000);
  });
});

/**
 * A TCP proxy to `target` on 127.0.0.1 that can stop relaying, both ways and without closing, the
 * connections open at that moment whose startup message names the listening connection's application
 * (later ones pass). `silence` returns their local ports towards the server (`client_port` there).
 */
async function silencingProxy(target: URL): Promise<{ port: number; silence(): number[]; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const listeners: Array<{ upstream: Socket; silenced: boolean }> = [];
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const pair = { upstream, silenced: false };
    let first = true;
    client.on('data', (chunk) => {
      if (first && chunk.includes(LISTEN_APPLICATION_NAME)) listeners.push(pair);
      first = false;
      if (!pair.silenced) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.silenced) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    // Silenced, the gateway's side ending reaches nothing either: the server keeps its end open.
    client.on('error', end).on('close', () => pair.silenced || end());
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    silence: () =>
      listeners.map((pair) => {
        pair.silenced = true;
        return pair.upstream.localPort!;
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
