/**
 * The catalog contract's reads (test/contract/catalog-world.ts) again, on a PostgreSQL database whose
 * default collation is ICU's en-US: there text does not sort byte by byte ('a' < 'B', 'Á' near 'A'),
 * while the test server's default (C.UTF-8) does, like SQLite. Every order and key of the port that
 * compares text must come out in byte order all the same, so none may lean on the database's collation
 * (the ranks reviews are written with included).
 */
import { afterAll, describe } from 'vitest';
import { closePostgres, migratePostgres, openPostgres } from '../../src/db/postgres/client.ts';
import { postgresEngine } from '../../src/db/postgres/database.ts';
import { accessReads, catalogReads, catalogWorld, questionReads, reviewReads, reviewTies } from '../contract/catalog-world.ts';
import { testDbOf, type TestDb } from '../support/db.ts';
import { adminUrl, createTestDatabase, describePostgres } from '../support/postgres.ts';

/** A new database of ICU en-US collation, migrated, dropped after the file's tests. */
async function icuDatabase(): Promise<TestDb> {
  const target = await createTestDatabase(`TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`);
  const pg = openPostgres(target.url, { poolSize: 4 });
  afterAll(async () => {
    await closePostgres(pg).catch(() => {});
    await target.drop();
  });
  await migratePostgres(pg);
  return testDbOf(postgresEngine(pg));
}

const db = adminUrl ? await icuDatabase() : undefined;
const w = db ? await catalogWorld(db) : undefined;

describePostgres('the catalog contract’s reads on a database of ICU en-US collation', () => {
  const on = () => ({ database: db!.database, w: w! });
  describe('access', () => accessReads(on));
  describe('catalog', () => catalogReads(on));
  describe('reviews', () => {
    reviewReads(on);
    reviewTies(on);
  });
  describe('questions', () => questionReads(on));
});
