import type { Db } from './client.ts';

const readers = new WeakMap<Db, () => string>();

/**
 * A value that changes whenever the database content may have changed: `total_changes()` counts the
 * rows this connection has written (committed or not: a rolled-back write only costs a cache miss),
 * `data_version` changes when any other connection — another process on the same file — commits.
 * Equal values at two moments mean nothing was written in between, by anyone. About 5 µs to read.
 */
export function dataGeneration(db: Db): () => string {
  let read = readers.get(db);
  if (!read) {
    const statement = db.$client.prepare('SELECT total_changes(), (SELECT data_version FROM pragma_data_version())').raw();
    read = () => {
      const [changes, version] = statement.get() as [number, number];
      return `${changes}:${version}`;
    };
    readers.set(db, read);
  }
  return read;
}
