/**
 * Store methods written once for both engines. A method is a generator of statements built with
 * Drizzle's dialect-neutral `sql`, `eq`, `inArray`... over the tables its engine passes in (values bound
 * through each column's own encoder, so a boolean is 1 on SQLite and true on PostgreSQL); each adapter
 * runs the statements its own way: SQLite synchronously on its one connection (`runSteps`), PostgreSQL
 * awaiting each on the unit's client (`runStepsAsync`). Only locking differs: the adapters' own reads
 * that lock (`findListingToWrite`, `findBrandToWrite`) do it.
 */
import { getTableColumns, sql, type AnyColumn, type Column, type SQL, type Table } from 'drizzle-orm';

/** One statement: a read giving rows (`rows`), or a write giving the count of rows it changed (`count`). */
export type Step = { kind: 'rows'; query: SQL } | { kind: 'count'; query: SQL };

export type Steps<R> = Generator<Step, R, unknown>;

export function* rows<T>(query: SQL): Steps<T[]> {
  return (yield { kind: 'rows', query }) as T[];
}

export function* count(query: SQL): Steps<number> {
  return (yield { kind: 'count', query }) as number;
}

/** Runs the statements of `steps` one after the other, synchronously. */
export function runSteps<R>(steps: Steps<R>, exec: (step: Step) => unknown): R {
  let next = steps.next();
  while (!next.done) next = steps.next(exec(next.value));
  return next.value;
}

/** Runs the statements of `steps` one after the other, awaiting each. */
export async function runStepsAsync<R>(steps: Steps<R>, exec: (step: Step) => Promise<unknown>): Promise<R> {
  let next = steps.next();
  while (!next.done) next = steps.next(await exec(next.value));
  return next.value;
}

/** A table with the columns a method names, by their property names (both engines' tables fit). */
export type TableOf<K extends string> = Table & { [P in K]: AnyColumn };

/** `"column" = value, ...` for an UPDATE's SET, each value encoded by its column. */
export function assignments<K extends string>(table: TableOf<K>, changes: { [P in K]?: unknown }): SQL {
  const parts = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const column = table[key as K];
      return sql`${sql.identifier(column.name)} = ${sql.param(value, column)}`;
    });
  return sql.join(parts, sql`, `);
}

/** `(columns) values (values)` for an INSERT of one row, each value encoded by its column. */
export function insertValues<K extends string>(table: TableOf<K>, row: { [P in K]?: unknown }): SQL {
  const entries = Object.entries(row).filter(([, value]) => value !== undefined);
  const columns = entries.map(([key]) => sql.identifier(table[key as K].name));
  const values = entries.map(([key, value]) => sql.param(value, table[key as K]));
  return sql`(${sql.join(columns, sql`, `)}) values (${sql.join(values, sql`, `)})`;
}

/** A store's methods as statement generators: what `S`'s methods resolve to, each method written once. */
export type StepsOf<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Steps<R> : never;
};

/** The methods of `writes`, each running its statements on the connection it is given through `run`. */
export function bindSteps<Db>(
  writes: Record<string, (...args: never[]) => Steps<unknown>>,
  run: (db: Db, steps: Steps<unknown>) => unknown,
): Record<string, (db: Db, ...args: never[]) => unknown> {
  return Object.fromEntries(Object.entries(writes).map(([name, method]) => [name, (db: Db, ...args: never[]) => run(db, method(...args))]));
}

/** A row as a method reads or writes it: its values by the table's property names. */
export type Row = Record<string, unknown>;

function columnOf(table: Table, key: string): Column {
  const found = getTableColumns(table)[key];
  if (!found) throw new Error(`No column ${key} in the table`);
  return found;
}

/** `"table"."column" = value`, the value encoded by the column. */
export function equals(table: Table, key: string, value: unknown): SQL {
  const column = columnOf(table, key);
  return sql`${column} = ${sql.param(value, column)}`;
}

/** Inserts `rows` (their properties named as the table's) in one statement; nothing when there are none. */
export function* insert(table: Table, rows: readonly Row[]): Steps<void> {
  const [first] = rows;
  if (!first) return;
  const keys = Object.keys(first);
  const columns = keys.map((key) => columnOf(table, key));
  const names = sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  const values = rows.map(
    (row) =>
      sql`(${sql.join(
        columns.map((column, i) => sql.param(row[keys[i]!] ?? null, column)),
        sql`, `,
      )})`,
  );
  yield* count(sql`INSERT INTO ${table} (${names}) VALUES ${sql.join(values, sql`, `)}`);
}

/** Deletes the rows `where` finds. */
export function* deleteWhere(table: Table, where: SQL): Steps<void> {
  yield* count(sql`DELETE FROM ${table} WHERE ${where}`);
}

/**
 * Sets `set` (plus `extra`, raw assignments) on the rows `where` finds; with `returning`, the values of
 * those columns of each row changed.
 */
export function* update(table: Table, set: Row, where: SQL, options: { extra?: SQL; returning?: string[] } = {}): Steps<Row[]> {
  const changes = Object.entries(set).map(([key, value]) => {
    const column = columnOf(table, key);
    return sql`${sql.identifier(column.name)} = ${sql.param(value ?? null, column)}`;
  });
  if (options.extra) changes.push(options.extra);
  const query = sql`UPDATE ${table} SET ${sql.join(changes, sql`, `)} WHERE ${where}`;
  if (!options.returning?.length) {
    yield* count(query);
    return [];
  }
  const returning = sql.join(
    options.returning.map((key) => sql`${sql.identifier(columnOf(table, key).name)} AS ${sql.identifier(key)}`),
    sql`, `,
  );
  return decoded(table, yield* rows<Row>(sql`${query} RETURNING ${returning}`));
}

/** Selects `keys` (as named) of the rows `where` finds, ordered by `orderBy`. */
export function* select(table: Table, keys: readonly string[], where: SQL, orderBy?: SQL): Steps<Row[]> {
  const fields = sql.join(
    keys.map((key) => sql`${columnOf(table, key)} AS ${sql.identifier(key)}`),
    sql`, `,
  );
  return decoded(table, yield* rows<Row>(sql`SELECT ${fields} FROM ${table} WHERE ${where}${orderBy ? sql` ORDER BY ${orderBy}` : sql``}`));
}

/** Rows as each engine's driver gives them, their values decoded by their columns (0/1 to booleans, JSON text to values). */
function decoded(table: Table, found: Row[]): Row[] {
  return found.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [key, value === null ? null : columnOf(table, key).mapFromDriverValue(value)]),
    ),
  );
}
