import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { readTogether, type Db } from '../../client.ts';
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
import { groupBy } from '../../../../domain/shared/group-by.ts';
import { reviewStatsOf } from './review-stats.ts';
import type {
  FeaturedListingPageRow,
  FeaturedListingRow,
  ListingContentRow,
  ListingContentTranslationRow,
  ListingMediaRow,
  ListingVibeRow,
  ListingsStore,
} from '../../../../domain/catalog/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const listingCategory = alias(categories, 'listing_category');
const experienceCategory = alias(categories, 'experience_category');
const listingHost = alias(hosts, 'listing_host');
const experienceHost = alias(hosts, 'experience_host');

const listingSelect = (db: Db) =>
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
    .leftJoin(experienceHost, eq(experienceHost.id, experiences.hostId));

const featuredListings = preparedPerDb((db) =>
  listingSelect(db)
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

const listingById = preparedPerDb((db) =>
  listingSelect(db)
    .where(eq(listings.id, sql.placeholder('id')))
    .prepare(),
);

function findFeaturedListings(db: Db, brandId: string, unlisted: boolean): FeaturedListingRow[] {
  // Placeholders skip the column's encoder: a boolean column stores 1 or 0.
  return featuredListings(db).all({ brandId, unlisted: unlisted ? 1 : 0 });
}

const listingContentsOf = preparedPerDb((db) =>
  db
    .select()
    .from(listingContents)
    .where(and(inIdList(listingContents.listingId, 'ids'), inIdList(listingContents.version, 'versions')))
    .orderBy(asc(listingContents.listingId), asc(listingContents.version))
    .prepare(),
);

function findListingContents(
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
    .orderBy(asc(listingContentTranslations.contentId), asc(listingContentTranslations.locale))
    .prepare(),
);

function findContentTranslations(db: Db, contentIds: readonly string[], locales: readonly string[]): ListingContentTranslationRow[] {
  if (contentIds.length === 0 || locales.length === 0) return [];
  return contentTranslationsOf(db).all({ ids: idList(contentIds), locales: idList(locales.map((l) => l.toLowerCase())) });
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

function findListingMedia(db: Db, listingIds: readonly string[]): ListingMediaRow[] {
  if (listingIds.length === 0) return [];
  return listingMediaOf(db).all({ ids: idList(listingIds) });
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

function findListingVibes(db: Db, listingIds: readonly string[]): ListingVibeRow[] {
  if (listingIds.length === 0) return [];
  return listingVibesOf(db).all({ ids: idList(listingIds) });
}

/**
 * The featured listings, then the contents, translations, media, vibes and review stats of all of them,
 * each a batched statement prepared once, grouped by listing here; all read from one snapshot.
 */
export function findFeaturedListingPage(
  db: Db,
  brandId: string,
  unlisted: boolean,
  versions: ReadonlyArray<ListingContentRow['version']>,
  locales: readonly string[],
): FeaturedListingPageRow[] {
  return readTogether(db, () => withListingParts(db, findFeaturedListings(db, brandId, unlisted), versions, locales));
}

/** Each listing with the contents of `versions`, their translations in `locales`, its media, vibes and review stats. */
function withListingParts(
  db: Db,
  rows: FeaturedListingRow[],
  versions: ReadonlyArray<ListingContentRow['version']>,
  locales: readonly string[],
): FeaturedListingPageRow[] {
  const ids = rows.map((row) => row.listing.id);
  const contents = findListingContents(db, ids, versions);
  const listingOfContent = new Map(contents.map((c) => [c.id, c.listingId]));
  // By listing, each listing's in the statement's order (content id, then locale).
  const translationsOf = groupBy(
    findContentTranslations(
      db,
      contents.map((c) => c.id),
      locales,
    ),
    (t) => listingOfContent.get(t.contentId)!,
  );
  const contentsOf = groupBy(contents, (c) => c.listingId);
  const mediaOf = groupBy(findListingMedia(db, ids), (m) => m.listingId);
  const vibesOf = groupBy(findListingVibes(db, ids), (v) => v.listingId);
  const experienceIds = [...new Set(rows.flatMap((row) => (row.listing.experienceId ? [row.listing.experienceId] : [])))];
  const stats = new Map(reviewStatsOf(db, experienceIds).map((row) => [row.experienceId, row]));
  return rows.map((row) => ({
    ...row,
    contents: contentsOf.get(row.listing.id) ?? [],
    translations: translationsOf.get(row.listing.id) ?? [],
    media: mediaOf.get(row.listing.id) ?? [],
    vibes: vibesOf.get(row.listing.id) ?? [],
    reviewStats: (row.listing.experienceId && stats.get(row.listing.experienceId)) || null,
  }));
}

/** One listing as a featured-listings page reads each, both content versions, no translations (SQLite's units are the unit's own already). */
export function findListingToWrite(db: Db, listingId: string): FeaturedListingPageRow | undefined {
  const row = listingById(db).get({ id: listingId });
  return row ? withListingParts(db, [row], ['draft', 'published'], [])[0] : undefined;
}

export const listingsStore = {
  findFeaturedListingPage,
} satisfies SqliteStore<ListingsStore>;
