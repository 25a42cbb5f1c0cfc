/**
 * A page of reviews after a key on PostgreSQL seeks the (experience_id, reviewed_at, id) index backward
 * and sorts only the reviews of equal instants (an incremental sort), however many reviews the
 * experience has: the plan is PostgreSQL's own business, so it is checked here, not in the contract.
 */
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createReviewer, reviewRow } from '../../fixtures/factories/reviews.ts';
import { reviewsAfterKeyQuery } from '../../src/db/postgres/stores/catalog/reviews.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

/** Minute `n` of 2026-01-01. */
const minute = (n: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + n * 60_000).toISOString();

/** A statement with its parameters written in (for EXPLAIN), as quoted literals. */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}

describePostgres('PostgreSQL review pages', () => {
  it('seeks the review index for a page after a key, sorting only reviews of equal instants', async () => {
    const { database, pg } = db!;
    const brand = await createBrand(db!);
    const { experience, host } = await createExperience(db!, brand.id, { id: 'exp-many' }, { pictures: 0 });
    const reviewer = await createReviewer(db!, brand.id);
    // 3000 reviews, three at each instant.
    const rows = Array.from({ length: 3000 }, (_, i) =>
      reviewRow({
        id: `many-${i}`,
        experienceId: experience.id,
        reviewerId: reviewer.id,
        hostId: host.id,
        reviewedAt: minute(5000 + (i % 1000)),
      }),
    );
    await database.reviews.insertReviews(rows);
    await pg.execute(sql`ANALYZE reviews`);
    const query = reviewsAfterKeyQuery(pg, 'exp-many', { reviewedAt: minute(5500), id: 'many-1500' }, 20).toSQL();
    const result = await pg.$client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${inline(query.sql, query.params)}`);
    const plan = result.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Scan Backward using reviews_experience_reviewed_idx/);
    expect(plan).toMatch(/Incremental Sort/);
    expect(plan).not.toMatch(/->\s+Sort\b/);
    const page = await database.reviews.findReviewsAfterKey('exp-many', { reviewedAt: minute(5500), id: 'many-1500' }, 4);
    expect(page!.reviews.map((r) => r.id)).toEqual(['many-499', 'many-2499', 'many-1499', 'many-498']);
  });
});
