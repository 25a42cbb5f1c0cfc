/** The demo data on PostgreSQL: gateways starting together on an empty database load it once, the same rows as SQLite holds. */
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../../src/db/demo/index.ts';
import type { Engine } from '../../src/db/engine.ts';
import { migratePostgres, openPostgres } from '../../src/db/postgres/client.ts';
import { postgresEngine } from '../../src/db/postgres/database.ts';
import * as schema from '../../src/db/postgres/schema/index.ts';
import type { Seeder, TableName } from '../../src/db/tables.ts';
import { freshSqliteDb, testDbOf } from '../support/db.ts';
import { invariantViolations } from '../support/invariants.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';

const now = new Date('2026-11-25T09:00:00.000Z');
/** Every table, by the name both seeders know it by. */
const tables = Object.entries(schema)
  .filter(([, value]) => is(value, PgTable))
  .map(([name]) => name as TableName);

/** A table's rows as a seeder reads them (by primary key), without what only PostgreSQL stores (its insertion order). */
async function rowsOf(seeder: Seeder, table: TableName): Promise<object[]> {
  return (await seeder.rows(table)).map((row) => {
    const { writeOrder: _writeOrder, ...rest } = row as Record<string, unknown>;
    return rest;
  });
}

describePostgres('demo data on PostgreSQL', () => {
  const database = freshPostgresDatabase();
  const gateways: Engine[] = [];
  const sqlite = freshSqliteDb();
  beforeAll(async () => {
    const pools = Array.from({ length: 4 }, () => openPostgres(database.url(), { poolSize: 2 }));
    await migratePostgres(pools[0]!);
    gateways.push(...pools.map((pool) => postgresEngine(pool)));
    await seedDemoDataIfEmpty(sqlite, now);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.database.close()));
    await sqlite.database.close();
  });

  it('is loaded by exactly one of four gateways starting together, with exactly the rows SQLite gets', async () => {
    const loaded = await Promise.all(gateways.map((gateway) => seedDemoDataIfEmpty(gateway, now)));
    expect(loaded.filter(Boolean)).toHaveLength(1);

    for (const table of tables) {
      expect({ table, rows: await rowsOf(gateways[1]!.seeder, table) }).toEqual({ table, rows: await rowsOf(sqlite, table) });
    }
    expect(tables.length).toBeGreaterThan(30);
  });

  it('holds rows where every invariant of the booking data holds', async () => {
    expect(await invariantViolations(testDbOf(gateways[1]!))).toEqual([]);
    expect(await gateways[1]!.seeder.count('bookings')).toBeGreaterThan(0);
    expect(await gateways[1]!.seeder.count('events')).toBeGreaterThan(0);
  });

  it('is left alone on a database that holds brands', async () => {
    expect(await seedDemoDataIfEmpty(gateways[2]!, now)).toBe(false);
    expect(await gateways[2]!.seeder.count('brands')).toBe(3);
  });

  it('keeps numbering events after the demo ones', async () => {
    const [{ newest }] = (await gateways[3]!.seeder.query<{ newest: number }>('SELECT max(sequence) AS newest FROM events')) as [
      { newest: number },
    ];
    const [inserted] = await gateways[3]!.seeder.query<{ sequence: number }>(
      "INSERT INTO events (id, brand_id, type, resource_id, payload) SELECT 'evt_after_demo', id, 'test', 'x', '{}' FROM brands LIMIT 1 RETURNING sequence",
    );
    expect(newest).toBeGreaterThan(0);
    expect(inserted!.sequence).toBe(newest + 1);
  });
});
