/**
 * SQLite's plans for the review page queries of its adapter: a page is one seek on an index, never a
 * sort or an OFFSET, so page 500 costs what page 1 costs. What the pages hold is tested on both engines
 * (test/unit/catalog/review-pages.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/sqlite/client.ts';
import { sqliteEngine } from '../../src/db/sqlite/database.ts';
import { reviewsAfterKeyQuery, reviewsByRankQuery } from '../../src/db/sqlite/stores/catalog/reviews.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createReviews } from '../../fixtures/factories/reviews.ts';

const connection = openDatabase(':memory:');
const engine = sqliteEngine(connection);
const db = { ...engine.seeder, database: engine.database };
const brand = await createBrand(db);
const { experience, host } = await createExperience(db, brand.id);
await createReviews(db, { brandId: brand.id, experienceId: experience.id, hostId: host.id }, 30);

/** SQLite's plan for a drizzle query, one detail line per step. */
function plan(query: { toSQL(): { sql: string; params: unknown[] } }): string[] {
  const { sql, params } = query.toSQL();
  return (connection.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail);
}

describe('review page queries', () => {
  it('reads a numbered page with one seek on the rank index, without sorting', () => {
    const steps = plan(reviewsByRankQuery(connection, experience.id, 40, 10));
    expect(steps[0]).toBe('SEARCH reviews USING INDEX reviews_experience_rank_idx (experience_id=? AND rank>?)');
    expect(steps.some((step) => step.includes('TEMP B-TREE'))).toBe(false);
    expect(steps.slice(1).every((step) => /^SEARCH (reviewers|hosts) USING INDEX sqlite_autoindex_\w+ \(id=\?\)$/.test(step))).toBe(true);
    expect(reviewsByRankQuery(connection, experience.id, 40, 10).toSQL().sql).not.toMatch(/offset/i);
  });

  it('reads a cursor page with one seek on the (reviewed_at, id) index, without sorting', () => {
    const after = plan(reviewsAfterKeyQuery(connection, experience.id, { reviewedAt: '2026-01-01T00:10:00.000Z', id: 'x' }, 10));
    expect(after[0]).toBe('SEARCH reviews USING INDEX reviews_experience_reviewed_idx (experience_id=? AND (reviewed_at,id)<(?,?))');
    const start = plan(reviewsAfterKeyQuery(connection, experience.id, null, 10));
    expect(start[0]).toBe('SEARCH reviews USING INDEX reviews_experience_reviewed_idx (experience_id=?)');
    expect([...after, ...start].some((step) => step.includes('TEMP B-TREE'))).toBe(false);
  });
});
