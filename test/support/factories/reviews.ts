import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { insertReviews, type ReviewInsert } from '../../../src/db/queries/reviews-write.ts';
import { reviewers } from '../../../src/db/schema.ts';
import { picture } from './catalog.ts';

export function createReviewer(db: Db, brandId: string, overrides: Partial<typeof reviewers.$inferInsert> = {}) {
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    firstName: 'Ana',
    lastName: 'Lima',
    emailAddress: 'ana@guest.test',
    phoneNumber: '+351 920 000 002',
    profilePicture: picture(`reviewer-${id}`),
    ...overrides,
  };
  db.insert(reviewers).values(row).run();
  return row;
}

/** One review row (not yet written); reviewedAt defaults to a fixed instant. */
export function reviewRow(input: { experienceId: string; reviewerId: string; hostId: string } & Partial<ReviewInsert>): ReviewInsert {
  return {
    id: randomUUID(),
    rating: 5,
    recommendability: 9,
    text: 'Lovely evening',
    reviewedAt: '2026-03-01T10:00:00.000Z',
    experiencedDate: '2026-02-28T18:00:00.000Z',
    ...input,
  };
}

type ReviewFields = Partial<Omit<ReviewInsert, 'experienceId' | 'reviewerId' | 'hostId'>>;

/**
 * Writes reviews of one experience in a single insertReviews batch, one new reviewer each, review i
 * reviewed i minutes after `start`; returns them newest first (the order every page shows).
 * `reviews` is either a count (ratings cycle 1..5, texts "Review 1", ...) or each review's own fields.
 */
export function createReviews(
  db: Db,
  target: { brandId: string; experienceId: string; hostId: string },
  reviews: number | ReviewFields[],
  start = Date.parse('2026-01-01T00:00:00.000Z'),
): ReviewInsert[] {
  const fields = typeof reviews === 'number' ? Array.from({ length: reviews }, (_, i) => ({ rating: (i % 5) + 1, text: `Review ${i + 1}` })) : reviews;
  const rows = fields.map((own, i) => {
    const reviewer = createReviewer(db, target.brandId, { firstName: `Guest${i + 1}`, lastName: 'Reviewer' });
    return reviewRow({
      experienceId: target.experienceId,
      reviewerId: reviewer.id,
      hostId: target.hostId,
      reviewedAt: new Date(start + i * 60_000).toISOString(),
      ...own,
    });
  });
  insertReviews(db, rows);
  return [...rows].reverse();
}
