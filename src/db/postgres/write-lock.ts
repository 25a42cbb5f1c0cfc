import { sql } from 'drizzle-orm';

/**
 * The database's write lock: a transaction-level advisory lock, held to COMMIT or ROLLBACK. Every unit of
 * work takes it first (src/db/postgres/database.ts), so units that write run one after another across
 * every gateway of the database, as they do on SQLite, and:
 * - events take their sequence numbers in commit order, so a reader paging by sequence never skips one
 *   committed later with a lower number (see stores/outbox/events.ts);
 * - no two units hold row locks while waiting for each other: without it, a unit holding a session's row
 *   and waiting to number its event, and one holding the numbering and waiting for that row, deadlocked,
 *   and SERIALIZABLE failed most units of a burst on a popular session over and over.
 * Reads outside units of work do not take it and run in parallel. Re-taking it in the same transaction
 * is free.
 */
export const writeLock = sql`SELECT pg_advisory_xact_lock(hashtextextended('tessera:writes', 0))`;
