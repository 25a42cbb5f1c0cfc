/**
 * The one place that turns DATABASE_URL into a database: the port the app runs on, and a way to load the
 * demo data into it. A file path or `:memory:` is SQLite (embedded, the default); a `postgres://` or
 * `postgresql://` URL is PostgreSQL, migrated here (under an advisory lock, so gateways starting
 * together migrate once).
 */
import { seedDemoDataIfEmpty } from './demo/index.ts';
import { seedPostgresDemoDataIfEmpty } from './demo/postgres.ts';
import { isPostgresUrl, redactDatabaseUrl } from './engine.ts';
import type { Database } from '../domain/shared/database.ts';
import { closePostgres, migratePostgres, openPostgres } from './postgres/client.ts';
import { postgresDatabase } from './postgres/database.ts';
import { postgresStores } from './postgres/stores/index.ts';
import { openSqliteDatabase } from './sqlite/database.ts';

export interface Connection {
  engine: 'sqlite' | 'postgresql';
  database: Database;
  /** Loads the demo data when the database holds no brand yet; whether it loaded. */
  loadDemoDataIfEmpty(now?: Date): Promise<boolean>;
}

export interface ConnectOptions {
  /** DATABASE_POOL_SIZE: connections opened at most (PostgreSQL). */
  poolSize?: number;
}

/** The database could not be reached or prepared: the message says which and why, without a password. */
export class DatabaseUnavailableError extends Error {}

export async function connect(url: string, options: ConnectOptions = {}): Promise<Connection> {
  if (isPostgresUrl(url)) {
    const pg = openPostgres(url, { poolSize: options.poolSize });
    try {
      await migratePostgres(pg);
    } catch (error) {
      await closePostgres(pg).catch(() => {});
      const reason = error instanceof Error ? error.message : String(error);
      throw new DatabaseUnavailableError(`Could not open the PostgreSQL database ${redactDatabaseUrl(url)}: ${reason}`, { cause: error });
    }
    return {
      engine: 'postgresql',
      database: postgresDatabase(pg, postgresStores),
      loadDemoDataIfEmpty: (now) => seedPostgresDemoDataIfEmpty(pg, now),
    };
  }
  const { database, connection } = openSqliteDatabase(url);
  return { engine: 'sqlite', database, loadDemoDataIfEmpty: (now) => seedDemoDataIfEmpty(database, connection, now) };
}
