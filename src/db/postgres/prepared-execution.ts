import { DrizzleQueryError, fillPlaceholders, is } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import { compileRowMapper } from '../row-mapper.ts';

interface QueryConfig {
  name?: string;
  text: string;
}

/** The parts of Drizzle's node-postgres prepared query that its own `execute` reads. */
interface PgPrepared {
  client: { query(config: QueryConfig, values: unknown[]): Promise<{ rows: unknown[] }> };
  params: unknown[];
  fields?: Parameters<typeof compileRowMapper>[0];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
  /** The statement with rows as arrays (rowMode 'array'), which Drizzle sends when it maps the rows. */
  queryConfig: QueryConfig;
  /** The statement with rows as node-postgres' objects, sent when nothing is selected to map. */
  rawQueryConfig: QueryConfig;
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

/**
 * A statement prepared by Drizzle whose `execute` sends it and maps its rows with a mapper compiled once for
 * its columns (../row-mapper.ts, as the SQLite adapter's statements do) instead of Drizzle's per-row
 * `mapResultRow`, and without the layers Drizzle wraps every execution in when no cache, logger or tracer
 * is configured (three nested async calls, a no-op cache check). The same statement (same name, text and
 * type parsers), the same rows or result, the same DrizzleQueryError around a failure (its `cause` the
 * driver's error, which database.ts and unavailable.ts read). Relational queries (a custom result mapper)
 * and anything else are left as they are.
 */
export function withCompiledExecution<Q>(query: Q): Q {
  if (!is(query, NodePgPreparedQuery)) return query;
  const prepared = query as unknown as PgPrepared;
  if (prepared.customResultMapper) return query;
  const { client, params, fields } = prepared;
  const send = async (config: QueryConfig, values: Record<string, unknown>) => {
    const filled = fillPlaceholders(params, values);
    try {
      return await client.query(config, filled);
    } catch (error) {
      throw new DrizzleQueryError(config.text, filled, error as Error);
    }
  };
  if (!fields) {
    const config = prepared.rawQueryConfig;
    prepared.execute = (values = {}) => send(config, values);
    return query;
  }
  const mapRow = compileRowMapper(fields, prepared.joinsNotNullableMap);
  const config = prepared.queryConfig;
  prepared.execute = async (values = {}) => (await send(config, values)).rows.map((row) => mapRow(row as unknown[]));
  return query;
}
