/**
 * The port on SQLite. better-sqlite3 is synchronous and its transactions cannot span an `await`, so a
 * unit of work here is BEGIN IMMEDIATE ... COMMIT on the one connection, with an async lock around it:
 * while a transaction is open, every other call (another transaction, or a store call outside one)
 * waits for it to end, so no request ever sees or joins another's open transaction. Calls made while
 * no transaction is open run at once, as they did before the port. Other processes on the same file
 * are kept apart by SQLite's own locking (BEGIN IMMEDIATE takes the write lock; WAL readers see only
 * committed data).
 */
import { Mutex } from 'async-mutex';
import type { Database, Transaction } from '../port/index.ts';
import { closeDatabase, openDatabase, type Db } from './client.ts';
import { dataGeneration } from './generation.ts';
import { bindStores, settled, type CallRunner } from './store-binding.ts';
import { sqliteStores } from './stores/index.ts';

class TransactionEnded extends Error {
  constructor() {
    super('A store of a transaction was used after the transaction ended');
  }
}

function sqliteDatabaseOver(db: Db): Database {
  const client = db.$client;
  const lock = new Mutex();
  const begin = client.prepare('BEGIN IMMEDIATE');
  const commit = client.prepare('COMMIT');
  const rollback = client.prepare('ROLLBACK');
  const generation = dataGeneration(db);

  // Outside a transaction: at once when the connection is free, else after the open transaction ends.
  const outside: CallRunner = (call) => (lock.isLocked() ? lock.runExclusive(call) : settled(call));
  const root = bindStores(sqliteStores, db, outside);

  function openTransaction(): { tx: Transaction; end: () => void } {
    let open = true;
    let savepoints = 0;
    const inside: CallRunner = (call) => (open ? settled(call) : Promise.reject(new TransactionEnded()));
    const tx: Transaction = {
      ...bindStores(sqliteStores, db, inside),
      async savepoint(work) {
        if (!open) throw new TransactionEnded();
        const name = `sp${++savepoints}`;
        client.exec(`SAVEPOINT ${name}`);
        try {
          const result = await work(tx);
          client.exec(`RELEASE ${name}`);
          return result;
        } catch (error) {
          client.exec(`ROLLBACK TO ${name}`);
          client.exec(`RELEASE ${name}`);
          throw error;
        }
      },
    };
    return { tx, end: () => (open = false) };
  }

  return {
    ...root,
    async transaction(work) {
      const release = await lock.acquire();
      const { tx, end } = openTransaction();
      try {
        begin.run();
        try {
          const result = await work(tx);
          commit.run();
          return result;
        } catch (error) {
          if (client.inTransaction) rollback.run();
          throw error;
        }
      } finally {
        end();
        release();
      }
    },
    dataVersion: () => (lock.isLocked() ? lock.runExclusive(generation) : settled(generation)),
    async close() {
      await lock.waitForUnlock();
      closeDatabase(db);
    },
  };
}

const databases = new WeakMap<Db, Database>();

/**
 * The port over an open connection: one per connection, so everything using that connection shares
 * its lock (the tests build their data on the connection and run the app on its port).
 */
export function sqliteDatabase(db: Db): Database {
  let database = databases.get(db);
  if (!database) {
    database = sqliteDatabaseOver(db);
    databases.set(db, database);
  }
  return database;
}

/** Opens (creating and migrating when needed) the SQLite database at `url`, a file path or `:memory:`. */
export function openSqliteDatabase(url: string): { database: Database; connection: Db } {
  const connection = openDatabase(url);
  return { database: sqliteDatabase(connection), connection };
}
