import { canSee, type Principal } from '../access/principal.ts';
import { lastInitial, mayReadContacts } from '../access/personal-data.ts';
import type { ImageRef } from '../shared/json-types.ts';
import { type PersonRow, type ReviewKey, type ReviewPageRead, type ReviewPageRow, type ReviewedExperienceRow } from './store.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { notFound, invalid } from '../shared/errors.ts';
import { hasFeature, requireFeature } from './features.ts';
import {
  decodeCursor,
  connection,
  encodeCursor,
  isCursorInstant,
  numberedPages,
  pageNumber,
  pageSize,
  type Edge,
  type NumberedPages,
  type PageInfo,
} from '../shared/pagination.ts';

/**
 * The spec's Person: a reviewer or the host who led the reviewed session. Contact details only for
 * callers that may read them; to the others a reviewer's last name is its initial (personal-data.ts).
 */
export interface Person {
  id: string;
  firstName: string;
  lastName: string;
  fullName: string;
  emailAddress?: string;
  phoneNumber?: string;
  profilePicture: ImageRef;
}

/** The spec's Review. */
export interface Review {
  id: string;
  rating: number;
  recommendability: number;
  text: string;
  reviewer: Person;
  reviewedAt: string;
  experience: { id: string; title: string };
  hostedBy: Person;
  experiencedDate: string;
}

/** One numbered page of reviews, newest first. */
export interface ReviewPage {
  items: Review[];
  /** The page size used (the default when none was asked for). */
  limit: number;
  pages: NumberedPages;
}

export interface ReviewConnection {
  edges: Array<Edge<Review>>;
  pageInfo: PageInfo;
  totalCount: number;
}

function toPerson(row: PersonRow, principal: Principal, role: 'reviewer' | 'host'): Person {
  const { emailAddress, phoneNumber, ...person } = row;
  if (mayReadContacts(principal)) return { ...person, fullName: `${row.firstName} ${row.lastName}`, emailAddress, phoneNumber };
  // Hosts are named in full on the brand's pages; a guest who wrote a review is not.
  const lastName = role === 'host' ? row.lastName : lastInitial(row.lastName);
  return { ...person, lastName, fullName: `${row.firstName} ${lastName}` };
}

const toReview = (row: ReviewPageRow, experience: Pick<ReviewedExperienceRow, 'id' | 'title'>, principal: Principal): Review => ({
  id: row.id,
  rating: row.rating,
  recommendability: row.recommendability,
  text: row.text,
  reviewer: toPerson(row.reviewer, principal, 'reviewer'),
  reviewedAt: row.reviewedAt,
  experience: { id: experience.id, title: experience.title },
  hostedBy: toPerson(row.host, principal, 'host'),
  experiencedDate: row.experiencedDate,
});

/**
 * The page, read with its experience, when the caller may see that experience (another brand's is
 * NOT_FOUND, never FORBIDDEN) and its brand shows reviews (the `reviews` feature); what was read of a
 * page the caller may not see goes nowhere.
 */
async function visiblePage(deps: CallerDeps, experienceId: string, page: ReviewPageRead | undefined): Promise<ReviewPageRead> {
  if (!page || !canSee(deps.principal, page.experience.brandId)) throw notFound('Experience', experienceId);
  const brand = await deps.db.brands.findBrand(page.experience.brandId);
  if (brand) requireFeature(brand, 'reviews', 'Reviews');
  return page;
}

/**
 * The reviews with these ids that the caller may see: of a brand it may see, which shows reviews (the
 * others are left out, as unknown ids are, never revealing why). One read for all of them, and one per brand.
 */
export async function findReviews(deps: CallerDeps, ids: readonly string[]): Promise<Map<string, Review>> {
  const rows = (await deps.db.reviews.findReviewsByIds(ids)).filter((row) => canSee(deps.principal, row.experience.brandId));
  const showing = new Set<string>();
  for (const brandId of new Set(rows.map((row) => row.experience.brandId))) {
    const brand = await deps.db.brands.findBrand(brandId);
    if (brand && hasFeature(brand, 'reviews')) showing.add(brandId);
  }
  return new Map(
    rows.filter((row) => showing.has(row.experience.brandId)).map((row) => [row.id, toReview(row, row.experience, deps.principal)]),
  );
}

/**
 * Page `page` of an experience's reviews, `limit` per page, newest first. Page N is one seek on the
 * dense rank (ranks (N-1)*limit+1 .. N*limit); a page past the end is empty with the same links.
 */
export async function listExperienceReviews(
  deps: CallerDeps,
  input: { experienceId: string; page?: number | null; limit?: number | null },
): Promise<ReviewPage> {
  const page = pageNumber(input.page, 'page');
  const limit = pageSize(input.limit, 'limit');
  const { experience, reviews: rows } = await visiblePage(
    deps,
    input.experienceId,
    await deps.db.reviews.findReviewsByRank(input.experienceId, (page - 1) * limit, limit),
  );
  return {
    items: rows.map((row) => toReview(row, experience, deps.principal)),
    limit,
    pages: numberedPages(page, limit, experience.total),
  };
}

const reviewCursor = (row: ReviewPageRow) => encodeCursor([row.reviewedAt, row.id]);

function reviewKey(cursor: string, field: string): ReviewKey {
  const [reviewedAt = '', id = ''] = decodeCursor(cursor, 2, field);
  if (!isCursorInstant(reviewedAt) || id === '') throw invalid(field, `${field} is not a cursor issued by this API`);
  return { reviewedAt, id };
}

/**
 * Relay connection over an experience's reviews, newest first: `first` after the `after` cursor.
 * Cursors hold (reviewedAt, id), so reviews written while a client pages never shift what it sees next.
 */
export async function experienceReviewConnection(
  deps: CallerDeps,
  input: { experienceId: string; first?: number | null; after?: string | null },
): Promise<ReviewConnection> {
  const first = pageSize(input.first, 'first');
  const after = input.after == null ? null : reviewKey(input.after, 'after');
  const { experience, reviews: rows } = await visiblePage(
    deps,
    input.experienceId,
    await deps.db.reviews.findReviewsAfterKey(input.experienceId, after, first),
  );
  const head = rows[0];
  const tail = rows[rows.length - 1];
  const edges = rows.map((row) => ({ cursor: reviewCursor(row), node: toReview(row, experience, deps.principal) }));
  return {
    ...connection(edges, {
      // Ranks are dense and newest-first, so they tell what lies on either side of the page.
      hasNextPage: tail ? tail.rank < experience.total : false,
      hasPreviousPage: head ? head.rank > 1 : after !== null && experience.total > 0,
    }),
    totalCount: experience.total,
  };
}
