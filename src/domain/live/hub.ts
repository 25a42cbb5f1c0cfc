/**
 * The live hub: one reader of the outbox per gateway, however many watchers it serves. It keeps the
 * sequence of the last event it read, and reads on from there (`findEventsAfter`, pages of PAGE_SIZE)
 * when the database hints that units with events committed (`onEventsCommitted`), and on a timer, since
 * a hint may be lost (a PostgreSQL connection cut, another process on a SQLite file): a lost hint costs
 * at most `catchUpIntervalMs`. Hints coalesce: one read runs at a time, and hints arriving meanwhile ask
 * for one more. Sequences only grow in commit order (EventRow.sequence), so paging from the last one
 * read misses no event and repeats none. Each page goes to every listener as it is, in sequence order.
 * A database that cannot be read is logged and read again at the next hint or tick.
 */
import type { Database } from '../shared/database.ts';
import type { EventRow } from '../outbox/store.ts';
import { DomainError } from '../shared/errors.ts';

export const liveHubDefaults = {
  /** LIVE_CATCH_UP_INTERVAL_MS: what a lost hint delays events by at most, for one light read per interval. */
  catchUpIntervalMs: 2_000,
} as const;

/** Events read per statement. */
export const HUB_PAGE_SIZE = 500;

export type LiveListener = (events: readonly EventRow[]) => void;

export interface LiveHub {
  /**
   * Events of all brands committed after the hub started, each batch in sequence order, to every
   * listener: a listener gets every event read after it was added (all events with a sequence above
   * `position` then). Returns the function that removes it. A listener must not throw (logged if it does).
   * SERVICE_UNAVAILABLE while the hub has not read its starting position yet (the database was down).
   */
  listen(listener: LiveListener): () => void;
  /** Listeners registered now (each watcher registers one, and removes it when it ends). */
  readonly listenerCount: number;
  /** The sequence of the last event read (and handed to the listeners). */
  readonly position: number;
  /** Stops reading; no timer is left. */
  close(): Promise<void>;
}

export interface LiveHubOptions {
  /** How often the hub reads without a hint (LIVE_CATCH_UP_INTERVAL_MS). */
  catchUpIntervalMs: number;
  /** Where failed reads are reported (a pino logger fits). */
  log?: { warn(details: object, message: string): void };
}

export async function startLiveHub(db: Database, options: LiveHubOptions): Promise<LiveHub> {
  const listeners = new Set<LiveListener>();
  let position: number | null = null;
  let reading: Promise<void> | null = null;
  let again = false;
  let closed = false;

  const deliver = (events: readonly EventRow[]) => {
    for (const listener of [...listeners]) {
      try {
        listener(events);
      } catch (error) {
        options.log?.warn({ err: error }, 'a live listener failed');
      }
    }
  };

  /** Reads until no page is left, from where the last read stopped. */
  async function readAll(): Promise<void> {
    position ??= await db.events.lastEventSequence();
    if (listeners.size === 0) {
      // Nobody to hand events to: move to the newest, unless a listener came while asking (it must get
      // everything after the position it found, so the pages are read then).
      const newest = await db.events.lastEventSequence();
      if (listeners.size === 0) {
        position = Math.max(position, newest);
        return;
      }
    }
    for (;;) {
      const events = await db.events.findEventsAfter(position, HUB_PAGE_SIZE);
      if (closed || events.length === 0) return;
      position = events[events.length - 1]!.sequence;
      deliver(events);
      if (events.length < HUB_PAGE_SIZE) return;
    }
  }

  const wake = () => {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = (async () => {
      do {
        again = false;
        try {
          await readAll();
        } catch (error) {
          options.log?.warn({ err: error }, 'reading the events for live updates failed; trying again at the next tick');
          break;
        }
      } while (again && !closed);
      reading = null;
    })();
  };

  try {
    position = await db.events.lastEventSequence();
  } catch (error) {
    // The hub still starts: it takes its position at the first read that works.
    options.log?.warn({ err: error }, 'the live hub could not read the last event; trying again at the next tick');
  }
  const stopHints = db.onEventsCommitted(wake);
  const timer = setInterval(wake, options.catchUpIntervalMs);
  timer.unref();

  return {
    listen(listener) {
      // Without a position the hub cannot tell which events came after the listener: no promise to keep.
      if (position === null)
        throw new DomainError('SERVICE_UNAVAILABLE', 'Live updates are starting: the events could not be read yet; retry');
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    get listenerCount() {
      return listeners.size;
    },
    get position() {
      return position ?? 0;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      stopHints();
      listeners.clear();
      await reading;
    },
  };
}
