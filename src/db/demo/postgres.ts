/**
 * The demo data on PostgreSQL: the same seeders build it on an in-memory SQLite database (they write
 * through the SQLite schema and the port, exactly as on the embedded default), then its rows are copied
 * in one transaction. A transaction-level advisory lock is taken before the emptiness check, so of N
 * gateways starting together on an empty database one loads the data and the others find it there.
 */
import { count, sql } from 'drizzle-orm';
import type { PgDb } from '../postgres/client.ts';
import { copyFromSqlite } from '../postgres/copy-from-sqlite.ts';
import { brands } from '../postgres/schema/index.ts';
import { openSqliteDatabase } from '../sqlite/database.ts';
import { seedDemoDataIfEmpty } from './index.ts';

export async function seedPostgresDemoDataIfEmpty(db: PgDb, now: Date = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('tessera:demo-data', 0))`);
    const [existing] = await tx.select({ n: count() }).from(brands);
    if ((existing?.n ?? 0) > 0) return false;
    const memory = openSqliteDatabase(':memory:');
    try {
      await seedDemoDataIfEmpty(memory.database, memory.connection, now);
      await copyFromSqlite(memory.connection, tx);
    } finally {
      await memory.database.close();
    }
    return true;
  });
}
