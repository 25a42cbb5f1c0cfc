/**
 * PostgreSQL test data from the SQLite factories: a test builds its world on an in-memory SQLite database
 * as every other test does, then copies the rows into PostgreSQL. Both schemas have the same tables and
 * the same property names, so a row read through one inserts through the other.
 */
import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { PgDb } from '../../src/db/postgres/client.ts';
import * as pgSchema from '../../src/db/postgres/schema/index.ts';
import type { Db } from '../../src/db/sqlite/client.ts';
import * as sqliteSchema from '../../src/db/sqlite/schema/index.ts';

/** The PostgreSQL tables, each after every table it references. */
function inDependencyOrder(): PgTable[] {
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

const sqliteTables = new Map<string, SQLiteTable>(
  (Object.values(sqliteSchema) as unknown[])
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
    .map((table) => [getTableName(table), table]),
);

/** Rows per INSERT: PostgreSQL takes at most 65 535 parameters a statement. */
const BATCH = 500;

/** Copies every row of `from` into the (migrated, empty) PostgreSQL database `to`. */
export async function copyRows(from: Db, to: PgDb): Promise<void> {
  for (const table of inDependencyOrder()) {
    const name = getTableName(table);
    const rows = from.select().from(sqliteTables.get(name)!).all();
    for (let start = 0; start < rows.length; start += BATCH) {
      await to.insert(table).values(rows.slice(start, start + BATCH));
    }
    // Identity columns keep counting from where the copied rows end.
    for (const column of getTableConfig(table).columns.filter((c) => c.generatedIdentity !== undefined && rows.length > 0)) {
      await to.$client.query(`SELECT setval(pg_get_serial_sequence($1, $2), (SELECT max(${column.name}) FROM ${name}))`, [
        name,
        column.name,
      ]);
    }
  }
}
