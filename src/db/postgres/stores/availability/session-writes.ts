import type { NewSessionRow, SessionWritesStore } from '../../../../domain/availability/store.ts';
import { chunks, sessionWriteStatements } from '../../../catalog-writes/sessions.ts';
import { bookings, sessions } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';

/**
 * The shared statements (src/db/catalog-writes/sessions.ts) on node-postgres. The guards are single
 * conditional UPDATEs: a take racing `setCapacity` or `markCancelled` waits for the row lock and re-checks
 * on the row as it was left (the take requires `cancelled_at IS NULL`).
 */
const statements = sessionWriteStatements({ sessions, bookings });

async function insertSessions(db: PgExecutor, rows: readonly NewSessionRow[]): Promise<string[]> {
  const ids: string[] = [];
  for (const chunk of chunks(rows)) ids.push(...(await db.execute<{ id: string }>(statements.insertSessions(chunk))).rows.map((r) => r.id));
  return ids;
}

export const sessionWritesStore = {
  insertSessions,
  setCapacity: async (db: PgExecutor, sessionId: string, capacity: number) =>
    (await db.execute(statements.setCapacity(sessionId, capacity))).rowCount === 1,
  markCancelled: async (db: PgExecutor, sessionId: string, at: string) =>
    (await db.execute(statements.markCancelled(sessionId, at))).rowCount === 1,
  liveBookingsOfSession: async (db: PgExecutor, sessionId: string) =>
    (await db.execute<{ id: string }>(statements.liveBookingsOfSession(sessionId))).rows.map((r) => r.id),
} satisfies PostgresStore<SessionWritesStore>;
