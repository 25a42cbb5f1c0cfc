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

/**
 * The lengths a statement's lists are sent at when its plan depends on how long they are. PostgreSQL plans
 * an array parameter (`$1::text[]`) as ten elements long: a statement whose cost grows with its lists gets
 * a generic plan dearer than its custom ones, so it is planned again on every call. A list written as
 * `ARRAY[$1, $2]` has its length in the text, so the generic plan costs what a custom one does and is kept
 * after PostgreSQL's five custom plans (test/postgres/checkout-reads-plan.test.ts). One statement per
 * length, named after it; a list longer than the last is sent as an array parameter, planned at each call.
 */
export const LIST_LENGTHS = [1, 2, 4, 8] as const;

/** The length to send a list of `count` values at (the smallest that holds them), or undefined past the last. */
export const listLength = (count: number): number | undefined => LIST_LENGTHS.find((length) => length >= count);

/** The list `name` of `type` in a statement of lists `length` long: `ARRAY[$name0, ...]`, or the array parameter `name`. */
export function listOf(name: string, type: string, length: number | undefined): SQL {
  if (length === undefined) return sql`${sql.placeholder(name)}::${sql.raw(type)}[]`;
  const elements = Array.from({ length }, (_, i) => sql`${sql.placeholder(`${name}${i}`)}::${sql.raw(type)}`);
  return sql`ARRAY[${sql.join(elements, sql`, `)}]`;
}

/**
 * The values of a `listOf(name, type, length)`: `length` of them, the last repeated (null when there is
 * none: it matches nothing), which `= ANY` and `IN` read as the list itself.
 */
export function listParams(name: string, values: readonly unknown[], length: number | undefined): Record<string, unknown> {
  if (length === undefined) return { [name]: [...values] };
  const params: Record<string, unknown> = {};
  for (let i = 0; i < length; i += 1) params[`${name}${i}`] = values[Math.min(i, values.length - 1)] ?? null;
  return params;
}

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
