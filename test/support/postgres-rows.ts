/**
 * Rows between the engines for the PostgreSQL tests. A test builds its world with the SQLite factories as
 * every other test does and copies it into PostgreSQL (`copyRows`); what a PostgreSQL run leaves behind is
 * copied back into an in-memory SQLite database (`sqliteCopyOf`), where the invariant checks of
 * test/support/invariants.ts read it as they read a SQLite file.
 */
import { getTableName } from 'drizzle-orm';
import { type PgTable } from 'drizzle-orm/pg-core';
import type { PgDb } from '../../src/db/postgres/client.ts';
import { copyFromSqlite, inDependencyOrder, sqliteTables } from '../../src/db/postgres/copy-from-sqlite.ts';
import { openDatabase, type Db } from '../../src/db/sqlite/client.ts';

export { copyFromSqlite as copyRows };

/** A new in-memory SQLite database holding every row of the PostgreSQL database `from`. */
export async function sqliteCopyOf(from: PgDb): Promise<Db> {
  const to = openDatabase(':memory:');
  for (const table of inDependencyOrder()) {
    const rows = await from.select().from(table as PgTable);
    const target = sqliteTables.get(getTableName(table))!;
    for (let start = 0; start < rows.length; start += 200)
      to.insert(target)
        .values(rows.slice(start, start + 200))
        .run();
  }
  return to;
}
