import type { Database } from '../../src/domain/shared/database.ts';
import { openDatabase, type Db } from '../../src/db/sqlite/client.ts';
import { sqliteDatabase } from '../../src/db/sqlite/database.ts';

/** A fresh, migrated in-memory database: every test file builds its own data on it. */
export function freshDb(): Db {
  return openDatabase(':memory:');
}

/** The port over a test's connection, as the app runs on it: what domain functions are handed. */
export function portOf(db: Db): Database {
  return sqliteDatabase(db);
}
