/**
 * The seeder on PostgreSQL (src/db/seeder.ts says what one is for): typed calls through Drizzle, raw
 * statements through the connection itself, their values made the same as SQLite's (numbers for
 * `bigint` counts and sums, JSON as its text, instants as ISO 8601 UTC by the pool's parser).
 */
import { and, asc, count, eq, getTableColumns, is, isNull, sql, type Column, type SQL } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { batches, onlyRow, whereEntries, type RowsOf, type SeederOf } from '../seeder.ts';
import * as schema from './schema/index.ts';
import type { PgExecutor } from './store-binding.ts';

type Rows = RowsOf<typeof schema>;

/** What raw statements run on: the pool, or the one connection of an open transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

const tables = new Map<string, PgTable>(
  (Object.entries(schema) as Array<[string, unknown]>).filter((entry): entry is [string, PgTable] => is(entry[1], PgTable)),
);

function tableOf(name: string): PgTable {
  const table = tables.get(name);
  if (!table) throw new Error(`No table ${name} in the schema`);
  return table;
}

function columnOf(table: PgTable, property: string): Column {
  const column = getTableColumns(table)[property];
  if (!column) throw new Error(`No column ${property} in ${getTableConfig(table).name}`);
  return column;
}

function condition(table: PgTable, where: object | undefined): SQL | undefined {
  const parts = whereEntries(where).map(([property, value]) =>
    value === null ? isNull(columnOf(table, property)) : eq(columnOf(table, property), value),
  );
  return parts.length === 0 ? undefined : and(...parts);
}

function primaryKey(table: PgTable): Column[] {
  const config = getTableConfig(table);
  const single = config.columns.filter((column) => column.primary);
  return single.length > 0 ? single : (config.primaryKeys[0]?.columns ?? []);
}

/** Ascending, text by its bytes as SQLite compares it, whatever the database's collation. */
const ascending = (column: Column): SQL => (column.columnType === 'PgText' ? sql`${column} COLLATE "C" ASC` : asc(column));

/** `?` placeholders as PostgreSQL's `$1`, `$2`..., leaving quoted text alone. */
export function numberedPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/'(?:[^']|'')*'|\?/g, (match) => (match === '?' ? `$${++n}` : match));
}

const INT8 = 20;
const NUMERIC = 1700;
const JSON_TYPES = new Set([114, 3802]);

/** A raw row's values as the seeder promises them: numbers for bigint and numeric, JSON as text. */
function plainRow(row: Record<string, unknown>, fields: pg.FieldDef[]): Record<string, unknown> {
  for (const field of fields) {
    const value = row[field.name];
    if (value === null || value === undefined) continue;
    if (field.dataTypeID === INT8 || field.dataTypeID === NUMERIC) row[field.name] = Number(value);
    else if (JSON_TYPES.has(field.dataTypeID)) row[field.name] = JSON.stringify(value);
  }
  return row;
}

/** Rows per INSERT: PostgreSQL binds at most 65 535 parameters a statement. */
const BATCH = 500;

export function postgresSeeder(
  executor: PgExecutor,
  connection: Queryable,
  transaction: <T>(work: (seeder: SeederOf<Rows>) => Promise<T>) => Promise<T>,
): SeederOf<Rows> {
  const seeder: SeederOf<Rows> = {
    engine: 'postgresql',
    async insert(name, rows) {
      for (const batch of batches(rows, BATCH)) await executor.insert(tableOf(name)).values(batch);
    },
    async rows(name, where, orderBy) {
      const table = tableOf(name);
      const order = orderBy ? orderBy.map((property) => columnOf(table, property)) : primaryKey(table);
      return (await executor
        .select()
        .from(table)
        .where(condition(table, where))
        .orderBy(...order.map(ascending))) as never;
    },
    async row(name, where) {
      return onlyRow(await seeder.rows(name, where), name, where);
    },
    async count(name, where) {
      const table = tableOf(name);
      const [row] = await executor.select({ n: count() }).from(table).where(condition(table, where));
      return row!.n;
    },
    async update(name, where, values) {
      const table = tableOf(name);
      return (await executor.update(table).set(values).where(condition(table, where))).rowCount ?? 0;
    },
    async delete(name, where) {
      const table = tableOf(name);
      return (await executor.delete(table).where(condition(table, where))).rowCount ?? 0;
    },
    async query(text, params = []) {
      const result = await connection.query({ text: numberedPlaceholders(text), values: [...params] });
      return result.rows.map((row) => plainRow(row, result.fields)) as never;
    },
    transaction: (work) => transaction(work),
  };
  return seeder;
}
