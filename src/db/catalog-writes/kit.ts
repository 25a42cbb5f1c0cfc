/**
 * Store methods written once for both engines. A method is a generator of statements built with
 * Drizzle's dialect-neutral `sql`, `eq`, `inArray`... over the tables its engine passes in (values bound
 * through each column's own encoder, so a boolean is 1 on SQLite and true on PostgreSQL); each adapter
 * runs the statements its own way: SQLite synchronously on its one connection (`runSteps`), PostgreSQL
 * awaiting each on the unit's client (`runStepsAsync`). Only locking differs, and the adapter does it.
 */
import { sql, type AnyColumn, type SQL, type Table } from 'drizzle-orm';

/** One statement: a read giving rows (`rows`), a write giving the count of rows it changed (`count`), or a lock. */
export type Step =
  | { kind: 'rows'; query: SQL }
  | { kind: 'count'; query: SQL }
  /** Make the rows of `table` that `where` finds the unit's own (PostgreSQL locks them; SQLite's units already are). */
  | { kind: 'lock'; table: Table; where: SQL };

export type Steps<R> = Generator<Step, R, unknown>;

export function* rows<T>(query: SQL): Steps<T[]> {
  return (yield { kind: 'rows', query }) as T[];
}

export function* count(query: SQL): Steps<number> {
  return (yield { kind: 'count', query }) as number;
}

export function* lock(table: Table, where: SQL): Steps<void> {
  yield { kind: 'lock', table, where };
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
