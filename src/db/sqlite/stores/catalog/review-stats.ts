import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import { reviewTotals } from '../../schema/index.ts';
import type { ReviewStatsRow, ReviewStatsStore } from '../../../../domain/catalog/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

/**
 * Review averages and counts of several experiences, one row of review_totals each (kept by insertReviews);
 * experiences without reviews are absent. Each average is the sum divided by the count in double precision,
 * which is what SQLite's AVG of integers computes.
 */
const reviewStats = preparedPerDb((db) =>
  db
    .select({
      experienceId: reviewTotals.experienceId,
      averageRating: sql<number>`${reviewTotals.ratingSum} * 1.0 / ${reviewTotals.reviews}`,
      averageRecommendability: sql<number>`${reviewTotals.recommendabilitySum} * 1.0 / ${reviewTotals.reviews}`,
      total: reviewTotals.reviews,
    })
    .from(reviewTotals)
    .where(inIdList(reviewTotals.experienceId, 'ids'))
    .orderBy(asc(reviewTotals.experienceId))
    .prepare(),
);

export function reviewStatsOf(db: Db, experienceIds: readonly string[]): ReviewStatsRow[] {
  if (experienceIds.length === 0) return [];
  return reviewStats(db).all({ ids: idList(experienceIds) });
}

export const reviewStatsStore = {
  reviewStatsOf,
} satisfies SqliteStore<ReviewStatsStore>;
