import { sql } from 'drizzle-orm';
import { check, integer, pgTable } from 'drizzle-orm/pg-core';
import { instant } from './columns.ts';

/**
 * One row, rewritten by readiness (`GET /readyz`) to prove the database takes writes now: a committed
 * write meets what a booking's would (a read-only database, a full disk, its row locked by someone
 * else), which a read or a rolled-back write need not. Every gateway of the database writes the same row.
 */
export const readinessHeartbeat = pgTable(
  'readiness_heartbeat',
  {
    id: integer('id').primaryKey().default(1),
    writtenAt: instant('written_at').notNull(),
  },
  (t) => [check('readiness_heartbeat_one_row', sql`${t.id} = 1`)],
);
