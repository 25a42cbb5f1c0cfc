/**
 * Whether the schema is current, as PostgreSQL records it (Drizzle's `drizzle.__drizzle_migrations`):
 * not before the migrations ran on a new database, and once they have. The rest of the operations store
 * is the store contract's (test/contract/operations.test.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closePostgres, migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { postgresEngine } from '../../src/db/postgres/database.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';

describePostgres('PostgreSQL operations store', () => {
  const database = freshPostgresDatabase();
  let bare: PgDb;
  beforeAll(() => {
    bare = openPostgres(database.url(), { poolSize: 2 });
  });
  afterAll(() => closePostgres(bare));

  it('answers an unmigrated database, and knows when it is migrated', async () => {
    const { operations } = postgresEngine(bare).database;
    await operations.pingDatabase();
    expect(await operations.migrationsCurrent()).toBe(false);
    await migratePostgres(bare);
    expect(await operations.migrationsCurrent()).toBe(true);
    expect(await operations.queueSizes()).toStrictEqual({
      holdsActive: 0,
      waitlistOffersActive: 0,
      webhookDeliveriesPending: 0,
      webhookDeliveriesFailed: 0,
      webhookEndpointsDisabled: 0,
    });
  });
});
