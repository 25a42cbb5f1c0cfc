/** The demo data on PostgreSQL: gateways starting together on an empty database load it once, the same rows as SQLite holds. */
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../../src/db/demo/index.ts';
import { seedPostgresDemoDataIfEmpty } from '../../src/db/demo/postgres.ts';
import { closePostgres, migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import * as schema from '../../src/db/postgres/schema/index.ts';
import { openSqliteDatabase } from '../../src/db/sqlite/database.ts';
import { invariantViolations } from '../support/invariants.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';
import { sqliteCopyOf } from '../support/postgres-rows.ts';

const now = new Date('2026-11-25T09:00:00.000Z');
const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable)).map(getTableName);

describePostgres('demo data on PostgreSQL', () => {
  const database = freshPostgresDatabase();
  const gateways: PgDb[] = [];
  beforeAll(async () => {
    gateways.push(...Array.from({ length: 4 }, () => openPostgres(database.url(), { poolSize: 2 })));
    await migratePostgres(gateways[0]!);
  });
  afterAll(() => Promise.all(gateways.map(closePostgres)));

  it('is loaded by exactly one of four gateways starting together, with every row SQLite gets', async () => {
    const loaded = await Promise.all(gateways.map((gateway) => seedPostgresDemoDataIfEmpty(gateway, now)));
    expect(loaded.filter(Boolean)).toHaveLength(1);

    const sqlite = openSqliteDatabase(':memory:');
    await seedDemoDataIfEmpty(sqlite.database, sqlite.connection, now);
    for (const table of tables) {
      const expected = sqlite.connection.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`).n;
      const [actual] = (await gateways[1]!.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`)).rows;
      expect({ table, rows: actual!.n }).toEqual({ table, rows: expected });
    }
    await sqlite.database.close();
    expect(tables.length).toBeGreaterThan(30);
  });

  it('reads back into SQLite row for row, where every invariant of the booking data holds', async () => {
    const copy = await sqliteCopyOf(gateways[1]!);
    expect(invariantViolations(copy.$client)).toEqual([]);
    expect(copy.get<{ n: number }>(sql`SELECT count(*) AS n FROM bookings`).n).toBeGreaterThan(0);
    expect(copy.get<{ n: number }>(sql`SELECT count(*) AS n FROM events`).n).toBeGreaterThan(0);
  });

  it('is left alone on a database that holds brands', async () => {
    expect(await seedPostgresDemoDataIfEmpty(gateways[2]!, now)).toBe(false);
    const [row] = (await gateways[2]!.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM brands`)).rows;
    expect(row!.n).toBe(3);
  });

  it('keeps numbering events after the copied ones', async () => {
    const [{ newest }] = (await gateways[3]!.execute<{ newest: number }>(sql`SELECT max(sequence)::int AS newest FROM events`)).rows as [
      { newest: number },
    ];
    const [inserted] = (
      await gateways[3]!.execute<{ sequence: number }>(
        sql`INSERT INTO events (id, brand_id, type, resource_id, payload) SELECT 'evt_after_copy', id, 'test', 'x', '{}' FROM brands LIMIT 1 RETURNING sequence::int`,
      )
    ).rows;
    expect(newest).toBeGreaterThan(0);
    expect(inserted!.sequence).toBe(newest + 1);
  });
});
