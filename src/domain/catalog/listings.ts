import { actingBrand } from '../access/principal.ts';
import { loadBrand } from './brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { groupBy } from '../shared/group-by.ts';
import { chooseContent, toListing, translationLocales, versionsFor, type ContentVersion, type Listing } from './listing-view.ts';
import { pickTranslation } from '../shared/locale.ts';
import { hasFeature, requireFeature } from './features.ts';
import { ratingsByExperience } from './ratings.ts';

export type { ContentVersion, EventDates, Listing, ListingRating } from './listing-view.ts';

export interface FeaturedListingsInput {
  /** The brand to read; without it, the brand the key acts for (see `actingBrand`). */
  brandId?: string | null;
  /** True: the unlisted listings instead of the publicly listed ones. */
  unlisted?: boolean;
  /** BCP 47 tag for title and summary; untranslated text stays in the brand's language. */
  locale?: string | null;
  version?: ContentVersion;
}

/**
 * A brand's featured listings in dashboard order. A listing without content for the requested version
 * is left out. The statements issued do not depend on how many listings there are: one for the
 * listings with their categories and hosts, then one batched read each for contents, translations,
 * media, vibes and ratings.
 */
export async function getFeaturedListings(deps: CallerDeps, input: FeaturedListingsInput): Promise<Listing[]> {
  const brand = await loadBrand(deps, actingBrand(deps.principal, input.brandId));
  if (input.unlisted) requireFeature(brand, 'unlistedExperience', 'Unlisted listings', 'unlisted');
  const version = input.version ?? 'published';
  const rows = await deps.db.listings.findFeaturedListings(brand.id, input.unlisted ?? false);
  const contentsByListing = groupBy(
    await deps.db.listings.findListingContents(
      rows.map((r) => r.listing.id),
      versionsFor(version),
    ),
    (c) => c.listingId,
  );
  const shown = rows.flatMap((row) => {
    const content = chooseContent(contentsByListing.get(row.listing.id) ?? [], version);
    return content ? [{ row, content }] : [];
  });

  const listingIds = shown.map((s) => s.row.listing.id);
  const translations = groupBy(
    await deps.db.listings.findContentTranslations(
      shown.map((s) => s.content.id),
      translationLocales(input.locale),
    ),
    (t) => t.contentId,
  );
  const medias = groupBy(await deps.db.listings.findListingMedia(listingIds), (m) => m.listingId);
  const vibes = groupBy(await deps.db.listings.findListingVibes(listingIds), (v) => v.listingId);
  const experienceIds = [...new Set(shown.flatMap((s) => (s.row.listing.experienceId ? [s.row.listing.experienceId] : [])))];
  const ratings = hasFeature(brand, 'reviews') ? await ratingsByExperience(deps, experienceIds) : new Map();

  return shown.map(({ row, content }) =>
    toListing({
      row,
      content,
      translation: pickTranslation(translations.get(content.id) ?? [], input.locale),
      currency: brand.currency,
      medias: medias.get(row.listing.id) ?? [],
      vibes: vibes.get(row.listing.id) ?? [],
      ratings: row.listing.experienceId ? ratings.get(row.listing.experienceId) : undefined,
    }),
  );
}
