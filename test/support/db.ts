import { openDatabase, type Db } from '../../src/db/sqlite/client.ts';

/** A fresh, migrated in-memory database: every test file builds its own data on it. */
export function freshDb(): Db {
  return openDatabase(':memory:');
}
