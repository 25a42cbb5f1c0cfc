/**
 * Operational state read from the database: readiness, queue sizes, and the booking events committed
 * since a point, which the metrics count (the outbox is the one place every booking change is recorded,
 * and only committed changes are visible in it).
 */
import type { Stores } from '../shared/database.ts';
import { type QueueSizes } from './store.ts';

export type { QueueSizes };

export type Readiness = { ready: true } | { ready: false; reason: 'database unavailable' | 'database migrations pending' };

/** Whether the database answers and carries every migration of this build; never throws. */
export async function readiness(db: Stores): Promise<Readiness & { error?: unknown }> {
  try {
    await db.operations.pingDatabase();
    return (await db.operations.migrationsCurrent()) ? { ready: true } : { ready: false, reason: 'database migrations pending' };
  } catch (error) {
    return { ready: false, reason: 'database unavailable', error };
  }
}

export async function currentQueueSizes(db: Stores): Promise<QueueSizes> {
  return db.operations.queueSizes();
}

/** Where the booking event counts start: the newest event now. */
export async function eventCursor(db: Stores): Promise<number> {
  return db.operations.newestEventSequence();
}

/** Booking events after `cursor`, by event name (`created`, `confirmed`...), and the cursor to continue from. */
export async function bookingEventsAfter(db: Stores, cursor: number): Promise<{ counts: Map<string, number>; cursor: number }> {
  const counts = new Map<string, number>();
  let next = cursor;
  for (const row of await db.operations.eventCountsAfter(cursor)) {
    next = Math.max(next, row.newest);
    if (row.type.startsWith('booking.')) counts.set(row.type.slice('booking.'.length), row.n);
  }
  return { counts, cursor: next };
}
