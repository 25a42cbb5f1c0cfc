import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema/index.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../../drizzle/sqlite/migrations');

/**
 * Opens (creating when needed) the SQLite database at `url` — a file path or `:memory:` — and
 * applies every pending migration. WAL with synchronous=FULL: a committed write survives power loss.
 */
export function openDatabase(url: string): Db {
  if (url !== ':memory:') mkdirSync(dirname(resolve(url)), { recursive: true });
  const sqlite = new Database(url);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  // A migration that changes a table's constraints rebuilds it (SQLite's "make other kinds of table schema
  // changes": copy, drop, rename). Dropping a table that rows refer to fails while foreign keys are enforced,
  // and the migrator runs in one transaction, where its own `PRAGMA foreign_keys=OFF` does nothing: so
  // enforcement (which better-sqlite3 turns on by default) starts once the migrations are in, after checking
  // they left every reference whole.
  sqlite.pragma('foreign_keys = OFF');
  migrate(db, { migrationsFolder });
  const broken = sqlite.pragma('foreign_key_check');
  if (Array.isArray(broken) && broken.length > 0)
    throw new Error(`Migrations left broken references: ${JSON.stringify(broken.slice(0, 5))}`);
  sqlite.pragma('foreign_keys = ON');
  return db;
}

export function closeDatabase(db: Db): void {
  db.$client.close();
}

/** One better-sqlite3 transaction function per connection, running whatever function it is handed. */
const transactions = new WeakMap<Database.Database, Database.Transaction<(fn: () => unknown) => unknown>>();

/**
 * Runs `fn` in one write transaction that takes SQLite's write lock first (BEGIN IMMEDIATE), so
 * what it reads cannot change before it writes, even with other processes on the same file. `fn` is
 * synchronous: nothing may be awaited inside a transaction. better-sqlite3 runs the transaction and
 * `fn` gets the database itself: Drizzle's transaction object costs more to build than a small
 * transaction takes to run. Called inside a transaction, it runs in a savepoint of it.
 */
export function inTransaction<T>(db: Db, fn: (tx: Db) => T): T {
  return transactionOf(db.$client).immediate(() => fn(db)) as T;
}

/**
 * Runs `read`, statements that only read, in one read transaction (BEGIN DEFERRED ... COMMIT) when the
 * connection has none open: they see one snapshot of the file, so that a commit by another process cannot
 * land between them, and SQLite takes and drops its read locks once instead of around each statement (about
 * 6 µs a statement outside a transaction; a checkout's reads are 16 statements). `read` is synchronous.
 * Inside an open transaction (a unit of work's group) it runs as it is, in that transaction.
 */
export function readTogether<T>(db: Db, read: () => T): T {
  const client = db.$client;
  return client.inTransaction ? read() : (transactionOf(client).deferred(read) as T);
}

function transactionOf(client: Database.Database): Database.Transaction<(fn: () => unknown) => unknown> {
  let transaction = transactions.get(client);
  if (!transaction) {
    transaction = client.transaction((body: () => unknown) => body());
    transactions.set(client, transaction);
  }
  return transaction;
}
