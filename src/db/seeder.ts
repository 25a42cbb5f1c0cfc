/**
 * Rows written and read as they are stored, table by table, beside the port: for the demo data and for
 * tests, which create what no API creates (brands, experiences, sessions) and look at what a request
 * left behind. Each adapter provides one over its own schema (`src/db/<engine>/seeder.ts`); both
 * schemas have the same tables, property names and value types (`src/db/tables.ts` proves it to the
 * compiler), so whatever is written through one is written the same way through the other.
 *
 * Not for the app's own work: the domain reads and writes through the port, whose methods state their
 * guarantees. A seeder only stores and returns rows.
 */
import type { Table } from 'drizzle-orm';

/** The rows of each table of a schema module: what an insert takes, and what a read gives. */
export type RowsOf<Schema> = {
  [K in keyof Schema as Schema[K] extends Table ? K : never]: Schema[K] extends Table
    ? { insert: Schema[K]['$inferInsert']; row: Schema[K]['$inferSelect'] }
    : never;
};

export type TableRows = Record<string, { insert: object; row: object }>;

/** Rows whose every given column equals its value (`null`: is null). */
export type Where<Row> = { [K in keyof Row]?: Row[K] | null };

export interface SeederOf<R extends TableRows> {
  readonly engine: 'sqlite' | 'postgresql';
  /** Inserts `rows` into `table` (a property of the schema: `bookings`, `webhookEndpoints`). */
  insert<T extends keyof R & string>(table: T, rows: R[T]['insert'] | ReadonlyArray<R[T]['insert']>): Promise<void>;
  /**
   * The rows of `table` matching `where`, ordered by `orderBy` (columns, ascending; text by its bytes),
   * by the primary key when none is given.
   */
  rows<T extends keyof R & string>(
    table: T,
    where?: Where<R[T]['row']>,
    orderBy?: ReadonlyArray<keyof R[T]['row'] & string>,
  ): Promise<Array<R[T]['row']>>;
  /** The one row of `table` matching `where`; throws when there is none or more than one. */
  row<T extends keyof R & string>(table: T, where: Where<R[T]['row']>): Promise<R[T]['row']>;
  /** How many rows of `table` match `where`. */
  count<T extends keyof R & string>(table: T, where?: Where<R[T]['row']>): Promise<number>;
  /** Sets `values` on the rows of `table` matching `where`; how many rows matched. */
  update<T extends keyof R & string>(table: T, where: Where<R[T]['row']>, values: Partial<R[T]['insert']>): Promise<number>;
  /** Deletes the rows of `table` matching `where`; how many. */
  delete<T extends keyof R & string>(table: T, where: Where<R[T]['row']>): Promise<number>;
  /**
   * Runs one SQL statement with `?` placeholders and returns its rows, the same values on every engine:
   * numbers (counts and sums too), text, JSON as its text, instants as ISO 8601 UTC text; booleans as
   * the engine stores them. For what the typed methods cannot say (joins, aggregates); written in the SQL
   * both engines share.
   */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction: all of its writes or none. */
  transaction<T>(work: (seeder: SeederOf<R>) => Promise<T>): Promise<T>;
}

/** The columns `where` names, as [property, value] pairs, for an adapter to turn into its conditions. */
export function whereEntries(where: object | undefined): Array<[string, unknown]> {
  return Object.entries(where ?? {}).filter(([, value]) => value !== undefined);
}

/** The rows of an insert as a list, in batches of at most `size` (engines bound the parameters of one statement). */
export function batches<T>(rows: T | readonly T[], size: number): T[][] {
  const list = (Array.isArray(rows) ? rows : [rows]) as T[];
  const out: T[][] = [];
  for (let start = 0; start < list.length; start += size) out.push(list.slice(start, start + size));
  return out;
}

/** Exactly one row, or an error naming the table and the condition. */
export function onlyRow<Row>(rows: Row[], table: string, where: object): Row {
  if (rows.length !== 1) throw new Error(`Expected one row of ${table} where ${JSON.stringify(where)}, found ${rows.length}`);
  return rows[0]!;
}
