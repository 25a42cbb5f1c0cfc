import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  FeaturedListingRow,
  ListingContentRow,
  ListingContentTranslationRow,
  ListingMediaRow,
  ListingsStore,
  ListingVibeRow,
} from '../../../../domain/catalog/store.ts';
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
  vibes,
} from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { anyOf, inByteOrder } from './sql-parts.ts';

const listingCategory = alias(categories, 'listing_category');
const experienceCategory = alias(categories, 'experience_category');
const listingHost = alias(hosts, 'listing_host');
const experienceHost = alias(hosts, 'experience_host');

/**
 * A brand's featured listings that are (un)listed, in dashboard order (display order, then id), in one
 * statement. This and the batched reads below serve every featured-listings request.
 */
export async function findFeaturedListings(db: PgExecutor, brandId: string, unlisted: boolean): Promise<FeaturedListingRow[]> {
  return db
    .select({
      listing: listings,
      listingCategory: { id: listingCategory.id, name: listingCategory.name },
      experienceCategory: { id: experienceCategory.id, name: experienceCategory.name },
      listingHost,
      experienceHost,
    })
    .from(listings)
    .leftJoin(experiences, eq(experiences.id, listings.experienceId))
    .leftJoin(listingCategory, eq(listingCategory.id, listings.categoryId))
    .leftJoin(experienceCategory, eq(experienceCategory.id, experiences.categoryId))
    .leftJoin(listingHost, eq(listingHost.id, listings.hostId))
    .leftJoin(experienceHost, eq(experienceHost.id, experiences.hostId))
    .where(and(eq(listings.brandId, brandId), eq(listings.isFeatured, true), eq(listings.isUnlisted, unlisted)))
    .orderBy(asc(listings.displayOrder), asc(inByteOrder(listings.id)));
}

/**
 * The content rows of the given versions of several listings, by listing id then version: the order
 * SQLite reads them in (along its (listing_id, version) index).
 */
export async function findListingContents(
  db: PgExecutor,
  listingIds: readonly string[],
  versions: ReadonlyArray<ListingContentRow['version']>,
): Promise<ListingContentRow[]> {
  if (listingIds.length === 0) return [];
  return db
    .select()
    .from(listingContents)
    .where(and(anyOf(listingContents.listingId, listingIds), anyOf(listingContents.version, versions)))
    .orderBy(asc(inByteOrder(listingContents.listingId)), asc(inByteOrder(listingContents.version)));
}

/**
 * Translations of several contents whose locale is one of `locales` (compared case-insensitively), by
 * content id then locale, as SQLite reads them (along its (content_id, locale) primary key).
 */
export async function findContentTranslations(
  db: PgExecutor,
  contentIds: readonly string[],
  locales: readonly string[],
): Promise<ListingContentTranslationRow[]> {
  if (contentIds.length === 0 || locales.length === 0) return [];
  return db
    .select()
    .from(listingContentTranslations)
    .where(
      and(
        anyOf(listingContentTranslations.contentId, contentIds),
        anyOf(
          sql`lower(${listingContentTranslations.locale})`,
          locales.map((l) => l.toLowerCase()),
        ),
      ),
    )
    .orderBy(asc(inByteOrder(listingContentTranslations.contentId)), asc(inByteOrder(listingContentTranslations.locale)));
}

/** The media of several listings, each listing's in position order (listings by id). */
export async function findListingMedia(db: PgExecutor, listingIds: readonly string[]): Promise<ListingMediaRow[]> {
  if (listingIds.length === 0) return [];
  return db
    .select({ listingId: listingMedia.listingId, kind: listingMedia.kind, media })
    .from(listingMedia)
    .innerJoin(media, eq(media.id, listingMedia.mediaId))
    .where(anyOf(listingMedia.listingId, listingIds))
    .orderBy(asc(inByteOrder(listingMedia.listingId)), asc(listingMedia.position));
}

/** The vibes of several listings, each listing's in position order (listings by id). */
export async function findListingVibes(db: PgExecutor, listingIds: readonly string[]): Promise<ListingVibeRow[]> {
  if (listingIds.length === 0) return [];
  return db
    .select({ listingId: listingVibes.listingId, id: vibes.id, name: vibes.name })
    .from(listingVibes)
    .innerJoin(vibes, eq(vibes.id, listingVibes.vibeId))
    .where(anyOf(listingVibes.listingId, listingIds))
    .orderBy(asc(inByteOrder(listingVibes.listingId)), asc(listingVibes.position));
}

export const listingsStore = {
  findFeaturedListings,
  findListingContents,
  findContentTranslations,
  findListingMedia,
  findListingVibes,
} satisfies PostgresStore<ListingsStore>;
