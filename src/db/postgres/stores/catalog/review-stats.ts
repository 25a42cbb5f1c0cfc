import { asc, count, sql } from 'drizzle-orm';
import type { ReviewStatsRow, ReviewStatsStore } from '../../../../domain/catalog/store.ts';
import { reviews } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { anyOfPlaceholder, inByteOrder } from '../sql-parts.ts';

/**
 * Review averages and counts of several experiences in one statement; experiences without reviews are
 * absent; by experience id, as SQLite groups them. Averages are taken in double precision, as SQLite's
 * AVG does (PostgreSQL's AVG of an integer is a numeric rounded to 16 digits, which may differ from
 * SQLite's double in the last place).
 */
const reviewStats = preparedPerExecutor((db) =>
  db
    .select({
      experienceId: reviews.experienceId,
      averageRating: sql<number>`avg(${reviews.rating}::double precision)`.mapWith(Number),
      averageRecommendability: sql<number>`avg(${reviews.recommendability}::double precision)`.mapWith(Number),
      total: count(),
    })
    .from(reviews)
    .where(anyOfPlaceholder(reviews.experienceId, 'ids'))
    .groupBy(reviews.experienceId)
    .orderBy(asc(inByteOrder(reviews.experienceId)))
    .prepare('review_stats'),
);

export async function reviewStatsOf(db: PgExecutor, experienceIds: readonly string[]): Promise<ReviewStatsRow[]> {
  if (experienceIds.length === 0) return [];
  return reviewStats(db).execute({ ids: [...experienceIds] });
}

export const reviewStatsStore = {
  reviewStatsOf,
} satisfies PostgresStore<ReviewStatsStore>;
