/**
 * The database a test file builds its world in, and runs the app on: SQLite in memory by default; with
 * TESSERA_TEST_ENGINE=postgresql (the `postgresql` vitest project) a PostgreSQL database of the file's
 * own, dropped after its tests. Either way the same thing: the port the app runs on (`database`) and a
 * seeder over the same database (the rest of `TestDb`), through which factories write and tests read
 * back. No test reaches an engine's connection: a test that does is an engine's own test (test/sqlite,
 * test/postgres).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/sqlite/client.ts';
import { sqliteEngine } from '../../src/db/sqlite/database.ts';
import type { Engine } from '../../src/db/engine.ts';
import type { Seeder } from '../../src/db/tables.ts';
import { migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { postgresEngine, unitSlots } from '../../src/db/postgres/database.ts';
import type { Database } from '../../src/domain/shared/database.ts';
import { createTestDatabase } from './postgres.ts';

export type TestEngine = Engine['name'];

export const testEngine: TestEngine = process.env.TESSERA_TEST_ENGINE === 'postgresql' ? 'postgresql' : 'sqlite';

/**
 * `it` for one of the few tests that only SQLite can run, each saying why where it is used: skipped, so
 * reported as such, in the PostgreSQL run of its file.
 */
export const itOnSqlite = it.skipIf(testEngine !== 'sqlite');

/** Connections the pool of a test's PostgreSQL database opens at most. */
const POSTGRES_POOL_SIZE = 8;

/** How many units of work the test database runs at once: SQLite's one writer, or the units' share of the PostgreSQL pool. */
export const unitsAtOnce = testEngine === 'sqlite' ? 1 : unitSlots(POSTGRES_POOL_SIZE);

export interface TestDb extends Seeder {
  readonly engine: TestEngine;
  /** The port over this database, as the app runs on it: what domain functions are handed. */
  database: Database;
  /** Runs `work` with the seeder and the port's stores in one unit of work. */
  seed: Engine['seed'];
  /** The rows of one SQL statement (`?` placeholders; see `Seeder.query` for the values). */
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** Its first row, if any. */
  one<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  /** The first column of its first row (undefined when there is none). */
  value<T = unknown>(sql: string, ...params: unknown[]): Promise<T>;
  /** The first column of every row. */
  values<T = unknown>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** Runs a statement that returns nothing. */
  run(sql: string, ...params: unknown[]): Promise<void>;
}

const firstColumn = (row: Record<string, unknown> | undefined) => (row === undefined ? undefined : Object.values(row)[0]);

/** The TestDb over an engine a test opened itself (the demo data's tests open theirs with `connect`). */
export function testDbOf(engine: Engine): TestDb {
  const { seeder } = engine;
  const all = <T>(sql: string, ...params: unknown[]) => seeder.query<T>(sql, params);
  return {
    ...seeder,
    database: engine.database,
    seed: engine.seed,
    all,
    one: async (sql, ...params) => (await all<never>(sql, ...params))[0],
    value: async (sql, ...params) => firstColumn((await all<Record<string, unknown>>(sql, ...params))[0]) as never,
    values: async (sql, ...params) => (await all<Record<string, unknown>>(sql, ...params)).map(firstColumn) as never,
    run: async (sql, ...params) => {
      await all(sql, ...params);
    },
  };
}

/**
 * A fresh, migrated database: every test file builds its own data in it. On PostgreSQL the database is
 * dropped after the file's tests (after the apps on it have closed).
 */
export async function freshDb(): Promise<TestDb> {
  return testEngine === 'sqlite' ? testDbOf(sqliteEngine(openDatabase(':memory:'))) : (await postgresTestDb()).db;
}

/**
 * For SQLite's own tests (test/sqlite): a TestDb on a new SQLite database (in memory unless `url` names a
 * file), with its connection, which those tests look into.
 */
export function freshSqliteDb(url = ':memory:'): TestDb & { connection: Db } {
  const connection = openDatabase(url);
  return { ...testDbOf(sqliteEngine(connection)), connection };
}

/**
 * A fresh database that other processes can open too (a gateway started with `DATABASE_URL = url`): a
 * file in a temporary folder on SQLite, removed after the file's tests; on PostgreSQL as `freshDb`.
 */
export async function freshSharedDb(): Promise<{ db: TestDb; url: string }> {
  if (testEngine === 'postgresql') return postgresTestDb();
  const folder = mkdtempSync(join(tmpdir(), 'tessera-test-'));
  const url = join(folder, 'tessera.db');
  const db = testDbOf(sqliteEngine(openDatabase(url)));
  afterAll(async () => {
    await db.database.close().catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  });
  return { db, url };
}

/** For PostgreSQL's own tests (test/postgres): a TestDb on a new PostgreSQL database, whatever TESSERA_TEST_ENGINE says. */
export async function freshPostgresDb(): Promise<TestDb & { url: string; pg: PgDb }> {
  const { db, url, pg } = await postgresTestDb();
  return { ...db, url, pg };
}

async function postgresTestDb(): Promise<{ db: TestDb; url: string; pg: PgDb }> {
  const target = await createTestDatabase();
  const pg = openPostgres(target.url, { poolSize: POSTGRES_POOL_SIZE });
  await migratePostgres(pg);
  const engine = postgresEngine(pg);
  afterAll(async () => {
    await engine.database.close().catch(() => {});
    await target.drop();
  });
  return { db: testDbOf(engine), url: target.url, pg };
}

/**
 * Drops a table from under the app, as a broken or half-migrated database would have it: what a request
 * that needs it gets is the test's subject.
 */
export async function dropTable(db: TestDb, table: string): Promise<void> {
  if (db.engine === 'sqlite') {
    // The rows that reference it would otherwise stop the DROP.
    await db.run('PRAGMA foreign_keys = OFF');
    await db.run(`DROP TABLE ${table}`);
  } else {
    await db.run(`DROP TABLE ${table} CASCADE`);
  }
}
