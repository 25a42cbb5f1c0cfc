import { asc, sql } from 'drizzle-orm';
import { experiences, reviews, reviewTotals } from '../../schema/index.ts';
import type { ReviewInsert } from '../../../../domain/catalog/store.ts';
import type { PgExecutor } from '../../store-binding.ts';
import { anyOf, inByteOrder } from '../sql-parts.ts';

/** Rows per INSERT: PostgreSQL takes at most 65 535 parameters a statement (a review has 10 columns). */
const BATCH = 1000;

/**
 * Inserts reviews, renumbers `rank` (1 = newest; equal instants by id, descending, byte order) and counts
 * the totals (review_totals) of the experiences touched, in one transaction (a savepoint when `db` is already
 * one), so every page of reviews stays one indexed seek and an experience's ratings one row. Every review
 * write must go through here.
 *
 * Instants are checked and written in one canonical form (`toISOString()`), as on SQLite: a value that is
 * no date-time is refused here, not read by PostgreSQL's own parser (which takes words like 'yesterday').
 *
 * Writers of the same experience take turns: the experiences' rows are locked first (FOR NO KEY UPDATE,
 * in id order, so two batches never wait on each other crosswise), as SQLite's IMMEDIATE takes its write
 * lock up front. Each statement after the lock sees what earlier writers committed (READ COMMITTED), so
 * the ranks come out dense.
 */
export async function insertReviews(db: PgExecutor, rows: readonly ReviewInsert[]): Promise<void> {
  if (rows.length === 0) return;
  const written = rows.map(canonical);
  const experienceIds = [...new Set(written.map((r) => r.experienceId))];
  await db.transaction(async (tx) => {
    await tx
      .select({ id: experiences.id })
      .from(experiences)
      .where(anyOf(experiences.id, experienceIds))
      .orderBy(asc(inByteOrder(experiences.id)))
      .for('no key update');
    // Stored ranks are always >= 1, so -1, -2, ... are free until renumbering.
    for (let start = 0; start < written.length; start += BATCH) {
      await tx.insert(reviews).values(written.slice(start, start + BATCH).map((row, i) => ({ ...row, rank: -(start + i + 1) })));
    }
    await renumber(tx, experienceIds);
    await countTotals(tx, experienceIds);
  });
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

async function renumber(db: PgExecutor, experienceIds: readonly string[]): Promise<void> {
  // Two passes through negative numbers: PostgreSQL checks a unique index row by row during an UPDATE.
  await db
    .update(reviews)
    .set({ rank: sql`-1000000000 - ${reviews.rank}` })
    .where(anyOf(reviews.experienceId, experienceIds));
  await db.execute(sql`
    UPDATE ${reviews} SET rank = ordered.position
    FROM (
      SELECT id, ROW_NUMBER() OVER (PARTITION BY experience_id ORDER BY reviewed_at DESC, id COLLATE "C" DESC) AS position
      FROM ${reviews} WHERE ${anyOf(reviews.experienceId, experienceIds)}
    ) AS ordered
    WHERE ${reviews.id} = ordered.id`);
}

/** The experiences' review totals counted again from their reviews: what insertReviews just wrote included. */
async function countTotals(db: PgExecutor, experienceIds: readonly string[]): Promise<void> {
  await db.execute(sql`
    INSERT INTO ${reviewTotals} (experience_id, reviews, rating_sum, recommendability_sum)
    SELECT experience_id, count(*), sum(rating), sum(recommendability)
    FROM ${reviews} WHERE ${anyOf(reviews.experienceId, experienceIds)} GROUP BY experience_id
    ON CONFLICT (experience_id) DO UPDATE SET
      reviews = excluded.reviews, rating_sum = excluded.rating_sum, recommendability_sum = excluded.recommendability_sum`);
}
