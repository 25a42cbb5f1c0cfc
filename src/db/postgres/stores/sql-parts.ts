import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

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
