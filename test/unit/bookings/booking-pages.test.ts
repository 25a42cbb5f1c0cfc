import { describe, expect, it } from 'vitest';
import { bookingPageQuery } from '../../../src/db/sqlite/stores/bookings/bookings.ts';
import { freshDb } from '../../support/db.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';

const db = freshDb();
const brand = createBrand(db);

/** SQLite's plan for a drizzle query, one detail line per step. */
function plan(query: { toSQL(): { sql: string; params: unknown[] } }): string[] {
  const { sql, params } = query.toSQL();
  return (db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail);
}

const after = { createdAt: '2026-11-02T10:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' };

describe('booking page query', () => {
  it('seeks on (brand_id, created_at, id) without sorting', () => {
    expect(plan(bookingPageQuery(db, { brandId: brand.id }, after, 21))).toEqual([
      'SEARCH bookings USING COVERING INDEX bookings_brand_created_idx (brand_id=? AND (created_at,id)<(?,?))',
    ]);
    expect(plan(bookingPageQuery(db, { brandId: brand.id }, null, 21))).toEqual([
      'SEARCH bookings USING COVERING INDEX bookings_brand_created_idx (brand_id=?)',
    ]);
  });

  it('keeps the seek and the order when filtering by status', () => {
    const steps = plan(bookingPageQuery(db, { brandId: brand.id, status: 'confirmed' }, after, 21));
    expect(steps).toEqual(['SEARCH bookings USING INDEX bookings_brand_created_idx (brand_id=? AND (created_at,id)<(?,?))']);
  });
});
