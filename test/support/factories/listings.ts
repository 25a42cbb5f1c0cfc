import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { insertReviews } from '../../../src/db/queries/reviews-write.ts';
import {
  categories,
  experiences,
  hosts,
  listingContents,
  listingContentTranslations,
  listingMedia,
  listings,
  listingVibes,
  media,
  reviewers,
  vibes,
} from '../../../src/db/schema.ts';

type ListingInsert = typeof listings.$inferInsert;
type ContentInsert = typeof listingContents.$inferInsert;

export function createHost(db: Db, brandId: string, overrides: Partial<typeof hosts.$inferInsert> = {}) {
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    firstName: 'Rui',
    lastName: 'Costa',
    emailAddress: `host-${id}@host.test`,
    phoneNumber: '',
    description: 'Skipper for twenty years',
    profilePicture: { id: `pic-${id}`, uri: { original: `https://cdn.example.test/pic-${id}.jpg` } },
    allowOverlappingBookings: false,
    ...overrides,
  };
  db.insert(hosts).values(row).run();
  return row;
}

export function createCategory(db: Db, brandId: string, name = 'Tours') {
  const row = { id: randomUUID(), brandId, name };
  db.insert(categories).values(row).run();
  return row;
}

export function createVibe(db: Db, brandId: string, name = 'Relaxing') {
  const row = { id: randomUUID(), brandId, name };
  db.insert(vibes).values(row).run();
  return row;
}

export function createMedia(db: Db, brandId: string, overrides: Partial<typeof media.$inferInsert> = {}) {
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    type: 'image',
    altText: null as string | null,
    renditions: [
      { resolution: 'original', url: `https://cdn.example.test/${id}.jpg`, type: 'image/jpeg' },
      { resolution: '480w', url: `https://cdn.example.test/${id}-480.webp`, type: 'image/webp' },
    ],
    ...overrides,
  };
  db.insert(media).values(row).run();
  return row;
}

/** The smallest experience a listing can point at (the experiences area owns the full factory). */
export function createListingExperience(db: Db, brandId: string, links: { hostId: string; categoryId: string }) {
  const id = randomUUID();
  const row = {
    id,
    brandId,
    ...links,
    slug: `experience-${id}`,
    title: 'Experience',
    headline: 'Headline',
    description: 'Description',
    healthAndSafety: '',
    providedItems: [],
    locationName: 'Lisbon',
    longitude: '-9.14',
    latitude: '38.72',
    timezoneId: 'Europe/Lisbon',
    maxParticipantsCount: 10,
    sessionDurationMinutes: 60,
    bookingAvailabilityMode: 'group' as const,
    type: 'experience',
    paymentMethods: ['credit-card'],
    integrationMeta: [],
  };
  db.insert(experiences).values(row).run();
  return row;
}

export function createListingContent(db: Db, listingId: string, overrides: Partial<ContentInsert> = {}) {
  const row = {
    id: randomUUID(),
    listingId,
    version: 'published' as ContentInsert['version'],
    title: 'Listing title',
    summary: 'Listing summary',
    slug: null as string | null,
    advertisedPriceMinor: 1000,
    startingPriceMinor: 900,
    hidePrice: false,
    pricePerType: 'per person',
    maxParticipants: 8,
    ...overrides,
  };
  db.insert(listingContents).values(row).run();
  return row;
}

/**
 * A featured, listed listing with a published content, unless `content: false` (no content at all) or
 * `content` overrides some of its fields.
 */
export function createListing(
  db: Db,
  brandId: string,
  overrides: Partial<ListingInsert> & { content?: Partial<ContentInsert> | false } = {},
) {
  const { content, ...fields } = overrides;
  const row = {
    id: randomUUID(),
    brandId,
    kind: 'resource' as ListingInsert['kind'],
    productLine: 'reserve' as ListingInsert['productLine'],
    experienceId: null as string | null,
    resourceGroupCollectionId: randomUUID(),
    isFeatured: true,
    isUnlisted: false,
    isExclusive: false,
    displayOrder: 1,
    ...fields,
  };
  db.insert(listings).values(row).run();
  return { listing: row, content: content === false ? null : createListingContent(db, row.id, content) };
}

export function createContentTranslation(db: Db, contentId: string, locale: string, text: { title: string; summary: string }) {
  const row = { contentId, locale, ...text };
  db.insert(listingContentTranslations).values(row).run();
  return row;
}

export function attachMedia(db: Db, listingId: string, mediaId: string, position: number, kind = 'cover') {
  db.insert(listingMedia).values({ listingId, mediaId, kind, position }).run();
}

export function attachVibe(db: Db, listingId: string, vibeId: string, position: number) {
  db.insert(listingVibes).values({ listingId, vibeId, position }).run();
}

/** One review of an experience by a new reviewer, written through the db layer's rank upkeep. */
export function createListingReview(db: Db, target: { brandId: string; experienceId: string; hostId: string }, rating: number) {
  const reviewerId = randomUUID();
  db.insert(reviewers)
    .values({
      id: reviewerId,
      brandId: target.brandId,
      firstName: 'Ana',
      lastName: 'Lima',
      emailAddress: `${reviewerId}@guest.test`,
      profilePicture: { id: `pic-${reviewerId}`, uri: { original: `https://cdn.example.test/${reviewerId}.jpg` } },
    })
    .run();
  insertReviews(db, [
    {
      id: randomUUID(),
      experienceId: target.experienceId,
      reviewerId,
      hostId: target.hostId,
      rating,
      recommendability: 9,
      text: 'Great',
      reviewedAt: '2026-03-01T10:00:00.000Z',
      experiencedDate: '2026-02-28T18:00:00.000Z',
    },
  ]);
}
