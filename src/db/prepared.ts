import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * The connection a query runs on. A transaction (what `inTransaction` hands out) is a Drizzle object
 * of its own but shares its database's session, so keying on the session lets a statement prepared
 * once serve both the database and every transaction on it.
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
      statement = build(db);
      prepared.set(connection, statement);
    }
    return statement;
  };
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
