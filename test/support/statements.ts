import Database from 'better-sqlite3';
import pg from 'pg';
import type { Db } from '../../src/db/sqlite/client.ts';
import type { TestDb } from './db.ts';
import { LIVENESS_CHECK } from '../../src/db/postgres/listener.ts';

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

/**
 * Calls `seen` with every statement the process sends a database, and the values bound to it, in the
 * drivers themselves (better-sqlite3's statements run, node-postgres's client queries) for the engine of
 * `db`: what reaches the database, prepared once or not. Returns the undoing.
 */
export function recordStatements(db: TestDb, seen: (sql: string, params: unknown[], name?: string) => void): () => void {
  if (db.engine === 'sqlite') {
    const probe = new Database(':memory:');
    const prototype = probe.prepare('SELECT 1').constructor.prototype as Record<string, unknown>;
    probe.close();
    const originals = executing.map((name) => [name, prototype[name]] as const);
    for (const [name, original] of originals) {
      prototype[name] = function (this: { source: string }, ...params: unknown[]) {
        seen(this.source, params.flat());
        return (original as (...a: unknown[]) => unknown).apply(this, params);
      };
    }
    return () => {
      for (const [name, original] of originals) prototype[name] = original;
    };
  }
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    // query(text, values) or query({ text, values? }, values?): Drizzle passes its values beside the config.
    const text = typeof config === 'string' ? config : (config as { text: string }).text;
    const values = (typeof config === 'object' && (config as { values?: unknown }).values) || rest[0];
    // A named statement: prepared once per connection.
    seen(text, Array.isArray(values) ? values : [], typeof config === 'object' ? (config as { name?: string }).name : undefined);
    return (original as (...a: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof original;
  return () => {
    pg.Client.prototype.query = original;
  };
}

/**
 * Runs `fn` and returns the statements it sent to the database (`recordStatements`). The API-key lookup
 * is left out: it runs when the keys version moved (on SQLite the data version, which every write moves;
 * on PostgreSQL, before the gateway listens, a commit on any database of the server moves it;
 * test/postgres/keys-version.test.ts counts it).
 */
/** The statements `fn` sends `db` (from any gateway of this process), the listening connection's liveness check left out. */
export async function statementsBesidesLiveness<T>(db: TestDb, fn: () => Promise<T>): Promise<{ sql: string[]; result: T }> {
  const sql: string[] = [];
  const restore = recordStatements(db, (statement) => {
    if (statement !== LIVENESS_CHECK) sql.push(statement);
  });
  try {
    return { sql, result: await fn() };
  } finally {
    restore();
  }
}

/** Statements and transactions (each BEGIN ... COMMIT one, each statement outside one its own). */
export function tally(sql: readonly string[]): { statements: number; transactions: number } {
  let transactions = 0;
  let open = false;
  for (const statement of sql) {
    if (/^begin\b/i.test(statement)) {
      open = true;
      transactions += 1;
    } else if (/^(commit|rollback)\b/i.test(statement)) open = false;
    else if (!open) transactions += 1;
  }
  return { statements: sql.length, transactions };
}

export async function statementsSent<T>(
  db: TestDb,
  fn: () => Promise<T>,
): Promise<{ count: number; sql: string[]; names: Array<string | undefined>; result: T }> {
  const sent: Array<{ sql: string; name: string | undefined }> = [];
  const restore = recordStatements(db, (statement, _params, name) => sent.push({ sql: statement, name }));
  try {
    const result = await fn();
    // Nor is the listening connection's liveness check, which a timer sends whatever the requests do, nor
    // PostgreSQL's data-version snapshot: it is read only until the gateway's listening connection is up
    // (src/db/postgres/data-version.ts), so whether a request sends it depends on that moment, not on the
    // request (test/postgres/data-version.test.ts counts it).
    const counted = sent.filter(
      ({ sql }) => !sql.includes('from "api_keys"') && sql !== LIVENESS_CHECK && !sql.includes('pg_current_snapshot()'),
    );
    return { count: counted.length, sql: counted.map((s) => s.sql), names: counted.map((s) => s.name), result };
  } finally {
    restore();
  }
}

/**
 * Resolves once `db`'s data version is kept in memory (PostgreSQL: the gateway's listening connection is
 * up; SQLite at once). Before that it is the server's snapshot, which any commit on the server moves, other
 * test files' too: what the version validates (the API-key and brand caches) would be read again or not
 * by chance, and a count of statements with it.
 */
export async function untilDataVersionSteady(db: TestDb): Promise<void> {
  if (db.engine === 'sqlite') return;
  while ((await db.database.dataVersion()).includes(':')) await new Promise((resolve) => setTimeout(resolve, 10));
}
