/**
 * The statements of the session writes (SessionWritesStore), written once for both engines: Drizzle's
 * dialect-neutral `sql` over the tables each adapter passes in. SQLite and PostgreSQL read them the same
 * (`INSERT ... ON CONFLICT DO NOTHING RETURNING`, conditional UPDATEs); each adapter only runs them, on its
 * synchronous or asynchronous driver (src/db/sqlite/stores/availability/session-writes.ts and the
 * PostgreSQL twin). Columns in SET and INSERT lists are named bare, as PostgreSQL requires.
 */
import { sql, type Column, type SQL, type Table } from 'drizzle-orm';
import type { NewSessionRow } from '../../domain/availability/store.ts';

/** The columns the statements name, as both engines' schemas declare them. */
export interface SessionWriteTables {
  sessions: Table & {
    id: Column;
    experienceId: Column;
    startLocal: Column;
    startsAt: Column;
    durationMinutes: Column;
    capacity: Column;
    reserved: Column;
    heldForOffers: Column;
    cancelledAt: Column;
  };
  bookings: Table & { id: Column; sessionId: Column; status: Column };
}

/** Rows per INSERT: 6 parameters each stays far below either engine's limit on parameters. */
export const INSERT_CHUNK = 500;

const bare = (column: Column) => sql.identifier(column.name);

export function sessionWriteStatements({ sessions, bookings }: SessionWriteTables) {
  return {
    /** Inserts the rows (at most INSERT_CHUNK) an experience has no session at yet; returns `{ id }` of each inserted. */
    insertSessions(rows: readonly NewSessionRow[]): SQL {
      const columns = [
        sessions.id,
        sessions.experienceId,
        sessions.startLocal,
        sessions.startsAt,
        sessions.durationMinutes,
        sessions.capacity,
      ];
      const values = rows.map(
        (row) => sql`(${row.id}, ${row.experienceId}, ${row.startLocal}, ${row.startsAt}, ${row.durationMinutes}, ${row.capacity})`,
      );
      return sql`INSERT INTO ${sessions} (${sql.join(columns.map(bare), sql`, `)}) VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (${bare(sessions.experienceId)}, ${bare(sessions.startLocal)}) DO NOTHING RETURNING ${bare(sessions.id)} AS id`;
    },
    /** One conditional UPDATE: changes one row, or none when cancelled or the places taken exceed `capacity`. */
    setCapacity(sessionId: string, capacity: number): SQL {
      return sql`UPDATE ${sessions} SET ${bare(sessions.capacity)} = ${capacity}
        WHERE ${sessions.id} = ${sessionId} AND ${sessions.cancelledAt} IS NULL
          AND ${sessions.reserved} + ${sessions.heldForOffers} <= ${capacity}`;
    },
    /** Changes one row, or none when the session was already cancelled. */
    markCancelled(sessionId: string, at: string): SQL {
      return sql`UPDATE ${sessions} SET ${bare(sessions.cancelledAt)} = ${at}
        WHERE ${sessions.id} = ${sessionId} AND ${sessions.cancelledAt} IS NULL`;
    },
    /** `{ id }` of the session's bookings that hold places, by id (byte order on both engines). */
    liveBookingsOfSession(sessionId: string): SQL {
      return sql`SELECT ${bookings.id} AS id FROM ${bookings}
        WHERE ${bookings.sessionId} = ${sessionId} AND ${bookings.status} IN ('processing', 'confirmed')
        ORDER BY ${bookings.id}`;
    },
  };
}

/** `rows` in chunks of INSERT_CHUNK, for `insertSessions`. */
export function chunks<T>(rows: readonly T[], size = INSERT_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
