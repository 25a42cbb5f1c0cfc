// How SQLite reads these pages (one index seek, no sort, no OFFSET) is its own test:
// test/sqlite/review-pages-plan.test.ts.
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../support/db.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createReviews } from '../../../fixtures/factories/reviews.ts';

const db = await freshDb();
const brand = await createBrand(db);
const { experience, host } = await createExperience(db, brand.id);
await createReviews(db, { brandId: brand.id, experienceId: experience.id, hostId: host.id }, 30);

describe('review page queries', () => {
  it('returns the ranks asked for, newest first', async () => {
    const ranks = (await db.database.reviews.findReviewsByRank(experience.id, 20, 10))!.reviews.map((row) => row.rank);
    expect(ranks).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
  });
});
