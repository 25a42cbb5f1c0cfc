/**
 * Store methods written once for both engines. A method is a generator of statements built with Drizzle's
 * dialect-neutral `sql` over the tables the engine passes in; each engine runs it its own way:
 * synchronously on SQLite (better-sqlite3), awaiting each statement on PostgreSQL. Values are encoded by
 * their column (`sql.param(value, column)`), so a boolean becomes 0/1 on SQLite and a boolean on
 * PostgreSQL, a JSON column's value its JSON text on both, exactly as the engines' own query builders do.
 */
import { getTableColumns, sql, type Column, type SQL, type Table } from 'drizzle-orm';

export type Row = Record<string, unknown>;

/** One statement; `returns`: it has a RETURNING clause whose rows the method reads. */
export interface Statement {
  query: SQL;
  returns: boolean;
}

/** A store method's statements, in order: each yields one and receives its rows (empty when it returns none). */
export type Steps<R> = Generator<Statement, R, Row[]>;

function column(table: Table, key: string): Column {
  const found = getTableColumns(table)[key];
  if (!found) throw new Error(`No column ${key} in the table`);
  return found;
}

/** `"table"."column" = value`, the value encoded by the column. */
export function equals(table: Table, key: string, value: unknown): SQL {
  const col = column(table, key);
  return sql`${col} = ${sql.param(value, col)}`;
}

/** Inserts `rows` (their properties named as the table's), in one statement; nothing when there are none. */
export function* insert(table: Table, rows: readonly Row[]): Steps<void> {
  const [first] = rows;
  if (!first) return;
  const keys = Object.keys(first);
  const columns = keys.map((key) => column(table, key));
  const names = sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const values = rows.map(
    (row) =>
      sql`(${sql.join(
        columns.map((c, i) => sql.param(row[keys[i]!] ?? null, c)),
        sql`, `,
      )})`,
  );
  yield { query: sql`INSERT INTO ${table} (${names}) VALUES ${sql.join(values, sql`, `)}`, returns: false };
}

/** Deletes the rows `where` finds. */
export function* deleteWhere(table: Table, where: SQL): Steps<void> {
  yield { query: sql`DELETE FROM ${table} WHERE ${where}`, returns: false };
}

/**
 * Sets `set` (plus `extra`, raw assignments) on the rows `where` finds; with `returning`, the values of
 * those columns of each row changed.
 */
export function* update(table: Table, set: Row, where: SQL, options: { extra?: SQL; returning?: string[] } = {}): Steps<Row[]> {
  const assignments = Object.entries(set).map(([key, value]) => {
    const c = column(table, key);
    return sql`${sql.identifier(c.name)} = ${sql.param(value ?? null, c)}`;
  });
  if (options.extra) assignments.push(options.extra);
  const returning = options.returning?.length
    ? sql` RETURNING ${sql.join(
        options.returning.map((key) => sql`${sql.identifier(column(table, key).name)} AS ${sql.identifier(key)}`),
        sql`, `,
      )}`
    : sql``;
  const rows = yield {
    query: sql`UPDATE ${table} SET ${sql.join(assignments, sql`, `)} WHERE ${where}${returning}`,
    returns: !!options.returning,
  };
  return decoded(table, rows);
}

/** Rows as each engine's driver gives them, their values decoded by their columns (0/1 to booleans, JSON text to values). */
function decoded(table: Table, rows: Row[]): Row[] {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [key, value === null ? null : column(table, key).mapFromDriverValue(value)]),
    ),
  );
}

/** Selects `keys` (as named) of the rows `where` finds, ordered by `orderBy`. */
export function* select(table: Table, keys: readonly string[], where: SQL, orderBy?: SQL): Steps<Row[]> {
  const fields = sql.join(
    keys.map((key) => sql`${column(table, key)} AS ${sql.identifier(key)}`),
    sql`, `,
  );
  const rows = yield {
    query: sql`SELECT ${fields} FROM ${table} WHERE ${where}${orderBy ? sql` ORDER BY ${orderBy}` : sql``}`,
    returns: true,
  };
  return decoded(table, rows);
}

/** Runs `steps` to their end, each statement at once: on a synchronous driver (better-sqlite3). */
export function runStepsSync<R>(steps: Steps<R>, run: (statement: Statement) => Row[]): R {
  let next = steps.next([]);
  while (!next.done) next = steps.next(run(next.value));
  return next.value;
}

/** Runs `steps` to their end, awaiting each statement: on an asynchronous driver (node-postgres). */
export async function runSteps<R>(steps: Steps<R>, run: (statement: Statement) => Promise<Row[]>): Promise<R> {
  let next = steps.next([]);
  while (!next.done) next = steps.next(await run(next.value));
  return next.value;
}
