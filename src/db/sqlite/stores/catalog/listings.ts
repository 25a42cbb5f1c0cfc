import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
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
import type { HostRow } from './hosts.ts';
import type { ListingsStore } from '../../../port/catalog.ts';
import type { SqliteStore } from '../../store-binding.ts';

export type ListingRow = typeof listings.$inferSelect;
export type ListingContentRow = typeof listingContents.$inferSelect;
export type ListingContentTranslationRow = typeof listingContentTranslations.$inferSelect;
export type MediaRow = typeof media.$inferSelect;

/** A listing with the categories and hosts of both the listing itself and its experience, if any. */
export interface FeaturedListingRow {
  listing: ListingRow;
  listingCategory: { id: string; name: string } | null;
  experienceCategory: { id: string; name: string } | null;
  listingHost: HostRow | null;
  experienceHost: HostRow | null;
}

const listingCategory = alias(categories, 'listing_category');
const experienceCategory = alias(categories, 'experience_category');
const listingHost = alias(hosts, 'listing_host');
const experienceHost = alias(hosts, 'experience_host');

const featuredListings = preparedPerDb((db) =>
  db
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
    .where(
      and(
        eq(listings.brandId, sql.placeholder('brandId')),
        eq(listings.isFeatured, true),
        eq(listings.isUnlisted, sql.placeholder('unlisted')),
      ),
    )
    .orderBy(asc(listings.displayOrder), asc(listings.id))
    .prepare(),
);

/**
 * A brand's featured listings that are (un)listed, in dashboard order, in one statement. This and the
 * batched reads below serve every featured-listings request: each is prepared once per connection.
 */
export function findFeaturedListings(db: Db, brandId: string, unlisted: boolean): FeaturedListingRow[] {
  // Placeholders skip the column's encoder: a boolean column stores 1 or 0.
  return featuredListings(db).all({ brandId, unlisted: unlisted ? 1 : 0 });
}

const listingContentsOf = preparedPerDb((db) =>
  db
    .select()
    .from(listingContents)
    .where(and(inIdList(listingContents.listingId, 'ids'), inIdList(listingContents.version, 'versions')))
    .prepare(),
);

/** The content rows of the given versions of several listings. */
export function findListingContents(
  db: Db,
  listingIds: readonly string[],
  versions: ReadonlyArray<ListingContentRow['version']>,
): ListingContentRow[] {
  if (listingIds.length === 0) return [];
  return listingContentsOf(db).all({ ids: idList(listingIds), versions: idList(versions) });
}

const contentTranslationsOf = preparedPerDb((db) =>
  db
    .select()
    .from(listingContentTranslations)
    .where(
      and(
        inIdList(listingContentTranslations.contentId, 'ids'),
        sql`lower(${listingContentTranslations.locale}) in (select value from json_each(${sql.placeholder('locales')}))`,
      ),
    )
    .prepare(),
);

/** Translations of several contents whose locale is one of `locales` (compared case-insensitively). */
export function findContentTranslations(db: Db, contentIds: readonly string[], locales: readonly string[]): ListingContentTranslationRow[] {
  if (contentIds.length === 0 || locales.length === 0) return [];
  return contentTranslationsOf(db).all({ ids: idList(contentIds), locales: idList(locales.map((l) => l.toLowerCase())) });
}

export interface ListingMediaRow {
  listingId: string;
  kind: string;
  media: MediaRow;
}

const listingMediaOf = preparedPerDb((db) =>
  db
    .select({ listingId: listingMedia.listingId, kind: listingMedia.kind, media })
    .from(listingMedia)
    .innerJoin(media, eq(media.id, listingMedia.mediaId))
    .where(inIdList(listingMedia.listingId, 'ids'))
    .orderBy(asc(listingMedia.listingId), asc(listingMedia.position))
    .prepare(),
);

/** The media of several listings, each listing's in position order. */
export function findListingMedia(db: Db, listingIds: readonly string[]): ListingMediaRow[] {
  if (listingIds.length === 0) return [];
  return listingMediaOf(db).all({ ids: idList(listingIds) });
}

export interface ListingVibeRow {
  listingId: string;
  id: string;
  name: string;
}

const listingVibesOf = preparedPerDb((db) =>
  db
    .select({ listingId: listingVibes.listingId, id: vibes.id, name: vibes.name })
    .from(listingVibes)
    .innerJoin(vibes, eq(vibes.id, listingVibes.vibeId))
    .where(inIdList(listingVibes.listingId, 'ids'))
    .orderBy(asc(listingVibes.listingId), asc(listingVibes.position))
    .prepare(),
);

/** The vibes of several listings, each listing's in position order. */
export function findListingVibes(db: Db, listingIds: readonly string[]): ListingVibeRow[] {
  if (listingIds.length === 0) return [];
  return listingVibesOf(db).all({ ids: idList(listingIds) });
}

export const listingsStore = {
  findFeaturedListings,
  findListingContents,
  findContentTranslations,
  findListingMedia,
  findListingVibes,
} satisfies SqliteStore<ListingsStore>;
