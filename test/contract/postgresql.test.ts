/**
 * The store contract on PostgreSQL, with the fixtures built by the SQLite factories on one world per file
 * and copied in as they are made (only the new rows each time).
 */
import { afterAll } from 'vitest';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../fixtures/factories/checkout.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import type { Database } from '../../src/domain/shared/database.ts';
import { migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { postgresDatabase } from '../../src/db/postgres/database.ts';
import { postgresStores } from '../../src/db/postgres/stores/index.ts';
import { freshDb } from '../support/db.ts';
import { createTestDatabase, describePostgres } from '../support/postgres.ts';
import { copyRows } from '../support/postgres-rows.ts';
import { describeStoreContract } from './store-contract.ts';

describePostgres('PostgreSQL adapter', () => {
  const world = freshDb();
  let opened: Promise<{ pg: PgDb; database: Database; drop: () => Promise<void> }> | undefined;
  const openOnce = () =>
    (opened ??= (async () => {
      const target = await createTestDatabase();
      const pg = openPostgres(target.url, { poolSize: 10 });
      await migratePostgres(pg);
      return { pg, database: postgresDatabase(pg, postgresStores), drop: target.drop };
    })());
  afterAll(async () => {
    if (!opened) return;
    const { database, drop } = await opened;
    await database.close();
    await drop();
  });

  /** Runs a factory on the world, then brings its new rows over. */
  const made = async <T>(build: () => T): Promise<T> => {
    const value = build();
    await copyRows(world, (await openOnce()).pg, { skipExisting: true });
    return value;
  };
  const sessionOf = (capacity: number) => {
    const brand = createBrand(world);
    const { experience } = createExperience(world, brand.id);
    return { brand, session: createSession(world, experience, { capacity }) };
  };

  describeStoreContract('PostgreSQL', async () => ({
    database: (await openOnce()).database,
    fixtures: {
      session: (capacity) => made(() => sessionOf(capacity).session),
      paidBooking: (amountMinor) =>
        made(() => {
          const { brand, session } = sessionOf(10);
          return createPaidBooking(world, { brandId: brand.id, session, amountMinor }).booking;
        }),
      creditCode: (balanceMinor) =>
        made(() => {
          const { brand, session } = sessionOf(10);
          const code = createCreditCode(world, brand.id, { code: 'CONTRACT-CREDIT', balanceMinor });
          const { booking } = createBooking(world, { brandId: brand.id, session });
          return { id: code.id, brandId: brand.id, bookingId: booking.id };
        }),
      brand: () => made(() => createBrand(world)),
    },
  }));
});
