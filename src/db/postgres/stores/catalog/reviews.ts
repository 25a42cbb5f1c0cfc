import { and, asc, desc, eq, gt, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { insertReviews } from './reviews-write.ts';
import type {
  ReviewedExperienceRow,
  ReviewKey,
  ReviewOfExperienceRow,
  ReviewPageRead,
  ReviewPageRow,
  ReviewsStore,
} from '../../../../domain/catalog/store.ts';
import { experiences, hosts, reviewers, reviews } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { inByteOrder, isoText } from '../sql-parts.ts';

/**
 * The experience a review page belongs to, with its review count, in one statement. Ranks are dense,
 * so MAX(rank) is the count, read with one seek on (experience_id, rank). Read on its own only when
 * the page is empty; otherwise the page's own statement carries it (`experienceOfPage`).
 */
const reviewedExperience = preparedPerExecutor((db) => {
  const id = sql.placeholder('id');
  return db
    .select({
      id: experiences.id,
      title: experiences.title,
      brandId: experiences.brandId,
      total: sql<number>`coalesce((SELECT max(${reviews.rank}) FROM ${reviews} WHERE ${reviews.experienceId} = ${id}), 0)`.mapWith(Number),
    })
    .from(experiences)
    .where(eq(experiences.id, id))
    .prepare('reviewed_experience');
});

/** A value bound when the query is built, or a placeholder bound on each run of a named statement. */
type Param<T> = T | Placeholder;

/**
 * The page's experience and review count, as columns of each page row: subqueries on the experience's
 * id alone, which PostgreSQL runs once per statement (InitPlans), not once per row.
 */
const experienceOfPage = (experienceId: Param<string>) => ({
  title: sql<string>`(SELECT ${experiences.title} FROM ${experiences} WHERE ${experiences.id} = ${experienceId})`,
  brandId: sql<string>`(SELECT ${experiences.brandId} FROM ${experiences} WHERE ${experiences.id} = ${experienceId})`,
  total: sql<number>`(SELECT max(${reviews.rank}) FROM ${reviews} WHERE ${reviews.experienceId} = ${experienceId})`.mapWith(Number),
});

/** A page read with its experience: from its first row, or, for an empty page, read on its own. */
async function pageRead(
  db: PgExecutor,
  experienceId: string,
  rows: Array<ReviewPageRow & { experience: Omit<ReviewedExperienceRow, 'id'> }>,
): Promise<ReviewPageRead | undefined> {
  const [first] = rows;
  if (!first) {
    const [experience] = await reviewedExperience(db).execute({ id: experienceId });
    return experience && { experience, reviews: [] };
  }
  return {
    experience: { id: experienceId, ...first.experience },
    reviews: rows.map(({ experience: _experience, ...row }) => row),
  };
}

/** A review's columns with its reviewer and host, as pages and reads by id select them. */
const selectedPage = {
  id: reviews.id,
  rank: reviews.rank,
  rating: reviews.rating,
  recommendability: reviews.recommendability,
  text: reviews.text,
  reviewedAt: reviews.reviewedAt,
  experiencedDate: reviews.experiencedDate,
  reviewer: {
    id: reviewers.id,
    firstName: reviewers.firstName,
    lastName: reviewers.lastName,
    emailAddress: reviewers.emailAddress,
    phoneNumber: reviewers.phoneNumber,
    profilePicture: reviewers.profilePicture,
  },
  host: {
    id: hosts.id,
    firstName: hosts.firstName,
    lastName: hosts.lastName,
    emailAddress: hosts.emailAddress,
    phoneNumber: hosts.phoneNumber,
    profilePicture: hosts.profilePicture,
  },
};

/** An experience's reviews with their reviewer and host joined in, and the experience: a page costs one statement. */
function selectPage(db: PgExecutor, experienceId: Param<string>) {
  return db
    .select({ ...selectedPage, experience: experienceOfPage(experienceId) })
    .from(reviews)
    .innerJoin(reviewers, eq(reviewers.id, reviews.reviewerId))
    .innerJoin(hosts, eq(hosts.id, reviews.hostId));
}

/**
 * The `limit` reviews ranked after `afterRank`, newest first: a seek on (experience_id, rank), so page
 * 500 costs what page 1 costs (no OFFSET). Returned unexecuted so tests can EXPLAIN it.
 */
export function reviewsByRankQuery(db: PgExecutor, experienceId: string, afterRank: number, limit: number) {
  return selectPage(db, experienceId)
    .where(and(eq(reviews.experienceId, experienceId), gt(reviews.rank, afterRank)))
    .orderBy(asc(reviews.rank))
    .limit(limit);
}

export async function findReviewsByRank(
  db: PgExecutor,
  experienceId: string,
  afterRank: number,
  limit: number,
): Promise<ReviewPageRead | undefined> {
  return pageRead(db, experienceId, await reviewsByRankQuery(db, experienceId, afterRank, limit));
}

/** The form SQLite stores instants in (`toISOString()`), which its text comparison of keys relies on. */
const isCanonicalInstant = (value: string) => {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
};

/**
 * Reviews after `after` in newest-first order. SQLite compares the key as text: `(reviewed_at, id) <
 * (key)`, chronological since every stored instant has one shape. A key in that shape compares the same
 * way here as times, written so the (experience_id, reviewed_at, id) index seeks to the key's instant;
 * ids compare byte by byte (`COLLATE "C"`), as on SQLite. Any other key (an instant in another shape, or
 * no real date, like February 30th, which a timestamptz parameter would reject) is compared as SQLite
 * does: as text, against each instant's canonical text.
 */
function olderThan(after: ReviewKey): SQL {
  if (isCanonicalInstant(after.reviewedAt)) {
    return sql`(${reviews.reviewedAt} <= ${after.reviewedAt} and (${reviews.reviewedAt} < ${after.reviewedAt} or ${inByteOrder(reviews.id)} < ${after.id}))`;
  }
  return sql`(${inByteOrder(isoText(reviews.reviewedAt))}, ${inByteOrder(reviews.id)}) < (${after.reviewedAt}, ${after.id})`;
}

/**
 * The `limit` reviews older than `after` (all from the newest without it), newest first: reviewed_at
 * then id, descending, a seek on (experience_id, reviewed_at, id) that later inserts cannot shift.
 * Returned unexecuted for EXPLAIN.
 */
export function reviewsAfterKeyQuery(db: PgExecutor, experienceId: string, after: ReviewKey | null, limit: number) {
  return selectPage(db, experienceId)
    .where(and(eq(reviews.experienceId, experienceId), after ? olderThan(after) : undefined))
    .orderBy(desc(reviews.reviewedAt), desc(inByteOrder(reviews.id)))
    .limit(limit);
}

/** The first page, which every experience page shows: a named statement. */
const newestReviews = preparedPerExecutor((db) =>
  selectPage(db, sql.placeholder('experienceId'))
    .where(eq(reviews.experienceId, sql.placeholder('experienceId')))
    .orderBy(desc(reviews.reviewedAt), desc(inByteOrder(reviews.id)))
    .limit(sql.placeholder('limit'))
    .prepare('newest_reviews'),
);

export async function findReviewsAfterKey(
  db: PgExecutor,
  experienceId: string,
  after: ReviewKey | null,
  limit: number,
): Promise<ReviewPageRead | undefined> {
  const rows =
    after === null ? await newestReviews(db).execute({ experienceId, limit }) : await reviewsAfterKeyQuery(db, experienceId, after, limit);
  return pageRead(db, experienceId, rows);
}

/** Reviews by id with their experience (a router's batch of references): one statement for any number. */
export async function findReviewsByIds(db: PgExecutor, ids: readonly string[]): Promise<ReviewOfExperienceRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({ ...selectedPage, experience: { id: experiences.id, title: experiences.title, brandId: experiences.brandId } })
    .from(reviews)
    .innerJoin(reviewers, eq(reviewers.id, reviews.reviewerId))
    .innerJoin(hosts, eq(hosts.id, reviews.hostId))
    .innerJoin(experiences, eq(experiences.id, reviews.experienceId))
    .where(inArray(reviews.id, [...ids]));
}

export const reviewsStore = {
  insertReviews,
  findReviewsByRank,
  findReviewsAfterKey,
  findReviewsByIds,
} satisfies PostgresStore<ReviewsStore>;
