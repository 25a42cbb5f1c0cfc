import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { PoolClient } from 'pg';
import type { PgDb } from './client.ts';
import * as schema from './schema/index.ts';
import type { PgExecutor } from './store-binding.ts';

/**
 * The database's write lock: one advisory lock key. Every unit of work holds it from before its BEGIN
 * to after its COMMIT or ROLLBACK (`underWriteLock`), so units run one after another across every gateway
 * of the database, as they do on SQLite, and:
 * - events take their sequence numbers in commit order, so a reader paging by sequence never skips one
 *   committed later with a lower number (see stores/outbox/events.ts);
 * - no two units hold row locks while waiting for each other (a unit holding a session's row and waiting
 *   to number its event, and one holding the numbering and waiting for that row, deadlocked);
 * - a unit's snapshot is taken once the lock is held, so it sees every unit before it: taken inside the
 *   transaction, the lock's own statement fixed the snapshot first, and SERIALIZABLE then failed every
 *   unit that had waited, again and again (T6 fell to 6 bookings a second).
 * Reads outside units of work do not take it and run in parallel.
 */
const KEY = sql`hashtextextended('tessera:writes', 0)`;

/** The same lock for one transaction (to its end): an event written outside a unit of work takes it. */
export const writeLock = sql`SELECT pg_advisory_xact_lock(${KEY})`;

/** Drizzle over each pooled connection, made once per connection: making it reads the whole schema. */
const executors = new WeakMap<PoolClient, PgExecutor>();

export function executorOf(client: PoolClient): PgExecutor {
  let executor = executors.get(client);
  if (!executor) {
    executor = drizzle(client, { schema });
    executors.set(client, executor);
  }
  return executor;
}

/**
 * Runs `work` on one connection of the pool holding the write lock (session-level, taken before `work`
 * begins its transaction, given back after). A connection whose lock was not given back cleanly is
 * closed instead of returned to the pool, which gives the lock back too.
 */
export async function underWriteLock<T>(db: PgDb, work: (locked: PgExecutor, client: PoolClient) => Promise<T>): Promise<T> {
  const client = await db.$client.connect();
  let unlocked = false;
  try {
    const locked = executorOf(client);
    await locked.execute(sql`SELECT pg_advisory_lock(${KEY})`);
    try {
      return await work(locked, client);
    } finally {
      await locked.execute(sql`SELECT pg_advisory_unlock(${KEY})`);
      unlocked = true;
    }
  } finally {
    client.release(unlocked ? undefined : new Error('the write lock was not given back: connection closed'));
  }
}
