import { sql } from 'drizzle-orm';
import { check, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * One row, rewritten by readiness (`GET /readyz`) to prove the database takes writes now: a committed
 * write meets what a booking's would (a read-only or full database, the write lock held by someone
 * else), which a read or a rolled-back write need not.
 */
export const readinessHeartbeat = sqliteTable(
  'readiness_heartbeat',
  {
    id: integer('id').primaryKey().default(1),
    writtenAt: text('written_at').notNull(),
  },
  (t) => [check('readiness_heartbeat_one_row', sql`${t.id} = 1`)],
);
