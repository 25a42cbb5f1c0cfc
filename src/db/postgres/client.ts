import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { postgresDefaults, readConnections } from './defaults.ts';
import { noteOwnWrites, ownWritesClient } from './own-writes.ts';
import { LanePool } from './read-lanes.ts';
import { unitPipelining } from './unit-pipelining.ts';
import { isoInstant } from './schema/columns.ts';
import * as schema from './schema/index.ts';

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface PostgresOptions {
  /** Connections this gateway opens at most (DATABASE_POOL_SIZE): the database's max_connections is shared by every gateway. */
  poolSize?: number;
  /** A statement running longer is cancelled by the server, so a stuck query cannot hold a connection and its locks. */
  statementTimeoutMs?: number;
  /** How long connecting, or waiting for a pooled connection while all are busy, may take (DATABASE_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
}

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../../drizzle/postgres/migrations');

/**
 * The pool's own parsers, so other users of the `pg` module keep theirs. Drizzle's queries bring their own
 * parser for `timestamptz` (the schema's `instant` columns convert it); this one serves plain `pool.query`.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMPTZ && format !== 'binary'
      ? isoInstant
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * A Drizzle database over a pool of connections to the PostgreSQL database at `url`
 * (`postgres://user:password@host:5432/db`). The pool connects lazily; nothing is migrated here.
 *
 * TLS follows the URL's `sslmode`, as node-postgres reads it: none without it or with `disable`;
 * `verify-full` encrypts and checks the certificate and host name (the one to use across a network);
 * `prefer`, `require` and `verify-ca` mean verify-full too there (with a deprecation warning; `prefer`
 * never falls back to plain text); `no-verify` encrypts without checking. `sslrootcert=/path/ca.pem`
 * names the CA. Settings in the URL (`application_name`, `statement_timeout`, `options`) win over the
 * ones given here.
 */
export function openPostgres(url: string, options: PostgresOptions = {}): PgDb {
  // Connections that tell when a write of theirs becomes visible (the data version moves there).
  const { Client, writes } = ownWritesClient();
  const max = options.poolSize ?? postgresDefaults.poolSize;
  const pool = new LanePool({
    // Units of work send their BEGIN and COMMIT with their statements (unit-pipelining.ts), and reads outside
    // them share lanes (read-lanes.ts), which needs node-postgres' pipeline mode: a query is sent without
    // waiting for the answer to the one before.
    Client: unitPipelining(Client),
    pipeline: true,
    // As many lanes as the reads' share of the pool: units of work keep theirs.
    lanes: readConnections(max),
    connectionString: url,
    max,
    application_name: 'tessera',
    statement_timeout: options.statementTimeoutMs ?? postgresDefaults.statementTimeoutMs,
    // One stuck holder must not stop everyone: a statement waiting for a row lock gives up after
    // lock_timeout (55P03) instead of waiting as long as the holder does; the server ends a session left
    // idle in a transaction (a frozen or cut-off gateway) after idle_in_transaction_session_timeout,
    // which frees its locks; keepalives let either side notice a peer that went away without a word.
    lock_timeout: postgresDefaults.lockTimeoutMs,
    idle_in_transaction_session_timeout: postgresDefaults.idleInTransactionTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: postgresDefaults.keepAliveInitialDelayMs,
    // Bounds both making a connection and waiting for one of the pool: past it, 503 rather than a queue.
    connectionTimeoutMillis: options.connectTimeoutMs ?? postgresDefaults.connectTimeoutMs,
    types,
  });
  noteOwnWrites(pool, writes);
  // A connection the server ends (restart, failover, pg_terminate_backend) emits 'error', and an 'error'
  // nobody listens to ends the process. The pool listens while a connection is idle (and drops it; the
  // next query opens a fresh one) but not while it is checked out, so every connection gets a listener
  // of its own for its whole life. The statement it was running fails by itself, its caller answers the
  // failure, and the pool drops the connection when it comes back (it is no longer queryable).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return drizzle(pool, { schema }) as PgDb;
}

export async function closePostgres(db: PgDb): Promise<void> {
  await db.$client.end();
}

/**
 * Applies every pending migration of drizzle/postgres/migrations. Gateways starting together each call
 * it: a session-level advisory lock on one connection lets one of them migrate while the others wait,
 * then find nothing left to do. The connection runs without a statement or lock timeout, since a
 * migration or the wait for one may take longer than any request should.
 */
export async function migratePostgres(db: PgDb): Promise<void> {
  const client = await db.$client.connect();
  let broken: Error | undefined;
  try {
    await client.query('SET statement_timeout = 0');
    await client.query('SET lock_timeout = 0');
    await client.query(`SELECT pg_advisory_lock(hashtextextended('tessera:migrations', 0))`);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtextextended('tessera:migrations', 0))`);
      await client.query('RESET statement_timeout');
      await client.query('RESET lock_timeout');
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed here may still hold the lock or the setting: closing it ends both.
    client.release(broken);
  }
}
