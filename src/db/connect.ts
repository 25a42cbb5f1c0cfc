/**
 * The one place that turns DATABASE_URL into a database: the port the app runs on, and a way to load the
 * demo data into it. A file path or `:memory:` is SQLite (embedded, the default).
 */
import { seedDemoDataIfEmpty } from './demo/index.ts';
import type { Database } from './port/index.ts';
import { openSqliteDatabase } from './sqlite/database.ts';

export interface Connection {
  database: Database;
  /** Loads the demo data when the database holds no brand yet; whether it loaded. */
  loadDemoDataIfEmpty(now?: Date): Promise<boolean>;
}

export interface ConnectOptions {
  /** DATABASE_POOL_SIZE: connections opened at most (PostgreSQL). */
  poolSize?: number;
}

export async function connect(url: string, _options: ConnectOptions = {}): Promise<Connection> {
  const { database, connection } = openSqliteDatabase(url);
  return { database, loadDemoDataIfEmpty: (now) => seedDemoDataIfEmpty(database, connection, now) };
}
