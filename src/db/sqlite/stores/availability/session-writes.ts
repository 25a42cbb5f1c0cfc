import type { SessionWritesStore } from '../../../../domain/availability/store.ts';
import { chunks, sessionWriteStatements } from '../../../catalog-writes/sessions.ts';
import type { Db } from '../../client.ts';
import { bookings, sessions } from '../../schema/index.ts';
import type { SqliteStore } from '../../store-binding.ts';

/** The shared statements (src/db/catalog-writes/sessions.ts) on better-sqlite3, which runs them synchronously. */
const statements = sessionWriteStatements({ sessions, bookings });

export const sessionWritesStore = {
  insertSessions: (db: Db, rows) =>
    chunks(rows).flatMap((chunk) => db.all<{ id: string }>(statements.insertSessions(chunk)).map((r) => r.id)),
  setCapacity: (db: Db, sessionId, capacity) => db.run(statements.setCapacity(sessionId, capacity)).changes === 1,
  markCancelled: (db: Db, sessionId, at) => db.run(statements.markCancelled(sessionId, at)).changes === 1,
  liveBookingsOfSession: (db: Db, sessionId) => db.all<{ id: string }>(statements.liveBookingsOfSession(sessionId)).map((r) => r.id),
} satisfies SqliteStore<SessionWritesStore>;
