import { drizzle } from 'drizzle-orm/node-postgres';
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
