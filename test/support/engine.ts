/**
 * The engine the API tests run on. Every test builds its world with the SQLite factories; on SQLite
 * (the default) the app runs on that connection, on PostgreSQL (TESSERA_TEST_ENGINE=postgresql, the
 * `postgresql` vitest project) the world's rows are copied into a database of the file's own, which the
 * app then runs on: the same requests and assertions, the other adapter.
 *
 * The two are kept as one. Before a request, what the test changed in the world since they last
 * matched (rows a factory added, an UPDATE, a DELETE) is applied to PostgreSQL, row by row, so work the
 * app did meanwhile outside a request (a timer's) is kept. After the request, the rows of every table
 * the app wrote replace the world's, so a test reading the world back sees what the app wrote.
 * `syncWorlds` does both for a test that waits for background work (webhook deliveries) instead of
 * making a request.
 */
import { eq, getTableColumns, getTableName, sql, type Column } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, it } from 'vitest';
import type { Database } from '../../src/domain/shared/database.ts';
import { migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { inDependencyOrder, sqliteTables } from '../../src/db/postgres/copy-from-sqlite.ts';
import { postgresDatabase } from '../../src/db/postgres/database.ts';
import type { PgExecutor } from '../../src/db/postgres/store-binding.ts';
import { postgresStores } from '../../src/db/postgres/stores/index.ts';
import type { Db } from '../../src/db/sqlite/client.ts';
import { portOf } from './db.ts';
import { createTestDatabase } from './postgres.ts';
import { copyRows } from './postgres-rows.ts';

export type TestEngine = 'sqlite' | 'postgresql';

export const testEngine: TestEngine = process.env.TESSERA_TEST_ENGINE === 'postgresql' ? 'postgresql' : 'sqlite';

/**
 * `it` for a test that works the SQLite database itself (closes it, breaks its schema, counts its
 * statements): skipped, so reported as such, in the PostgreSQL run of the file.
 */
export const itOnSqlite = it.skipIf(testEngine !== 'sqlite');

type Row = Record<string, unknown>;

/** A table on both engines, and how to name one of its rows. */
interface MirroredTable {
  pg: PgTable;
  sqlite: SQLiteTable;
  /** The primary key's property names. */
  key: string[];
  /** The key's columns, and every other column both engines have, by property name. */
  keyColumns: Column[];
  others: [string, Column][];
  identity: Column | undefined;
  /** PostgreSQL's stand-ins for SQLite's rowid (the order rows were written in): rows are read back in that order. */
  writeOrder: PgColumn[];
}

const mirrored: MirroredTable[] = inDependencyOrder().map((pg) => {
  const sqlite = sqliteTables.get(getTableName(pg))!;
  const inSqlite = getTableColumns(sqlite);
  const all = Object.entries(getTableColumns(pg));
  const columns = all.filter(([name]) => name in inSqlite);
  const config = getTableConfig(pg);
  const composite = new Set(config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name)));
  const isKey = (column: Column) => column.primary || composite.has(column.name);
  if (!columns.some(([, column]) => isKey(column))) throw new Error(`${getTableName(pg)} has no primary key to mirror its rows by`);
  return {
    pg,
    sqlite,
    key: columns.filter(([, column]) => isKey(column)).map(([name]) => name),
    keyColumns: columns.filter(([, column]) => isKey(column)).map(([, column]) => column),
    others: columns.filter(([, column]) => !isKey(column)),
    identity: config.columns.find((column) => column.generatedIdentity !== undefined),
    writeOrder: all.filter(([name]) => !(name in inSqlite)).map(([, column]) => column as PgColumn),
  };
});

/** A table's rows by key, each with its JSON to compare by. */
type Snapshot = Map<MirroredTable, Map<string, { row: Row; json: string }>>;

function readTable(world: Db, table: MirroredTable): Map<string, { row: Row; json: string }> {
  const rows = world.select().from(table.sqlite).all() as Row[];
  return new Map(rows.map((row) => [JSON.stringify(table.key.map((k) => row[k])), { row, json: JSON.stringify(row) }]));
}

function readWorld(world: Db): Snapshot {
  return new Map(mirrored.map((table) => [table, readTable(world, table)]));
}

/**
 * Counts the statements that write each table of the test's PostgreSQL database (a sequence per table,
 * moved by a statement trigger: no lock, no row, nothing a transaction of the app could conflict on),
 * so only the tables that changed are copied back.
 */
async function countWrites(pg: PgDb): Promise<void> {
  await pg.execute(
    sql.raw(`CREATE FUNCTION mirror_written() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM nextval(TG_ARGV[0]::regclass); RETURN NULL; END $$`),
  );
  for (const table of mirrored) {
    const name = getTableName(table.pg);
    await pg.execute(sql.raw(`CREATE SEQUENCE "mirror_${name}"`));
    await pg.execute(
      sql.raw(`CREATE TRIGGER mirror_written AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${name}"
        FOR EACH STATEMENT EXECUTE FUNCTION mirror_written('"mirror_${name}"')`),
    );
  }
}

/**
 * Whether no other session of the database is in a transaction that wrote. Write counts move when a
 * statement writes, before its transaction commits: counts read while such a transaction is open may
 * include writes no snapshot shows yet, so they are recorded only when this held after reading them.
 */
async function noWriterOpen(pg: PgDb): Promise<boolean> {
  const result = await pg.$client.query<{ open: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
       WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()) AS open`,
  );
  return !result.rows[0]!.open;
}

/** The write count of every table, by table name (null before its first write). */
async function writeCounts(pg: PgDb): Promise<Map<string, string | null>> {
  const result = await pg.$client.query<{ name: string; n: string | null }>(
    `SELECT substr(sequencename, 8) AS name, last_value::text AS n FROM pg_sequences WHERE sequencename LIKE 'mirror\\_%'`,
  );
  return new Map(result.rows.map((row) => [row.name, row.n]));
}

/** Applies to PostgreSQL what changed in the world from `before` to `after`, in one transaction. */
async function applyChanges(pg: PgDb, before: Snapshot, after: Snapshot): Promise<void> {
  await pg.transaction(async (tx: PgExecutor) => {
    for (const table of mirrored) {
      const old = before.get(table)!;
      const changed = [...after.get(table)!].filter(([key, { json }]) => old.get(key)?.json !== json).map(([, { row }]) => row);
      for (let start = 0; start < changed.length; start += 200) {
        const insert = tx.insert(table.pg).values(changed.slice(start, start + 200));
        await (table.others.length === 0
          ? insert.onConflictDoNothing()
          : insert.onConflictDoUpdate({
              target: table.keyColumns as never,
              set: Object.fromEntries(table.others.map(([name, column]) => [name, sql.raw(`excluded."${column.name}"`)])),
            }));
      }
      if (table.identity && changed.length > 0) {
        const name = getTableName(table.pg);
        await tx.execute(
          sql`SELECT setval(pg_get_serial_sequence(${name}, ${table.identity.name}), (SELECT max(${sql.identifier(table.identity.name)}) FROM ${sql.identifier(name)}))`,
        );
      }
    }
    for (const table of [...mirrored].reverse()) {
      const now = after.get(table)!;
      for (const [key, { row }] of before.get(table)!) {
        if (now.has(key)) continue;
        const conditions = table.keyColumns.map((column, i) => eq(column, row[table.key[i]!]));
        await tx.delete(table.pg).where(conditions.length === 1 ? conditions[0] : sql.join(conditions, sql` AND `));
      }
    }
  });
}

/** Replaces the rows of `tables` in the world with PostgreSQL's (read in one snapshot). */
async function replaceTables(pg: PgDb, world: Db, tables: MirroredTable[]): Promise<void> {
  const rows = await pg.transaction(
    async (tx) => {
      const all: Row[][] = [];
      // One connection: one query after the other.
      for (const table of tables)
        all.push(
          await tx
            .select()
            .from(table.pg)
            .orderBy(...table.writeOrder),
        );
      return all;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  world.transaction((tx) => {
    // No foreign key cascades: a table's rows go and come back, checked at COMMIT.
    tx.run(sql`PRAGMA defer_foreign_keys = ON`);
    for (const table of [...tables].reverse()) tx.delete(table.sqlite).run();
    tables.forEach((table, i) => {
      for (let start = 0; start < rows[i]!.length; start += 200)
        tx.insert(table.sqlite)
          .values(rows[i]!.slice(start, start + 200))
          .run();
    });
  });
}

/** Rows the world's connection has inserted, updated or deleted since it opened. */
const changesOf = (world: Db) => world.get<{ n: number }>(sql`SELECT total_changes() AS n`).n;

interface Copy {
  database: Database;
  /** Applies to PostgreSQL what the test changed in the world since they last matched. */
  toPostgres(): Promise<void>;
  /** Brings PostgreSQL's rows into the world (the test's changes first). Calls made together share one copy. */
  toWorld(): Promise<void>;
}

const copies = new WeakMap<Db, Promise<Copy>>();
const allCopies = new Set<Promise<Copy>>();

async function copiedToPostgres(world: Db): Promise<Copy> {
  const target = await createTestDatabase();
  const pg: PgDb = openPostgres(target.url, { poolSize: 8 });
  await migratePostgres(pg);
  await countWrites(pg);
  await copyRows(world, pg);
  const database = postgresDatabase(pg, postgresStores);
  afterAll(async () => {
    await database.close();
    await target.drop();
  });
  // The world as it last matched PostgreSQL, its change count then, and PostgreSQL's snapshot then.
  let snapshot = readWorld(world);
  let matched = changesOf(world);
  let version = '';
  let counts = await writeCounts(pg);
  // Copies run one at a time.
  let queue: Promise<void> = Promise.resolve();
  const inTurn = (work: () => Promise<void>) => (queue = queue.then(work));
  const pushWorld = async () => {
    if (changesOf(world) === matched) return;
    const now = readWorld(world);
    await applyChanges(pg, snapshot, now);
    snapshot = now;
    matched = changesOf(world);
  };
  let waitingCopyBack: Promise<void> | null = null;
  return {
    database,
    toPostgres: () => inTurn(pushWorld),
    toWorld() {
      waitingCopyBack ??= inTurn(async () => {
        waitingCopyBack = null;
        await pushWorld();
        // Nothing committed since the last copy: the snapshot has not moved.
        const current = await database.dataVersion();
        if (current === version) return;
        const now = await writeCounts(pg);
        const settled = await noWriterOpen(pg);
        const written = mirrored.filter((table) => now.get(getTableName(table.pg)) !== counts.get(getTableName(table.pg)));
        if (written.length > 0) await replaceTables(pg, world, written);
        for (const table of written) snapshot.set(table, readTable(world, table));
        matched = changesOf(world);
        // Else the tables written are copied again next time, when what moved their counts is visible.
        if (settled) [version, counts] = [current, now];
      });
      return waitingCopyBack;
    },
  };
}

function copyOf(world: Db): Promise<Copy> {
  let copy = copies.get(world);
  if (!copy) {
    copy = copiedToPostgres(world);
    copies.set(world, copy);
    allCopies.add(copy);
  }
  return copy;
}

/**
 * Brings every world of this file and its PostgreSQL copy to match, both ways: for a test that waits
 * for what an app does outside a request. Nothing to do on SQLite.
 */
export async function syncWorlds(): Promise<void> {
  for (const copy of allCopies) await (await copy).toWorld();
}

/**
 * The port an app of this file runs on for `world`, and what to run before and after each of its
 * requests: the world itself on SQLite; on PostgreSQL its copy, made at the first call and shared by every later app
 * of the file on the same world (a restarted gateway finds what the first one wrote).
 */
export async function appDatabase(
  world: Db,
): Promise<{ database: Database; beforeRequest?: () => Promise<void>; afterRequest?: () => Promise<void> }> {
  if (testEngine === 'sqlite') return { database: portOf(world) };
  const copy = await copyOf(world);
  return { database: copy.database, beforeRequest: copy.toPostgres, afterRequest: copy.toWorld };
}
