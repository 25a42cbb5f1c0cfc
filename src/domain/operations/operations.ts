/**
 * Operational state read from the database: readiness, queue sizes, and the booking events committed
 * since a point, which the metrics count (the outbox is the one place every booking change is recorded,
 * and only committed changes are visible in it).
 */
import type { Db } from '../../db/sqlite/client.ts';
import { eventCountsAfter, migrationsCurrent, newestEventSequence, pingDatabase, queueSizes, type QueueSizes } from '../../db/sqlite/stores/operations/operations.ts';

export type { QueueSizes };

export type Readiness = { ready: true } | { ready: false; reason: 'database unavailable' | 'database migrations pending' };

/** Whether the database answers and carries every migration of this build; never throws. */
export function readiness(db: Db): Readiness & { error?: unknown } {
  try {
    pingDatabase(db);
    return migrationsCurrent(db) ? { ready: true } : { ready: false, reason: 'database migrations pending' };
  } catch (error) {
    return { ready: false, reason: 'database unavailable', error };
  }
}

export function currentQueueSizes(db: Db): QueueSizes {
  return queueSizes(db);
}

/** Where the booking event counts start: the newest event now. */
export function eventCursor(db: Db): number {
  return newestEventSequence(db);
}

/** Booking events after `cursor`, by event name (`created`, `confirmed`...), and the cursor to continue from. */
export function bookingEventsAfter(db: Db, cursor: number): { counts: Map<string, number>; cursor: number } {
  const counts = new Map<string, number>();
  let next = cursor;
  for (const row of eventCountsAfter(db, cursor)) {
    next = Math.max(next, row.newest);
    if (row.type.startsWith('booking.')) counts.set(row.type.slice('booking.'.length), row.n);
  }
  return { counts, cursor: next };
}
