/**
 * The engine the API tests run on. Every test builds its world with the SQLite factories; on SQLite
 * (the default) the app runs on that connection, on PostgreSQL (TESSERA_TEST_ENGINE=postgresql, the
 * `postgresql` vitest project) the world's rows are copied into a database of the file's own, which the
 * app then runs on: the same requests and assertions, the other adapter. Rows a test adds to the world
 * later (a factory inside a test) are brought over before each request; a test that reads the SQLite
 * world back to check what a request did, or changes rows there, cannot run on PostgreSQL (vitest.config.ts
 * lists those files).
 */
import { getTableName, sql } from 'drizzle-orm';
import { afterAll } from 'vitest';
import type { Database } from '../../src/db/port/index.ts';
import { migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { inDependencyOrder } from '../../src/db/postgres/copy-from-sqlite.ts';
import { postgresDatabase } from '../../src/db/postgres/database.ts';
import { postgresStores } from '../../src/db/postgres/stores/index.ts';
import type { Db } from '../../src/db/sqlite/client.ts';
import { portOf } from './db.ts';
import { createTestDatabase } from './postgres.ts';
import { copyRows } from './postgres-rows.ts';

export type TestEngine = 'sqlite' | 'postgresql';

export const testEngine: TestEngine = process.env.TESSERA_TEST_ENGINE === 'postgresql' ? 'postgresql' : 'sqlite';

interface Copy {
  database: Database;
  /** Brings over the rows added to the world since the last call. */
  sync(): Promise<void>;
}

const copies = new WeakMap<Db, Promise<Copy>>();
const tableNames = inDependencyOrder().map(getTableName);

function rowCounts(world: Db): Map<string, number> {
  return new Map(tableNames.map((name) => [name, world.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(name)}`).n]));
}

async function copiedToPostgres(world: Db): Promise<Copy> {
  const target = await createTestDatabase();
  const pg: PgDb = openPostgres(target.url, { poolSize: 8 });
  await migratePostgres(pg);
  await copyRows(world, pg);
  let counts = rowCounts(world);
  const database = postgresDatabase(pg, postgresStores);
  afterAll(async () => {
    await database.close();
    await target.drop();
  });
  return {
    database,
    async sync() {
      const now = rowCounts(world);
      const grown = new Set(tableNames.filter((name) => now.get(name) !== counts.get(name)));
      counts = now;
      if (grown.size > 0) await copyRows(world, pg, { skipExisting: true, tables: grown });
    },
  };
}

function copyOf(world: Db): Promise<Copy> {
  let copy = copies.get(world);
  if (!copy) {
    copy = copiedToPostgres(world);
    copies.set(world, copy);
  }
  return copy;
}

/**
 * The port an app of this file runs on for `world`, and what to run before each of its requests: the
 * world itself on SQLite; on PostgreSQL its copy, made at the first call and shared by every later app
 * of the file on the same world (a restarted gateway finds what the first one wrote).
 */
export async function appDatabase(world: Db): Promise<{ database: Database; beforeRequest?: () => Promise<void> }> {
  if (testEngine === 'sqlite') return { database: portOf(world) };
  const copy = await copyOf(world);
  return { database: copy.database, beforeRequest: copy.sync };
}
