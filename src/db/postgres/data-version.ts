/**
 * `Database.dataVersion` on PostgreSQL, without a statement: a value kept in memory, `<epoch>.<count>`.
 * The epoch is new each time the listening connection (listener.ts) starts listening; the count moves
 * - on every notification on DATA_CHANNEL: every write to a table a cached answer may read, by any gateway,
 *   psql or a migration, queues one (a statement-level trigger, drizzle/postgres/migrations/0011; none on
 *   the tables no cached answer reads, 0013 and 0014: src/db/unversioned-tables.ts), which the server
 *   delivers once the writing transaction is visible;
 * - as each write of this gateway's own connections to such a table becomes visible (own-writes.ts: its
 *   COMMIT, or an autocommitted statement), before whoever sent it goes on: a request that starts after a
 *   write's answer never sees what was cached before it.
 * So equal values mean no write became visible in between, except for a write of another gateway (or
 * psql) whose notification has not arrived yet: that is the staleness this allows, normally a
 * millisecond or two, at most the listener's check interval and timeout when its connection is cut
 * silently (then the version falls back, below, and moves).
 *
 * While the connection does not listen (starting, lost, opening again), it falls back to one statement:
 * the server's current snapshot (`xmin:xmax:in-progress xids`), which changes when a transaction that
 * wrote ends, at the moment its changes become visible, on every gateway of the database (the WAL
 * position would move before the commit is visible). Snapshots and counts never look alike, and an epoch
 * never returns, so a value of one mode or epoch is never taken for another's.
 *
 * The keys version (`keys()`, Database.keysVersion) is the same with a count of its own that moves only
 * on notifications on KEYS_CHANNEL (writes to api_keys, brands, organizations: migration 0012) and on this
 * gateway's own writes that may touch those tables (own-writes.ts: writesKeys). Same epoch, same
 * staleness, same fallback; so a booking does not make the next request look its API key up again, while
 * a revoked key is refused from the next request on this gateway and once the notification arrives on
 * another.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { OwnWrites } from './own-writes.ts';

/** The channel the trigger of every table notifies. */
export const DATA_CHANNEL = 'tessera_data';
/** The channel the trigger of the tables a key lookup reads notifies, besides DATA_CHANNEL. */
export const KEYS_CHANNEL = 'tessera_keys';

export interface DataVersion {
  current(): Promise<string>;
  /** The keys version. */
  keys(): Promise<string>;
  /** What the listening connection hears. */
  notified(channel: string): void;
  listening(): void;
  deaf(): void;
  /** Stops hearing this gateway's writes. */
  close(): void;
}

export function dataVersion(pool: pg.Pool, ownWrites: OwnWrites | undefined, startListening: () => void): DataVersion {
  // Null while not listening, or when this pool's own writes cannot be told (a pool not opened by openPostgres).
  let epoch: string | null = null;
  let count = 0;
  let keysCount = 0;
  const moved = (keys: boolean) => {
    count += 1;
    if (keys) keysCount += 1;
  };
  const stopHearing = ownWrites?.onWritten(moved);

  const snapshot = async () => {
    const result = await pool.query<{ snapshot: string }>({
      name: 'data_version',
      text: 'SELECT pg_current_snapshot()::text AS snapshot',
    });
    return result.rows[0]!.snapshot;
  };

  return {
    current() {
      if (epoch !== null) return Promise.resolve(`${epoch}.${count}`);
      startListening();
      return snapshot();
    },
    keys() {
      if (epoch !== null) return Promise.resolve(`${epoch}.${keysCount}`);
      startListening();
      return snapshot();
    },
    notified(channel) {
      if (channel === DATA_CHANNEL) moved(false);
      else if (channel === KEYS_CHANNEL) keysCount += 1;
    },
    listening() {
      // Every write visible before LISTEN took effect is visible to what reads under the new epoch; every
      // one after is notified.
      if (ownWrites === undefined) return;
      epoch = randomUUID();
      count = 0;
      keysCount = 0;
    },
    deaf() {
      epoch = null;
    },
    close() {
      epoch = null;
      stopHearing?.();
    },
  };
}
