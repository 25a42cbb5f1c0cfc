import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  FeaturedListingPageRow,
  ListingContentRow,
  ListingContentTranslationRow,
  ListingMediaRow,
  ListingsStore,
  ListingVibeRow,
} from '../../../../domain/catalog/store.ts';
import { categories, experiences, hosts, listings } from '../../schema/index.ts';
import { lockInUnit, preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { inByteOrder, jsonRows } from '../sql-parts.ts';
import { reviewStatsJson } from './review-stats.ts';

const listingCategory = alias(categories, 'listing_category');
const experienceCategory = alias(categories, 'experience_category');
const listingHost = alias(hosts, 'listing_host');
const experienceHost = alias(hosts, 'experience_host');

/** Listings joined to their categories and hosts, each with its parts aggregated as JSON. */
function listingPageSelect(db: PgExecutor) {
  const ofVersions = sql`c.listing_id = ${listings.id} AND c.version = any(${sql.placeholder('versions')}::text[])`;
  return db
    .select({
      listing: listings,
      listingCategory: { id: listingCategory.id, name: listingCategory.name },
      experienceCategory: { id: experienceCategory.id, name: experienceCategory.name },
      listingHost,
      experienceHost,
      contents: jsonRows<ListingContentRow>(sql`
        SELECT json_agg(json_build_object('id', c.id, 'listingId', c.listing_id, 'version', c.version, 'title', c.title,
          'summary', c.summary, 'slug', c.slug, 'advertisedPriceMinor', c.advertised_price_minor,
          'startingPriceMinor', c.starting_price_minor, 'hidePrice', c.hide_price, 'pricePerType', c.price_per_type,
          'maxParticipants', c.max_participants) ORDER BY c.version COLLATE "C")
        FROM listing_contents c WHERE ${ofVersions}`),
      translations: jsonRows<ListingContentTranslationRow>(sql`
        SELECT json_agg(json_build_object('contentId', t.content_id, 'locale', t.locale, 'title', t.title, 'summary', t.summary)
          ORDER BY t.content_id COLLATE "C", t.locale COLLATE "C")
        FROM listing_content_translations t JOIN listing_contents c ON c.id = t.content_id
        WHERE ${ofVersions} AND lower(t.locale) = any(${sql.placeholder('locales')}::text[])`),
      media: jsonRows<ListingMediaRow>(sql`
        SELECT json_agg(json_build_object('listingId', lm.listing_id, 'kind', lm.kind, 'media', json_build_object('id', m.id,
          'brandId', m.brand_id, 'type', m.type, 'altText', m.alt_text, 'renditions', m.renditions)) ORDER BY lm.position)
        FROM listing_media lm JOIN media m ON m.id = lm.media_id WHERE lm.listing_id = ${listings.id}`),
      vibes: jsonRows<ListingVibeRow>(sql`
        SELECT json_agg(json_build_object('listingId', lv.listing_id, 'id', v.id, 'name', v.name) ORDER BY lv.position)
        FROM listing_vibes lv JOIN vibes v ON v.id = lv.vibe_id WHERE lv.listing_id = ${listings.id}`),
      reviewStats: reviewStatsJson(listings.experienceId),
    })
    .from(listings)
    .leftJoin(experiences, eq(experiences.id, listings.experienceId))
    .leftJoin(listingCategory, eq(listingCategory.id, listings.categoryId))
    .leftJoin(experienceCategory, eq(experienceCategory.id, experiences.categoryId))
    .leftJoin(listingHost, eq(listingHost.id, listings.hostId))
    .leftJoin(experienceHost, eq(experienceHost.id, experiences.hostId));
}

const featuredListingPage = preparedPerExecutor((db) =>
  listingPageSelect(db)
    .where(
      and(
        eq(listings.brandId, sql.placeholder('brandId')),
        eq(listings.isFeatured, true),
        eq(listings.isUnlisted, sql.placeholder('unlisted')),
      ),
    )
    .orderBy(asc(listings.displayOrder), asc(inByteOrder(listings.id)))
    .prepare('featured_listing_page'),
);

const listingById = preparedPerExecutor((db) =>
  listingPageSelect(db)
    .where(eq(listings.id, sql.placeholder('id')))
    .prepare('listing_to_write'),
);

/**
 * A brand's featured listings that are (un)listed, in dashboard order (display order, then id), with all
 * a featured-listings answer shows of each, in one named statement: the listing joined to its categories
 * and hosts, and per listing one JSON array each of its contents, their translations, its media and
 * vibes, and its experience's review stats (averages in double precision, as SQLite's AVG takes them),
 * which node-postgres parses. JSON columns (renditions) are embedded as written, keys in their order.
 */
export async function findFeaturedListingPage(
  db: PgExecutor,
  brandId: string,
  unlisted: boolean,
  versions: ReadonlyArray<ListingContentRow['version']>,
  locales: readonly string[],
): Promise<FeaturedListingPageRow[]> {
  return featuredListingPage(db).execute({
    brandId,
    unlisted,
    versions: [...versions],
    locales: locales.map((l) => l.toLowerCase()),
  });
}

/**
 * One listing as a featured-listings page reads each, both content versions, no translations. In a unit
 * of work its row is locked first (`lockInUnit`), so a second writer of the listing waits for this one
 * and then reads what it wrote: an `If-Match` checked on this read holds until the unit commits.
 */
export async function findListingToWrite(db: PgExecutor, listingId: string): Promise<FeaturedListingPageRow | undefined> {
  if (!(await lockInUnit(db, listings, eq(listings.id, listingId)))) return undefined;
  const [row] = await listingById(db).execute({ id: listingId, versions: ['draft', 'published'], locales: [] });
  return row;
}

export const listingsStore = {
  findFeaturedListingPage,
} satisfies PostgresStore<ListingsStore>;
