import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';

/** What a PostgreSQL store runs its statements on: the pool, or one open transaction (or savepoint) of it. */
export type PgExecutor = PgDatabase<NodePgQueryResultHKT, typeof schema>;

/** A store as the PostgreSQL adapter writes it: the port's methods taking the executor first. */
export type PostgresStore<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<infer R> ? (db: PgExecutor, ...args: A) => Promise<R> : never;
};

export type PostgresStores<S> = { [K in keyof S]: PostgresStore<S[K]> };

/** The stores of `implementations` with their statements run on `db`. */
export function bindStores<S>(implementations: PostgresStores<S>, db: PgExecutor): S {
  const stores: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [key, implementation] of Object.entries(
    implementations as Record<string, Record<string, (db: PgExecutor, ...args: unknown[]) => Promise<unknown>>>,
  )) {
    const bound: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const [name, fn] of Object.entries(implementation)) bound[name] = (...args) => fn(db, ...args);
    stores[key] = bound;
  }
  return stores as S;
}
