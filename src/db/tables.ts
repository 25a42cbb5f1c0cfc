/**
 * The tables as the seeders see them: one set of rows for both engines. The compiler checks here that
 * the two schemas agree, table by table, on what an insert takes and what a read gives, so a fixture or
 * the demo data written once runs on either engine (and a column added to one schema only fails
 * `npm run typecheck` until the other has it).
 */
import type * as postgresSchema from './postgres/schema/index.ts';
import type { RowsOf, SeederOf } from './seeder.ts';
import type * as sqliteSchema from './sqlite/schema/index.ts';

type SqliteRows = RowsOf<typeof sqliteSchema>;
type PostgresRows = RowsOf<typeof postgresSchema>;

/**
 * Columns PostgreSQL has that SQLite keeps implicitly (its rowid): filled by the database, never written
 * or handed out by a store.
 */
type PostgresOnly = 'writeOrder';

/**
 * For each table: PostgreSQL takes every row SQLite's insert takes (it may default a few more columns,
 * `createdAt` among them), and every row it gives back is one SQLite's read would give.
 */
type Fits<T extends keyof SqliteRows> = T extends keyof PostgresRows
  ? [SqliteRows[T]['insert']] extends [PostgresRows[T]['insert']]
    ? [Omit<PostgresRows[T]['row'], PostgresOnly>] extends [SqliteRows[T]['row']]
      ? [SqliteRows[T]['row']] extends [Omit<PostgresRows[T]['row'], PostgresOnly>]
        ? true
        : false
      : false
    : false
  : false;
type Disagreeing =
  { [T in keyof SqliteRows]: Fits<T> extends true ? never : T }[keyof SqliteRows] | Exclude<keyof PostgresRows, keyof SqliteRows>;
/** Fails to compile when the schemas disagree; `Disagreeing` names the tables. */
const schemasAgree: [Disagreeing] extends [never] ? true : { disagreeing: Disagreeing } = true;
void schemasAgree;

export type Tables = SqliteRows;
export type TableName = keyof Tables & string;
export type NewRow<T extends TableName> = Tables[T]['insert'];
export type StoredRow<T extends TableName> = Tables[T]['row'];
export type Seeder = SeederOf<Tables>;
