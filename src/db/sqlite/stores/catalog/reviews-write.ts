import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { reviews, reviewTotals } from '../../schema/index.ts';
import type { ReviewInsert } from '../../../../domain/catalog/store.ts';

/**
 * Inserts reviews, renumbers `rank` (1 = newest) and counts the totals (review_totals) of the experiences
 * touched, in one transaction, so every page of reviews stays one indexed seek and an experience's ratings one
 * row. Every review write must go through here.
 *
 * Instants are stored in one canonical form (`toISOString()`): ranks and keyset cursors order them
 * as text, which is only chronological when every value has the same shape.
 * IMMEDIATE takes the write lock up front, so a concurrent writer waits (busy_timeout) instead of
 * failing on a stale read snapshot.
 */
export function insertReviews(db: Db, rows: readonly ReviewInsert[]): void {
  if (rows.length === 0) return;
  const experienceIds = [...new Set(rows.map((r) => r.experienceId))];
  db.transaction(
    (tx) => {
      // Stored ranks are always >= 1, so -1, -2, ... are free until renumbering.
      rows.forEach((row, i) =>
        tx
          .insert(reviews)
          .values({ ...canonical(row), rank: -(i + 1) })
          .run(),
      );
      renumber(tx as unknown as Db, experienceIds);
      countTotals(tx as unknown as Db, experienceIds);
    },
    { behavior: 'immediate' },
  );
}

function canonical(row: ReviewInsert): ReviewInsert {
  return {
    ...row,
    reviewedAt: isoInstant(row.reviewedAt, 'reviewedAt'),
    experiencedDate: isoInstant(row.experiencedDate, 'experiencedDate'),
  };
}

function isoInstant(value: string, field: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new RangeError(`${field} is not a date-time: ${value}`);
  return new Date(time).toISOString();
}

function renumber(db: Db, experienceIds: readonly string[]): void {
  const ids = [...experienceIds];
  // Two passes through negative numbers: the unique index is checked row by row in SQLite.
  db.update(reviews)
    .set({ rank: sql`-1000000000 - ${reviews.rank}` })
    .where(inArray(reviews.experienceId, ids))
    .run();
  db.run(sql`
    UPDATE reviews SET rank = ordered.position
    FROM (
      SELECT id, ROW_NUMBER() OVER (PARTITION BY experience_id ORDER BY reviewed_at DESC, id DESC) AS position
      FROM reviews WHERE experience_id IN ${ids}
    ) AS ordered
    WHERE reviews.id = ordered.id`);
}

/** The experiences' review totals counted again from their reviews: what insertReviews just wrote included. */
function countTotals(db: Db, experienceIds: readonly string[]): void {
  db.run(sql`
    INSERT INTO ${reviewTotals} (experience_id, reviews, rating_sum, recommendability_sum)
    SELECT experience_id, count(*), sum(rating), sum(recommendability)
    FROM ${reviews} WHERE experience_id IN ${[...experienceIds]} GROUP BY experience_id
    ON CONFLICT (experience_id) DO UPDATE SET
      reviews = excluded.reviews, rating_sum = excluded.rating_sum, recommendability_sum = excluded.recommendability_sum`);
}
