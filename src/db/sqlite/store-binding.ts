import type { Stores } from '../../domain/shared/database.ts';
import { storeBinding } from '../store-binding.ts';
import type { Db } from './client.ts';

/**
 * A store as the SQLite adapter writes it: the port's methods as synchronous functions taking the
 * connection first (better-sqlite3 is synchronous; statements are prepared once per connection).
 */
export type SqliteStore<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<infer R> ? (db: Db, ...args: A) => R : never;
};

export type SqliteStores = { [K in keyof Stores]: SqliteStore<Stores[K]> };

/** Runs one store call; the binding decides when (at once, or after an open transaction ends). */
export type CallRunner = <R>(call: () => R) => Promise<R>;

/** A synchronous call as a settled promise: its value, or its exception as a rejection. */
export function settled<R>(call: () => R): Promise<R> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The port's stores over `db`, each call going through the `run` it is bound with: `all` for the
 * connection outside transactions, `unit` for a transaction (each store bound on first use).
 */
export function sqliteStoreBinding(implementations: SqliteStores) {
  return storeBinding<{ db: Db; run: CallRunner }, Stores, (db: Db, ...args: unknown[]) => unknown>(
    implementations as unknown as Record<string, Record<string, (db: Db, ...args: unknown[]) => unknown>>,
    (fn, { db, run }) =>
      (...args) =>
        run(() => fn(db, ...args)),
  );
}
