/**
 * The PostgreSQL schema mirrors the SQLite one, the source of truth: the same tables, columns (SQL and
 * TypeScript names, nullability), keys, indexes (with their uniqueness and partial predicates) and
 * CHECKs. A column or index added on one side only fails here, without a PostgreSQL server.
 */
import { getTableColumns, getTableName, is, type SQL } from 'drizzle-orm';
import { getTableConfig as pgConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as pg from '../../src/db/postgres/schema/index.ts';
import * as sqlite from '../../src/db/sqlite/schema/index.ts';

type Config = ReturnType<typeof pgConfig> | ReturnType<typeof sqliteConfig>;

function tables<T>(schema: Record<string, unknown>, kind: new (...args: never[]) => T): Map<string, T> {
  return new Map(
    Object.entries(schema)
      .filter(([, value]) => is(value, kind as never))
      .map(([name, value]) => [name, value as T]),
  );
}

/** A predicate's text with its column references written as bare names, as both sides' SQL reads them. */
function predicate(where: SQL | undefined): string | null {
  if (!where) return null;
  return where.queryChunks
    .map((chunk) => {
      if (typeof chunk === 'object' && chunk !== null && 'value' in chunk) return (chunk.value as string[]).join('');
      if (typeof chunk === 'object' && chunk !== null && 'name' in chunk) return (chunk as { name: string }).name;
      return String(chunk);
    })
    .join('');
}

/** What must match, engine types left out. */
function shape(config: Config) {
  const columnName = (c: { name: string }) => c.name;
  return {
    name: config.name,
    columns: config.columns.map((c) => ({ name: c.name, notNull: c.notNull, primary: c.primary, unique: c.isUnique })),
    primaryKeys: config.primaryKeys.map((pk) => pk.columns.map(columnName)),
    foreignKeys: config.foreignKeys
      .map((fk) => {
        const ref = fk.reference();
        return `${ref.columns.map(columnName).join(',')} -> ${getTableName(ref.foreignTable)}(${ref.foreignColumns.map(columnName).join(',')})`;
      })
      .sort(),
    indexes: config.indexes
      .map((i) => ({
        name: i.config.name,
        unique: i.config.unique,
        columns: i.config.columns.map((c) => columnName(c as { name: string })),
        where: predicate(i.config.where),
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    checks: config.checks.map((c) => ({ name: c.name, value: predicate(c.value) })),
  };
}

/**
 * Columns only the PostgreSQL schema has, by table: what SQLite keeps without a column (its rowid, the
 * order rows were written in).
 */
const rowidStandIns: Record<string, string[]> = { webhookEndpoints: ['writeOrder'] };

/** A PostgreSQL table's config without its rowid stand-ins. */
function pgShape(name: string, table: PgTable) {
  const config = pgConfig(table);
  const standIns = new Set((rowidStandIns[name] ?? []).map((key) => getTableColumns(table)[key]!.name));
  return shape({ ...config, columns: config.columns.filter((column) => !standIns.has(column.name)) });
}

const pgTables = tables(pg, PgTable);
const sqliteTables = tables(sqlite, SQLiteTable);

describe('the PostgreSQL schema', () => {
  it('has every SQLite table under the same export name, and no other', () => {
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
  });

  it.each([...sqliteTables.keys()])('mirrors %s', (name) => {
    const pgTable = pgTables.get(name)!;
    const sqliteTable = sqliteTables.get(name)!;
    const standIns = rowidStandIns[name] ?? [];
    expect(Object.keys(getTableColumns(pgTable)).filter((key) => !standIns.includes(key))).toEqual(
      Object.keys(getTableColumns(sqliteTable)),
    );
    expect(pgShape(name, pgTable)).toEqual(shape(sqliteConfig(sqliteTable)));
  });
});
