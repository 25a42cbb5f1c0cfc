import type { Db } from './client.ts';

const readers = new WeakMap<Db, () => string>();
/** Per connection: rows changed that no answer reads (changedUnread). */
const unread = new WeakMap<Db['$client'], { rows: number }>();
const unreadOf = (db: Db) => {
  let counted = unread.get(db.$client);
  if (counted === undefined) unread.set(db.$client, (counted = { rows: 0 }));
  return counted;
};

/**
 * Notes `rows` changed on `db`'s connection that no answer reads (the readiness heartbeat's row): the
 * generation leaves them out, so a readiness probe does not empty the response cache. Call it right after
 * the statement runs, committed or not, as `total_changes()` counts them.
 */
export function changedUnread(db: Db, rows: number): void {
  unreadOf(db).rows += rows;
}

/**
 * A value that changes whenever the database content may have changed: `total_changes()` counts the
 * rows this connection has written (committed or not: a rolled-back write only costs a cache miss),
 * `data_version` changes when any other connection — another process on the same file — commits.
 * Equal values at two moments mean nothing was written in between, by anyone, but rows no answer reads
 * (changedUnread) written by this connection; another process's heartbeat still moves `data_version`.
 * About 5 µs to read.
 */
export function dataGeneration(db: Db): () => string {
  let read = readers.get(db);
  if (!read) {
    const statement = db.$client.prepare('SELECT total_changes(), (SELECT data_version FROM pragma_data_version())').raw();
    const unreadRows = unreadOf(db);
    read = () => {
      const [changes, version] = statement.get() as [number, number];
      return `${changes - unreadRows.rows}:${version}`;
    };
    readers.set(db, read);
  }
  return read;
}
