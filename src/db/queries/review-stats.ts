import { avg, count, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { reviews } from '../schema.ts';

export interface ReviewStatsRow {
  experienceId: string;
  averageRating: number;
  averageRecommendability: number;
  total: number;
}

/** Review averages and counts of several experiences in one statement; experiences without reviews are absent. */
export function reviewStatsOf(db: Db, experienceIds: readonly string[]): ReviewStatsRow[] {
  if (experienceIds.length === 0) return [];
  return db
    .select({
      experienceId: reviews.experienceId,
      averageRating: avg(reviews.rating).mapWith(Number),
      averageRecommendability: avg(reviews.recommendability).mapWith(Number),
      total: count(),
    })
    .from(reviews)
    .where(inArray(reviews.experienceId, [...experienceIds]))
    .groupBy(reviews.experienceId)
    .all();
}
