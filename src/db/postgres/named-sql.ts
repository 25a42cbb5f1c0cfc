import type { SQL } from 'drizzle-orm';
import { dialect } from './executors.ts';
import { preparedPerExecutor, type PgExecutor } from './store-binding.ts';

/**
 * A statement written in SQL (data-modifying CTEs, which Drizzle's builders do not write), sent as a named
 * statement built and prepared once per connection as preparedPerExecutor's are. Its text is fixed: every
 * value is a `sql.placeholder` (a list one text[] placeholder, `= ANY(...)`), so the name keeps one shape.
 * Rows come as node-postgres gives them through Drizzle (instants as text), keyed by the columns' aliases.
 */
export function namedSql<Row>(name: string, statement: SQL): (db: PgExecutor, values: Record<string, unknown>) => Promise<Row[]> {
  const query = dialect.sqlToQuery(statement);
  const prepared = preparedPerExecutor((db) => db._.session.prepareQuery(query, undefined, name, false));
  return async (db, values) => ((await prepared(db).execute(values)) as { rows: Row[] }).rows;
}
