import { and, asc, desc, eq, gt, sql, type Placeholder } from 'drizzle-orm';
import { insertReviews } from './reviews-write.ts';
import { readTogether, type Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import { experiences, hosts, reviewers, reviews } from '../../schema/index.ts';
import type {
  ReviewKey,
  ReviewOfExperienceRow,
  ReviewPageRead,
  ReviewPageRow,
  ReviewedExperienceRow,
  ReviewsStore,
} from '../../../../domain/catalog/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const reviewedExperience = preparedPerDb((db) =>
  db
    .select({
      id: experiences.id,
      title: experiences.title,
      brandId: experiences.brandId,
      total: sql<number>`coalesce((SELECT max(${reviews.rank}) FROM ${reviews} WHERE ${reviews.experienceId} = ${sql.placeholder('id')}), 0)`,
    })
    .from(experiences)
    .where(eq(experiences.id, sql.placeholder('id')))
    .prepare(),
);

/** The page with its experience, undefined when there is none, in one snapshot: `read` is given the review count. */
function pageRead(db: Db, experienceId: string, read: (total: number) => ReviewPageRow[]): ReviewPageRead | undefined {
  return readTogether(db, () => {
    const experience: ReviewedExperienceRow | undefined = reviewedExperience(db).get({ id: experienceId });
    return experience && { experience, reviews: read(experience.total) };
  });
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

/** Reviews with their reviewer and host joined in: a page costs one statement. */
function selectPage(db: Db) {
  return db
    .select(selectedPage)
    .from(reviews)
    .innerJoin(reviewers, eq(reviewers.id, reviews.reviewerId))
    .innerJoin(hosts, eq(hosts.id, reviews.hostId));
}

/** A value bound when the query is built, or a placeholder bound on each run of a prepared statement. */
type Param<T> = T | Placeholder;

/**
 * The `limit` reviews ranked after `afterRank`, newest first: a seek on (experience_id, rank), so
 * page 500 costs what page 1 costs (no OFFSET). Returned unexecuted so tests can EXPLAIN it; built with
 * placeholders, it is the statement prepared once below.
 */
export function reviewsByRankQuery(db: Db, experienceId: Param<string>, afterRank: Param<number>, limit: Param<number>) {
  return selectPage(db)
    .where(and(eq(reviews.experienceId, experienceId), gt(reviews.rank, afterRank)))
    .orderBy(asc(reviews.rank))
    .limit(limit);
}

const reviewsByRank = preparedPerDb((db) =>
  reviewsByRankQuery(db, sql.placeholder('experienceId'), sql.placeholder('afterRank'), sql.placeholder('limit')).prepare(),
);

export function findReviewsByRank(db: Db, experienceId: string, afterRank: number, limit: number): ReviewPageRead | undefined {
  // Past the last rank the page is empty: not read.
  return pageRead(db, experienceId, (total) => (afterRank < total ? reviewsByRank(db).all({ experienceId, afterRank, limit }) : []));
}

/**
 * The `limit` reviews older than `after` (all from the newest without it), newest first: a seek on
 * (experience_id, reviewed_at, id) that later inserts cannot shift. Returned unexecuted for EXPLAIN.
 */
export function reviewsAfterKeyQuery(
  db: Db,
  experienceId: Param<string>,
  after: { reviewedAt: Param<string>; id: Param<string> } | null,
  limit: Param<number>,
) {
  const older = after ? sql`(${reviews.reviewedAt}, ${reviews.id}) < (${after.reviewedAt}, ${after.id})` : undefined;
  return selectPage(db)
    .where(and(eq(reviews.experienceId, experienceId), older))
    .orderBy(desc(reviews.reviewedAt), desc(reviews.id))
    .limit(limit);
}

// Two statements: from the newest review, and after a key (the key's comparison is absent from the first).
const reviewsFromNewest = preparedPerDb((db) =>
  reviewsAfterKeyQuery(db, sql.placeholder('experienceId'), null, sql.placeholder('limit')).prepare(),
);
const reviewsAfterKey = preparedPerDb((db) =>
  reviewsAfterKeyQuery(
    db,
    sql.placeholder('experienceId'),
    { reviewedAt: sql.placeholder('reviewedAt'), id: sql.placeholder('id') },
    sql.placeholder('limit'),
  ).prepare(),
);

export function findReviewsAfterKey(db: Db, experienceId: string, after: ReviewKey | null, limit: number): ReviewPageRead | undefined {
  return pageRead(db, experienceId, (total) =>
    total === 0
      ? []
      : after
        ? reviewsAfterKey(db).all({ experienceId, reviewedAt: after.reviewedAt, id: after.id, limit })
        : reviewsFromNewest(db).all({ experienceId, limit }),
  );
}

/** Reviews by id with their experience (a router's batch of references): one statement for any number. */
const reviewsWithIds = preparedPerDb((db) =>
  db
    .select({ ...selectedPage, experience: { id: experiences.id, title: experiences.title, brandId: experiences.brandId } })
    .from(reviews)
    .innerJoin(reviewers, eq(reviewers.id, reviews.reviewerId))
    .innerJoin(hosts, eq(hosts.id, reviews.hostId))
    .innerJoin(experiences, eq(experiences.id, reviews.experienceId))
    .where(inIdList(reviews.id, 'ids'))
    .prepare(),
);

export function findReviewsByIds(db: Db, ids: readonly string[]): ReviewOfExperienceRow[] {
  if (ids.length === 0) return [];
  return reviewsWithIds(db).all({ ids: idList(ids) });
}

export const reviewsStore = {
  insertReviews,
  findReviewsByRank,
  findReviewsAfterKey,
  findReviewsByIds,
} satisfies SqliteStore<ReviewsStore>;
