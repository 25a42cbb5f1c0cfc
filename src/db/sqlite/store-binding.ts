import type { Stores } from '../../domain/shared/database.ts';
import { lazyStoreBinder } from '../store-binding.ts';
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

type BoundStore = Record<string, (...args: unknown[]) => Promise<unknown>>;
type Implementation = Record<string, (db: Db, ...args: unknown[]) => unknown>;

/** One store over `db`, each call going through `run`. */
function bindStore(implementation: Implementation, db: Db, run: CallRunner): BoundStore {
  const bound: BoundStore = {};
  for (const [name, fn] of Object.entries(implementation)) bound[name] = (...args) => run(() => fn(db, ...args));
  return bound;
}

/** The port's stores over `db`, each call going through `run`. */
export function bindStores(implementations: SqliteStores, db: Db, run: CallRunner): Stores {
  const stores: Record<string, BoundStore> = {};
  for (const [key, implementation] of Object.entries(implementations)) stores[key] = bindStore(implementation as Implementation, db, run);
  return stores as unknown as Stores;
}

/** The same for transactions: each store bound on first use (../store-binding.ts). */
export function unitStoresOf(implementations: SqliteStores): (db: Db, run: CallRunner) => Stores {
  const all = implementations as unknown as Record<string, Implementation>;
  const binder = lazyStoreBinder<Stores>(Object.keys(all));
  return (db, run) => binder((name) => bindStore(all[name]!, db, run));
}
