/**
 * Operational state of the database: readiness, queue sizes, and the booking events committed
 * since a point, which the metrics count (the outbox is the one place every booking change is recorded,
 * and only committed changes are visible in it).
 */
import type { Database, Stores } from '../shared/database.ts';
import { type QueueSizes, type UnpaidPlaces } from './store.ts';

export type { QueueSizes };

export type NotReadyReason = 'database unavailable' | 'database migrations pending' | 'database writes failing';

export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason; error?: unknown };

/**
 * Whether the database takes a committed write now (the heartbeat, in a unit of work as every booking
 * change is, so it queues, locks and commits as they do), answers and carries every migration of this
 * build; never throws. `written` is called once the write has committed: a caller that stops waiting
 * can tell a stalled write from a slow read. A write that fails is explained by the reads: a database
 * that does not answer is unavailable, one without this build's migrations is pending them, and one
 * that answers but refuses the write (read-only, full) is failing writes.
 */
export async function readiness(db: Database, at: Date, written: () => void = () => {}): Promise<Readiness> {
  let writeError: unknown;
  try {
    await db.transaction((tx) => tx.operations.recordHeartbeat(at.toISOString()));
    written();
  } catch (error) {
    writeError = error;
  }
  const reads = await databaseAnswers(db);
  if (!reads.ready || writeError === undefined) return reads;
  return { ready: false, reason: 'database writes failing', error: writeError };
}

async function databaseAnswers(db: Stores): Promise<Readiness> {
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

/** Unpaid places held per brand and key kind: how much of the inventory anonymous browsers keep back. */
export async function unpaidPlacesHeld(db: Stores): Promise<UnpaidPlaces[]> {
  return db.operations.unpaidPlacesHeld();
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
