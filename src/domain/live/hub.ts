/**
 * The live hub: one reader of the outbox per gateway, however many watchers it serves. It keeps the
 * sequence of the last event it read, and reads on from there (`findEventsAfter`, pages of PAGE_SIZE)
 * when the database hints that units with events committed (`onEventsCommitted`), and on a timer, since
 * a hint may be lost (a PostgreSQL connection cut, another process on a SQLite file): a lost hint costs
 * at most `catchUpIntervalMs`. Hints coalesce: one read runs at a time, and hints arriving meanwhile ask
 * for one more. Sequences only grow in commit order (EventRow.sequence), so paging from the last one
 * read misses no event and repeats none. Each page goes to every listener as it is, in sequence order.
 * A database that cannot be read is logged and read again at the next hint or tick. While nobody
 * listens the hub reads nothing at all (a gateway without subscribers pays no statement per commit): the
 * first listener after that takes the newest sequence as the hub's position.
 */
import type { Database } from '../shared/database.ts';
import type { EventRow } from '../outbox/store.ts';

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
   * `position` then), and perhaps a few committed just before. Resolves with the function that removes
   * it. A listener must not throw (logged if it does). The first listener of an idle hub waits for one
   * read of the newest sequence, and fails as that read does (the database down).
   */
  listen(listener: LiveListener): Promise<() => void>;
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
  /** Units committed while nobody listened: the position is behind, and is taken again by the next first listener. */
  let idleSinceRead = true;

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
    for (;;) {
      if (position === null || listeners.size === 0) return;
      const events = await db.events.findEventsAfter(position, HUB_PAGE_SIZE);
      if (closed || events.length === 0) return;
      position = events[events.length - 1]!.sequence;
      deliver(events);
      if (events.length < HUB_PAGE_SIZE) return;
    }
  }

  const wake = () => {
    if (closed) return;
    if (listeners.size === 0) {
      idleSinceRead = true;
      return;
    }
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

  const stopHints = db.onEventsCommitted(wake);
  const timer = setInterval(wake, options.catchUpIntervalMs);
  timer.unref();

  return {
    async listen(listener) {
      if (listeners.size === 0 && idleSinceRead) {
        const newest = await db.events.lastEventSequence();
        // A listener that came meanwhile has the hub reading from its position already: this one shares it.
        if (listeners.size === 0) {
          position = Math.max(position ?? 0, newest);
          idleSinceRead = false;
        }
      }
      listeners.add(listener);
      // A unit that committed while the newest sequence was read has its events read now, not at the next tick.
      wake();
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
