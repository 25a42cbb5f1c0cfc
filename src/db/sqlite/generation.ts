import type { Db } from './client.ts';

const readers = new WeakMap<Db, () => string>();

/**
 * A value that changes whenever a table a cached answer may read has changed: the counter of
 * data_generation's one row, which the triggers of those tables move on every row written, by this
 * process or another on the same file (drizzle/sqlite/migrations/0018). Writes to the tables no cached
 * answer reads (src/db/unversioned-tables.ts: bookings and what they write, the readiness heartbeat, webhook
 * bookkeeping) leave it as it was. Read outside any transaction (the caller's `outside`), it counts committed
 * writes only. About 3 µs to read.
 */
export function dataGeneration(db: Db): () => string {
  let read = readers.get(db);
  if (!read) {
    const statement = db.$client.prepare('SELECT version FROM data_generation').pluck();
    read = () => String(statement.get() ?? 'none');
    readers.set(db, read);
  }
  return read;
}
