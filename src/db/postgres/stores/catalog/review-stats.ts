import { asc, sql, type AnyColumn } from 'drizzle-orm';
import type { ReviewStatsRow, ReviewStatsStore } from '../../../../domain/catalog/store.ts';
import { reviewTotals } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { anyOfPlaceholder, inByteOrder } from '../sql-parts.ts';

/**
 * Review averages and counts of several experiences in one statement, one row of review_totals each (kept by
 * insertReviews); experiences without reviews are absent; by experience id, as SQLite orders them. Each
 * average is the sum divided by the count in double precision, as SQLite's AVG computes it (PostgreSQL's AVG
 * of an integer is a numeric rounded to 16 digits, which may differ from SQLite's double in the last place).
 */
const reviewStats = preparedPerExecutor((db) =>
  db
    .select({
      experienceId: reviewTotals.experienceId,
      averageRating: sql<number>`${reviewTotals.ratingSum}::double precision / ${reviewTotals.reviews}`.mapWith(Number),
      averageRecommendability: sql<number>`${reviewTotals.recommendabilitySum}::double precision / ${reviewTotals.reviews}`.mapWith(Number),
      total: reviewTotals.reviews,
    })
    .from(reviewTotals)
    .where(anyOfPlaceholder(reviewTotals.experienceId, 'ids'))
    .orderBy(asc(inByteOrder(reviewTotals.experienceId)))
    .prepare('review_stats'),
);

/** The review stats of the experience `experienceId` names, as one JSON object (null without reviews): a subquery for a page's statement. */
export const reviewStatsJson = (experienceId: AnyColumn) => sql<ReviewStatsRow | null>`(
  SELECT json_build_object('experienceId', t.experience_id, 'averageRating', t.rating_sum::double precision / t.reviews,
    'averageRecommendability', t.recommendability_sum::double precision / t.reviews, 'total', t.reviews)
  FROM review_totals t WHERE t.experience_id = ${experienceId})`;

export async function reviewStatsOf(db: PgExecutor, experienceIds: readonly string[]): Promise<ReviewStatsRow[]> {
  if (experienceIds.length === 0) return [];
  return reviewStats(db).execute({ ids: [...experienceIds] });
}

export const reviewStatsStore = {
  reviewStatsOf,
} satisfies PostgresStore<ReviewStatsStore>;
