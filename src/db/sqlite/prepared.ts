import { fillPlaceholders, is, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { PreparedQuery } from 'drizzle-orm/better-sqlite3';
import type Database from 'better-sqlite3';
import type { Db } from './client.ts';
import { compileRowMapper } from '../row-mapper.ts';

/**
 * The connection a query runs on. `inTransaction` hands out the database itself, but a Drizzle
 * transaction (`db.transaction`, as the seed uses) is an object of its own sharing its database's
 * session: keying on the session lets a statement prepared once serve both.
 */
const connectionOf = (db: Db): object => (db as unknown as { session?: object }).session ?? db;

/**
 * A query built and prepared once per database connection, on first use, instead of on every call:
 * for the statements every request runs (the API-key lookup), Drizzle's query building and SQLite's
 * statement compilation cost more than the query itself. Parameters are `sql.placeholder`s.
 */
export function preparedPerDb<P>(build: (db: Db) => P): (db: Db) => P {
  const prepared = new WeakMap<object, P>();
  return (db) => {
    const connection = connectionOf(db);
    let statement = prepared.get(connection);
    if (!statement) {
      statement = withCompiledRowMapping(build(db));
      prepared.set(connection, statement);
    }
    return statement;
  };
}

/** The parts of Drizzle's prepared select that its own `all` and `get` read. */
interface PreparedSelect {
  stmt: Database.Statement;
  query: { params: unknown[] };
  fields?: Parameters<typeof compileRowMapper>[0];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
  all(values?: Record<string, unknown>): unknown[];
  get(values?: Record<string, unknown>): unknown;
}

/**
 * A prepared select whose `all` and `get` map rows with a mapper compiled once for its columns
 * (row-mapper.ts) instead of Drizzle's per-row `mapResultRow`: the same objects, in about half the time
 * on the hot reads. Statements without selected fields (run, raw SQL) are left as they are.
 */
function withCompiledRowMapping<P>(statement: P): P {
  if (!is(statement, PreparedQuery)) return statement;
  const select = statement as unknown as PreparedSelect;
  if (!select.fields || select.customResultMapper) return statement;
  const mapRow = compileRowMapper(select.fields, select.joinsNotNullableMap);
  const raw = select.stmt.raw(true);
  select.all = (values) => (raw.all(...fillPlaceholders(select.query.params, values ?? {})) as unknown[][]).map(mapRow);
  select.get = (values) => {
    const row = raw.get(...fillPlaceholders(select.query.params, values ?? {})) as unknown[] | undefined;
    return row === undefined ? undefined : mapRow(row);
  };
  return statement;
}

/**
 * `column IN` a list of ids passed as one JSON array parameter (`idList`): one prepared statement then
 * serves every list length, and SQLite still looks each id up by index.
 */
export const inIdList = (column: AnyColumn, placeholder: string): SQL =>
  sql`${column} in (select value from json_each(${sql.placeholder(placeholder)}))`;

export const idList = (ids: readonly string[]): string => JSON.stringify(ids);

/** A placeholder as an UPDATE's new value (Drizzle's `set` types take SQL there, not a bare placeholder). */
export const setTo = (placeholder: string): SQL => sql`${sql.placeholder(placeholder)}`;

/**
 * An insert's values with each of `keys` a placeholder of the same name. The column's encoder applies
 * to the value bound (a JSON column's is stringified), to a null as well, which a JSON column would then
 * store as the text 'null': a nullable JSON column needs a bare `sql` placeholder and a value the caller encodes.
 */
export function placeholders<K extends string>(...keys: K[]): { [Key in K]: Placeholder<Key> } {
  return Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)])) as { [Key in K]: Placeholder<Key> };
}
