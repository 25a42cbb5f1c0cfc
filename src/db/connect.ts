/**
 * The one place that turns DATABASE_URL into a database: the port the app runs on, and a way to load the
 * demo data into it. A file path or `:memory:` is SQLite (embedded, the default); a `postgres://` or
 * `postgresql://` URL is PostgreSQL, migrated here (under an advisory lock, so gateways starting
 * together migrate once).
 */
import { DatabaseUnavailableError } from '../domain/shared/database.ts';
import { seedDemoDataIfEmpty } from './demo/index.ts';
import type { AdmissionSettings } from './admission.ts';
import { isPostgresUrl, redactDatabaseUrl, type Engine } from './engine.ts';
import { closePostgres, migratePostgres, openPostgres } from './postgres/client.ts';
import { postgresEngine } from './postgres/database.ts';
import { openSqliteDatabase } from './sqlite/database.ts';

export interface Connection extends Engine {
  /** Loads the demo data when the database holds no brand yet; whether it loaded. */
  loadDemoDataIfEmpty(now?: Date): Promise<boolean>;
}

export interface ConnectOptions {
  /** DATABASE_POOL_SIZE: connections opened at most (PostgreSQL). */
  poolSize?: number;
  /** DATABASE_CONNECT_TIMEOUT_MS: connecting, or waiting for a pooled connection, at most (PostgreSQL). */
  connectTimeoutMs?: number;
  /** WRITE_QUEUE_TIMEOUT_MS: how long a request's unit of work waits for its turn at most. */
  admission?: AdmissionSettings;
}

export async function connect(url: string, options: ConnectOptions = {}): Promise<Connection> {
  if (isPostgresUrl(url)) {
    const pg = openPostgres(url, { poolSize: options.poolSize, connectTimeoutMs: options.connectTimeoutMs });
    try {
      await migratePostgres(pg);
    } catch (error) {
      await closePostgres(pg).catch(() => {});
      const reason = error instanceof Error ? error.message : String(error);
      throw new DatabaseUnavailableError(`Could not open the PostgreSQL database ${redactDatabaseUrl(url)}: ${reason}`, { cause: error });
    }
    return withDemoData(postgresEngine(pg, options.admission));
  }
  return withDemoData(openSqliteDatabase(url, options.admission));
}

function withDemoData(engine: Engine): Connection {
  return { ...engine, loadDemoDataIfEmpty: (now) => seedDemoDataIfEmpty(engine, now) };
}
