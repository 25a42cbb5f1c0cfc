import { asc, avg, count } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import { reviews } from '../../schema/index.ts';
import type { ReviewStatsRow, ReviewStatsStore } from '../../../../domain/catalog/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const reviewStats = preparedPerDb((db) =>
  db
    .select({
      experienceId: reviews.experienceId,
      averageRating: avg(reviews.rating).mapWith(Number),
      averageRecommendability: avg(reviews.recommendability).mapWith(Number),
      total: count(),
    })
    .from(reviews)
    .where(inIdList(reviews.experienceId, 'ids'))
    .groupBy(reviews.experienceId)
    .orderBy(asc(reviews.experienceId))
    .prepare(),
);

export function reviewStatsOf(db: Db, experienceIds: readonly string[]): ReviewStatsRow[] {
  if (experienceIds.length === 0) return [];
  return reviewStats(db).all({ ids: idList(experienceIds) });
}

export const reviewStatsStore = {
  reviewStatsOf,
} satisfies SqliteStore<ReviewStatsStore>;
