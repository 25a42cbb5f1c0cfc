import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { insertReviews, type ReviewInsert } from '../../../src/db/queries/reviews-write.ts';
import { categories, experienceMedia, experiences, hosts, media, reviewers } from '../../../src/db/schema.ts';

const picture = (id: string) => ({
  id,
  uri: { original: `https://cdn.example.test/${id}.jpg`, '480w': `https://cdn.example.test/${id}-480.jpg` },
});

export function createReviewHost(db: Db, brandId: string, overrides: Partial<typeof hosts.$inferInsert> = {}) {
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    firstName: 'Marta',
    lastName: 'Sousa',
    emailAddress: 'marta@host.test',
    phoneNumber: '+351 910 000 001',
    description: 'Local guide',
    profilePicture: picture(`host-${id}`),
    ...overrides,
  };
  db.insert(hosts).values(row).run();
  return row;
}

/**
 * The smallest experience reviews can hang off (with its own host and category). Kept here because
 * the experiences area owns the full experience factory.
 */
export function createReviewedExperience(db: Db, brandId: string, overrides: Partial<typeof experiences.$inferInsert> = {}) {
  const host = createReviewHost(db, brandId);
  const categoryId = randomUUID();
  db.insert(categories).values({ id: categoryId, brandId, name: 'Tours' }).run();
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    hostId: host.id,
    categoryId,
    slug: `experience-${id}`,
    title: 'Sunset Sail',
    headline: 'Sail at dusk',
    description: 'Two hours on the river.',
    healthAndSafety: 'Life jackets provided.',
    providedItems: [],
    locationName: 'Lisbon',
    longitude: '-9.14',
    latitude: '38.72',
    timezoneId: 'Europe/Lisbon',
    maxParticipantsCount: 10,
    sessionDurationMinutes: 120,
    bookingAvailabilityMode: 'group' as const,
    type: 'experience',
    paymentMethods: ['credit-card'],
    integrationMeta: [],
    ...overrides,
  };
  db.insert(experiences).values(row).run();
  return { experience: row, host };
}

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

/**
 * Writes `count` reviews through insertReviews, one reviewer each, review i reviewed i minutes after
 * `start`; returns them newest first (the order every page shows).
 */
export function createReviews(
  db: Db,
  target: { brandId: string; experienceId: string; hostId: string },
  count: number,
  start = Date.parse('2026-01-01T00:00:00.000Z'),
): ReviewInsert[] {
  const rows = Array.from({ length: count }, (_, i) => {
    const reviewer = createReviewer(db, target.brandId, { firstName: `Guest${i + 1}`, lastName: 'Reviewer' });
    return reviewRow({
      experienceId: target.experienceId,
      reviewerId: reviewer.id,
      hostId: target.hostId,
      rating: (i % 5) + 1,
      text: `Review ${i + 1}`,
      reviewedAt: new Date(start + i * 60_000).toISOString(),
    });
  });
  insertReviews(db, rows);
  return [...rows].reverse();
}

/** A cover picture, which the experience resource requires (for tests that read the experience itself). */
export function addCoverPicture(db: Db, brandId: string, experienceId: string) {
  const id = randomUUID();
  db.insert(media)
    .values({ id, brandId, renditions: [{ resolution: 'original', url: `https://cdn.example.test/${id}.jpg`, type: 'image/jpeg' }] })
    .run();
  db.insert(experienceMedia).values({ experienceId, mediaId: id, role: 'cover', position: 0 }).run();
}
