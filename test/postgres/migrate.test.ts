/** Gateways starting together on an empty database: each migrates or waits, and each migration runs once. */
import { readFileSync } from 'node:fs';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, expect, it } from 'vitest';
import { closePostgres, migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import * as schema from '../../src/db/postgres/schema/index.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';

const journal = JSON.parse(readFileSync(new URL('../../drizzle/postgres/migrations/meta/_journal.json', import.meta.url), 'utf8')) as {
  entries: Array<{ when: number }>;
};

describePostgres('migratePostgres', () => {
  const database = freshPostgresDatabase();
  const gateways: PgDb[] = [];
  afterAll(() => Promise.all(gateways.map(closePostgres)));

  it('lets five gateways started at once migrate an empty database exactly once', async () => {
    gateways.push(...Array.from({ length: 5 }, () => openPostgres(database.url(), { poolSize: 2 })));

    const outcomes = await Promise.allSettled(gateways.map(migratePostgres));

    expect(outcomes.map((o) => o.status)).toEqual(Array(5).fill('fulfilled'));
    const applied = await gateways[0]!.$client.query<{ created_at: string; times: string }>(
      'SELECT created_at, count(*) AS times FROM drizzle.__drizzle_migrations GROUP BY created_at ORDER BY created_at',
    );
    expect(applied.rows).toEqual(journal.entries.map((entry) => ({ created_at: String(entry.when), times: '1' })));
    const tables = await gateways[0]!.$client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'`);
    expect(Number(tables.rows[0]!.n)).toBe(Object.values(schema).filter((table) => is(table, PgTable)).length);
  });

  it('finds nothing left to do on a migrated database, and leaves no advisory lock behind', async () => {
    await migratePostgres(gateways[1]!);

    const applied = await gateways[1]!.$client.query('SELECT 1 FROM drizzle.__drizzle_migrations');
    expect(applied.rowCount).toBe(journal.entries.length);
    const locks = await gateways[1]!.$client.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(locks.rowCount).toBe(0);
  });
});
