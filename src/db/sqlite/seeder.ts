/**
 * The seeder on SQLite (src/db/seeder.ts says what one is for). Each call is synchronous underneath and
 * runs when the connection is free, as a store call outside a unit of work does, so a seeder write never
 * lands inside another caller's open transaction.
 */
import { and, asc, count, eq, getTableColumns, is, isNull, type Column, type SQL } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { batches, onlyRow, whereEntries, type RowsOf, type SeederOf } from '../seeder.ts';
import type { Db } from './client.ts';
import * as schema from './schema/index.ts';
import type { CallRunner } from './store-binding.ts';

type Rows = RowsOf<typeof schema>;

const tables = new Map<string, SQLiteTable>(
  (Object.entries(schema) as Array<[string, unknown]>).filter((entry): entry is [string, SQLiteTable] => is(entry[1], SQLiteTable)),
);

function tableOf(name: string): SQLiteTable {
  const table = tables.get(name);
  if (!table) throw new Error(`No table ${name} in the schema`);
  return table;
}

function columnOf(table: SQLiteTable, property: string): Column {
  const column = getTableColumns(table)[property];
  if (!column) throw new Error(`No column ${property} in ${getTableConfig(table).name}`);
  return column;
}

function condition(table: SQLiteTable, where: object | undefined): SQL | undefined {
  const parts = whereEntries(where).map(([property, value]) =>
    value === null ? isNull(columnOf(table, property)) : eq(columnOf(table, property), value),
  );
  return parts.length === 0 ? undefined : and(...parts);
}

function primaryKey(table: SQLiteTable): Column[] {
  const config = getTableConfig(table);
  const single = config.columns.filter((column) => column.primary);
  return single.length > 0 ? single : (config.primaryKeys[0]?.columns ?? []);
}

/** better-sqlite3 binds numbers, text, null and buffers; a boolean is stored as 0 or 1. */
const bindable = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);

/** Rows per INSERT: SQLite binds at most 32 766 parameters a statement. */
const BATCH = 500;

export function sqliteSeeder(
  db: Db,
  run: CallRunner,
  transaction: <T>(work: (seeder: SeederOf<Rows>) => Promise<T>) => Promise<T>,
): SeederOf<Rows> {
  const seeder: SeederOf<Rows> = {
    engine: 'sqlite',
    insert: (name, rows) =>
      run(() => {
        for (const batch of batches(rows, BATCH)) db.insert(tableOf(name)).values(batch).run();
      }),
    rows: (name, where, orderBy) =>
      run(() => {
        const table = tableOf(name);
        const order = orderBy ? orderBy.map((property) => columnOf(table, property)) : primaryKey(table);
        return db
          .select()
          .from(table)
          .where(condition(table, where))
          .orderBy(...order.map((column) => asc(column)))
          .all() as never;
      }),
    async row(name, where) {
      return onlyRow(await seeder.rows(name, where), name, where);
    },
    count: (name, where) =>
      run(() => {
        const table = tableOf(name);
        return db.select({ n: count() }).from(table).where(condition(table, where)).get()!.n;
      }),
    update: (name, where, values) =>
      run(() => {
        const table = tableOf(name);
        return db.update(table).set(values).where(condition(table, where)).run().changes;
      }),
    delete: (name, where) =>
      run(() => {
        const table = tableOf(name);
        return db.delete(table).where(condition(table, where)).run().changes;
      }),
    query: (text, params = []) =>
      run(() => {
        const statement = db.$client.prepare(text);
        const values = params.map(bindable);
        if (statement.reader) return statement.all(...values) as never;
        statement.run(...values);
        return [];
      }),
    transaction: (work) => transaction(work),
  };
  return seeder;
}
