import { drizzle, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PoolClient } from 'pg';
import * as schema from './schema/index.ts';
import type { PgExecutor } from './store-binding.ts';

/** Drizzle over each pooled connection, made once per connection: making it reads the whole schema. */
const executors = new WeakMap<PoolClient, PgExecutor>();

export function executorOf(client: PoolClient): PgExecutor {
  let executor = executors.get(client);
  if (!executor) {
    executor = drizzle(client, { schema });
    executors.set(client, executor);
  }
  return executor;
}

/** Drizzle's PostgreSQL dialect, stateless: one for every unit's transaction and named statement. */
export const dialect = new PgDialect();

/**
 * A unit of work's transaction on the connection of `executor`, as Drizzle's `transaction` makes it (its
 * savepoints nest in it, `inUnit` sees it) but without sending BEGIN or COMMIT: the unit runner sends
 * them with the unit's statements (database.ts). It shares the connection's session, so the statements
 * prepared on the connection serve it. Its relational query builders (`tx.query`) are the connection's own,
 * on the same session: Drizzle would build one for every table of the schema for every unit.
 */
export function unitTransaction(executor: PgExecutor): PgExecutor {
  const tx = new NodePgTransaction(dialect, executor._.session, undefined) as unknown as PgExecutor;
  return Object.assign(tx, { _: executor._, query: executor.query });
}
