import type { Database, Transaction } from '../domain/shared/database.ts';
import type { Seeder } from './tables.ts';

/**
 * An open database, whatever its engine: the port the app runs on, and a seeder beside it for the demo
 * data and for tests.
 */
export interface Engine {
  readonly name: 'sqlite' | 'postgresql';
  database: Database;
  /** Outside any unit of work: each call stands alone. */
  seeder: Seeder;
  /**
   * Runs `work` with the seeder and the port's stores in one unit of work: all of it or none, isolated
   * as every unit is, so "load when empty" run by several gateways at once loads once. The seeder's
   * reads inside see the database, not what the unit's stores record for its commit (its events).
   */
  seed<T>(work: (seeder: Seeder, tx: Transaction) => Promise<T>): Promise<T>;
}

/** Which engine a DATABASE_URL names: `postgres://` and `postgresql://` URLs are PostgreSQL; paths and `:memory:` are SQLite. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** A database URL fit for a message or a log line: its password is a secret (`postgres://user:<redacted>@host/db`). */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/, '$1:<redacted>@');
}
