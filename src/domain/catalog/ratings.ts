import type { Deps } from '../shared/deps.ts';
import type { ReviewStatsRow } from './store.ts';

/** The spec's `ratings`: averages rounded to one decimal (4.666 -> 4.7) and the review count. */
export interface Ratings {
  rating: number;
  recommendability: number;
  total: number;
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

export const toRatings = (row: ReviewStatsRow): Ratings => ({
  rating: oneDecimal(row.averageRating),
  recommendability: oneDecimal(row.averageRecommendability),
  total: row.total,
});

/** Ratings per experience id, for experiences that have at least one review. */
export async function ratingsByExperience(deps: Deps, experienceIds: readonly string[]): Promise<Map<string, Ratings>> {
  return new Map((await deps.db.reviewStats.reviewStatsOf(experienceIds)).map((row) => [row.experienceId, toRatings(row)]));
}
