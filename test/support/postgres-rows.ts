/**
 * PostgreSQL test data from the SQLite factories: a test builds its world on an in-memory SQLite database
 * as every other test does, then copies the rows into PostgreSQL.
 */
export { copyFromSqlite as copyRows } from '../../src/db/postgres/copy-from-sqlite.ts';
