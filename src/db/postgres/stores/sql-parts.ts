import { getTableColumns, sql, type AnyColumn, type SQL, type Table } from 'drizzle-orm';

/**
 * A text column compared and sorted byte by byte (`COLLATE "C"`), as SQLite's BINARY collation does,
 * whatever collation the database was created with: orders and paging cursors over text keys then come
 * out as they do on SQLite.
 */
export const inByteOrder = (column: AnyColumn | SQL): SQL => sql`${column} collate "C"`;

/**
 * `column = ANY($1)` with the values as one text[] parameter: one statement text for any number of
 * values (and no limit of 65 535 parameters), each still found through the column's index.
 */
export const anyOf = (column: AnyColumn | SQL, values: readonly string[]): SQL => sql`${column} = any(${sql.param([...values])}::text[])`;

/** `anyOf` in a named statement: the values are the text[] placeholder `name`. */
export const anyOfPlaceholder = (column: AnyColumn | SQL, name: string): SQL => sql`${column} = any(${sql.placeholder(name)}::text[])`;

/** A JSON array of the rows `select` gives (`[]` for none), built by `json_agg` in the order it names. */
export const jsonRows = <T>(select: SQL) => sql<T[]>`coalesce((${select}), '[]'::json)`;

/**
 * An instant as text, in the form the adapter reads instants (`instant`) and SQLite stores them: ISO 8601
 * UTC with milliseconds. `column` is a column, or a subquery's alias (`'p.cancelled_at'`).
 */
export const isoText = (column: AnyColumn | SQL | string): SQL =>
  sql`to_char(${typeof column === 'string' ? sql.raw(column) : column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A FROM of one row, for a select made only of subqueries. */
export const oneRow = sql`(VALUES (1)) AS one (x)`;

/**
 * The mapping of a table's row as `row_to_json` writes it (keys the column names) to the row Drizzle's
 * select gives (keys the properties), made once per table: the column list is walked when it is made, not
 * per row. Values come as JSON gives them (json columns already parsed, keys in their written order);
 * instants, which JSON writes as `2026-01-15T10:00:00.123+00:00`, become ISO 8601 UTC as `instant` reads them.
 */
export function rowOfJson<T>(table: Table): (json: Record<string, unknown>) => T {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    name: column.name,
    instant: column.getSQLType().startsWith('timestamp'),
  }));
  return (json) => {
    const row: Record<string, unknown> = {};
    for (const { key, name, instant } of columns) {
      const value = json[name] ?? null;
      row[key] = instant && value !== null ? new Date(value as string).toISOString() : value;
    }
    return row as T;
  };
}
