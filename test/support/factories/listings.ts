import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { listingContents, listingContentTranslations, listingMedia, listings, listingVibes } from '../../../src/db/schema.ts';

type ListingInsert = typeof listings.$inferInsert;
type ContentInsert = typeof listingContents.$inferInsert;

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
