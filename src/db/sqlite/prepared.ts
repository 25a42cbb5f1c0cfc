import { sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

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

/**
 * An insert's values with each of `keys` a placeholder of the same name. The column's encoder applies
 * to the value bound (a JSON column's is stringified), to a null as well, which a JSON column would then
 * store as the text 'null': a nullable JSON column needs a bare `sql` placeholder and a value the caller encodes.
 */
export function placeholders<K extends string>(...keys: K[]): { [Key in K]: Placeholder<Key> } {
  return Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)])) as { [Key in K]: Placeholder<Key> };
}
