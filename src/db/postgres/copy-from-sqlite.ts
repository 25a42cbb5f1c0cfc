/**
 * Copies a SQLite database's rows into an empty, migrated PostgreSQL database. Both schemas have the same
 * tables and the same property names, so a row read through one inserts through the other. The demo data
 * is built this way (by the same seeders as on SQLite, in memory, then copied in one transaction), and
 * so are the PostgreSQL tests' worlds.
 */
import { getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../sqlite/client.ts';
import * as sqliteSchema from '../sqlite/schema/index.ts';
import * as pgSchema from './schema/index.ts';
import type { PgExecutor } from './store-binding.ts';

/** The PostgreSQL tables, each after every table it references. */
export function inDependencyOrder(): PgTable[] {
  const tables = (Object.values(pgSchema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
  const ordered: PgTable[] = [];
  const placed = new Set<PgTable>();
  const place = (table: PgTable) => {
    if (placed.has(table)) return;
    placed.add(table);
    for (const key of getTableConfig(table).foreignKeys) {
      const referenced = key.reference().foreignTable;
      if (referenced !== table) place(referenced);
    }
    ordered.push(table);
  };
  tables.forEach(place);
  return ordered;
}

/** The SQLite schema's tables by name (both schemas name their tables alike). */
export const sqliteTables: ReadonlyMap<string, SQLiteTable> = new Map<string, SQLiteTable>(
  (Object.values(sqliteSchema) as unknown[])
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
    .map((table) => [getTableName(table), table]),
);

/** Rows per INSERT: PostgreSQL takes at most 65 535 parameters a statement. */
const BATCH = 500;

/**
 * Copies every row of `from` into `to` (the pool, or an open transaction so the copy is all or nothing).
 * Identity columns go on counting from where the copied rows end. `skipExisting`: a row whose key is
 * already there is left as it is (copying a growing database again brings only its new rows). `tables`:
 * only those.
 */
export async function copyFromSqlite(
  from: Db,
  to: PgExecutor,
  options: { skipExisting?: boolean; tables?: ReadonlySet<string> } = {},
): Promise<void> {
  for (const table of inDependencyOrder()) {
    const name = getTableName(table);
    if (options.tables && !options.tables.has(name)) continue;
    const source = sqliteTables.get(name);
    if (!source) throw new Error(`The SQLite schema has no table ${name}`);
    const rows = from.select().from(source).all();
    for (let start = 0; start < rows.length; start += BATCH) {
      const insert = to.insert(table).values(rows.slice(start, start + BATCH));
      await (options.skipExisting ? insert.onConflictDoNothing() : insert);
    }
    for (const column of getTableConfig(table).columns.filter((c) => c.generatedIdentity !== undefined && rows.length > 0)) {
      await to.execute(
        sql`SELECT setval(pg_get_serial_sequence(${name}, ${column.name}), (SELECT max(${sql.identifier(column.name)}) FROM ${sql.identifier(name)}))`,
      );
    }
  }
}
