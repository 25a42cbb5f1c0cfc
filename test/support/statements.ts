import Database from 'better-sqlite3';
import type { Db } from '../../src/db/sqlite/client.ts';

const executing = ['all', 'get', 'run', 'iterate'] as const;

/**
 * Runs `fn` and returns how many SQL statements it executed on `db`, with their text and its result.
 * Executions, not preparations: statements the app prepares once (the API-key lookup, the data
 * generation) count every time they run.
 */
export async function countStatements<T>(db: Db, fn: () => T | Promise<T>): Promise<{ count: number; sql: string[]; result: T }> {
  const prototype = Database.prototype.prepare.call(db.$client, 'SELECT 1').constructor.prototype as Record<string, unknown>;
  const originals = executing.map((name) => [name, prototype[name]] as const);
  const sql: string[] = [];
  for (const [name, original] of originals) {
    prototype[name] = function (this: { database: unknown; source: string }, ...args: unknown[]) {
      if (this.database === db.$client) sql.push(this.source);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  try {
    const result = await fn();
    return { count: sql.length, sql, result };
  } finally {
    for (const [name, original] of originals) prototype[name] = original;
  }
}

/** Runs `fn` and returns the SQL text of every statement compiled (`prepare`) on `db` meanwhile, with its result. */
export async function compiledStatements<T>(db: Db, fn: () => T | Promise<T>): Promise<{ sql: string[]; result: T }> {
  const original = Database.prototype.prepare;
  const sql: string[] = [];
  Database.prototype.prepare = function (this: Database.Database, source: string) {
    if (this === db.$client) sql.push(source);
    return original.call(this, source);
  } as typeof original;
  try {
    return { sql, result: await fn() };
  } finally {
    Database.prototype.prepare = original;
  }
}
