import type { Db } from './client.ts';

/**
 * A query built and prepared once per database connection, on first use, instead of on every call:
 * for the statements every request runs (the API-key lookup), Drizzle's query building and SQLite's
 * statement compilation cost more than the query itself. Parameters are `sql.placeholder`s.
 */
export function preparedPerDb<P>(build: (db: Db) => P): (db: Db) => P {
  const prepared = new WeakMap<Db, P>();
  return (db) => {
    let statement = prepared.get(db);
    if (!statement) {
      statement = build(db);
      prepared.set(db, statement);
    }
    return statement;
  };
}
