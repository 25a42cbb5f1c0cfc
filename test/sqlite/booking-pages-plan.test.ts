import { drizzle } from 'drizzle-orm/better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/sqlite/client.ts';
import * as schema from '../../src/db/sqlite/schema/index.ts';
import { bookingPageQuery } from '../../src/db/sqlite/stores/bookings/bookings.ts';
import { freshSqliteDb } from '../support/db.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';

const db = freshSqliteDb();
const brand = await createBrand(db);

/**
 * The SQLite adapter's query as it would run: Drizzle only builds its text here, so a connection-less
 * Drizzle serves, and the plan is asked of the test's database.
 */
const builder = drizzle.mock({ schema }) as unknown as Db;

/** SQLite's plan for a drizzle query, one detail line per step. */
async function plan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string[]> {
  const { sql, params } = query.toSQL();
  return (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...params)).map((row) => row.detail);
}

const after = { createdAt: '2026-11-02T10:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' };

describe('booking page query', () => {
  it('seeks on (brand_id, created_at, id) without sorting', async () => {
    expect(await plan(bookingPageQuery(builder, { brandId: brand.id }, after, 21))).toEqual([
      'SEARCH bookings USING COVERING INDEX bookings_brand_created_idx (brand_id=? AND (created_at,id)<(?,?))',
    ]);
    expect(await plan(bookingPageQuery(builder, { brandId: brand.id }, null, 21))).toEqual([
      'SEARCH bookings USING COVERING INDEX bookings_brand_created_idx (brand_id=?)',
    ]);
  });

  // As above: SQLite's planner is the subject.
  it('keeps the seek and the order when filtering by status', async () => {
    const steps = await plan(bookingPageQuery(builder, { brandId: brand.id, status: 'confirmed' }, after, 21));
    expect(steps).toEqual(['SEARCH bookings USING INDEX bookings_brand_created_idx (brand_id=? AND (created_at,id)<(?,?))']);
  });
});
