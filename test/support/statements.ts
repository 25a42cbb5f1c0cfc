import type { Db } from '../../src/db/client.ts';

/**
 * Runs `fn` and returns how many SQL statements it prepared on `db`, with its result. Drizzle's
 * better-sqlite3 session prepares every query it runs through `$client.prepare` (no statement cache),
 * so counting prepares counts statements.
 */
export async function countStatements<T>(db: Db, fn: () => T | Promise<T>): Promise<{ count: number; sql: string[]; result: T }> {
  const client = db.$client;
  const prepare = client.prepare;
  const hadOwn = Object.hasOwn(client, 'prepare');
  const sql: string[] = [];
  client.prepare = function (this: typeof client, source: string) {
    sql.push(source);
    return prepare.call(this, source);
  } as typeof client.prepare;
  try {
    const result = await fn();
    return { count: sql.length, sql, result };
  } finally {
    if (hadOwn) client.prepare = prepare;
    else delete (client as { prepare?: unknown }).prepare;
  }
}
