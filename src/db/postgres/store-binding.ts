import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { sql, type SQL } from 'drizzle-orm';
import { PgTransaction, type PgDatabase, type PgTable } from 'drizzle-orm/pg-core';
import { storeBinding } from '../store-binding.ts';
import { withCompiledExecution } from './prepared-execution.ts';
import type * as schema from './schema/index.ts';

/** What a PostgreSQL store runs its statements on: the pool, or one open transaction (or savepoint) of it. */
export type PgExecutor = PgDatabase<NodePgQueryResultHKT, typeof schema>;

/** Whether `db` is a unit of work's transaction (not a type guard: the executor keeps its type). */
export const inUnit = (db: PgExecutor): boolean => (db as unknown) instanceof PgTransaction;

/** A store as the PostgreSQL adapter writes it: the port's methods taking the executor first. */
export type PostgresStore<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<infer R> ? (db: PgExecutor, ...args: A) => Promise<R> : never;
};

export type PostgresStores<S> = { [K in keyof S]: PostgresStore<S[K]> };

/**
 * The stores of `implementations`, each method running its statements on the executor it is bound to:
 * `all(db)` for the pool, `unit(tx)` for a unit of work or savepoint (each store bound on first use).
 */
export function postgresStoreBinding<S extends object>(implementations: PostgresStores<S>) {
  return storeBinding<PgExecutor, S, (db: PgExecutor, ...args: unknown[]) => Promise<unknown>>(
    implementations as Record<string, Record<string, (db: PgExecutor, ...args: unknown[]) => Promise<unknown>>>,
    (fn, db) =>
      (...args) =>
        fn(db, ...args),
  );
}

/**
 * Locks the rows of `table` that `where` finds, when `db` is a unit of work's transaction, until the unit
 * ends; does nothing outside a unit. A store calls it first in a read of the row a unit acts on (its
 * booking, payment intent, cart, session, waitlist entry or webhook endpoint), then reads: a second unit
 * acting on the same row waits here for the first to end, and its read, a statement of its own, sees what
 * the first committed (at READ COMMITTED each statement sees what committed before it began; a locking
 * read that waited would see its own row as it now is, but rows it joins as they were). `orderBy` fixes
 * the order several rows are locked in. The lock is NO KEY UPDATE, the one an UPDATE that changes no key
 * takes: it keeps other writers and other units' locks out, but not the KEY SHARE locks of foreign-key
 * checks, so inserting a row that refers to a locked one (a booking of a session) does not wait.
 * False when the unit found nothing to lock: the read is then skipped (it would find nothing, or only rows
 * committed since, which the unit does not hold); true outside a unit.
 */
export async function lockInUnit(db: PgExecutor, table: PgTable, where: SQL, orderBy?: SQL): Promise<boolean> {
  if (!inUnit(db)) return true;
  const query = db
    .select({ locked: sql`1` })
    .from(table)
    .where(where);
  const locked = await (orderBy ? query.orderBy(orderBy) : query).for('no key update');
  return locked.length > 0;
}

/** A select Drizzle can lock (`.for`), resolving to the same rows either way. */
type Lockable<R> = PromiseLike<R> & { for(strength: 'no key update'): PromiseLike<R> };

/**
 * `query`, a read of one table's rows with nothing joined or computed from other rows, locking what it
 * finds when `db` is a unit of work's transaction: one statement where `lockInUnit` and a read are two. A
 * locking read that waited for another unit returns each row as that unit left it, which is all this
 * query reads; a read joining other rows needs `lockInUnit` first.
 */
export function readOwned<R>(db: PgExecutor, query: Lockable<R>): PromiseLike<R> {
  return inUnit(db) ? query.for('no key update') : query;
}

/**
 * A statement built once per Drizzle session and sent as a named statement: each pooled connection parses
 * it once, and after a few calls PostgreSQL plans it once for all parameters (a generic plan), instead of
 * Drizzle building it and PostgreSQL parsing and planning it on every call. For hot statements with a
 * fixed shape (their values as `sql.placeholder`s); its rows are mapped by a function compiled once
 * (prepared-execution.ts). A session is the pool's, or one pooled connection's:
 * every unit of work on a connection runs on that connection's session (executors.ts), so a statement is
 * built once per connection for all the units it runs, not once per unit.
 */
export function preparedPerExecutor<Q>(build: (db: PgExecutor) => Q): (db: PgExecutor) => Q {
  const built = new WeakMap<object, Q>();
  return (db) => {
    const session = db._.session;
    let query = built.get(session);
    if (!query) {
      query = withCompiledExecution(build(db));
      built.set(session, query);
    }
    return query;
  };
}
