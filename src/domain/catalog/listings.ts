import { actingBrand, type Principal } from '../access/principal.ts';
import { DomainError } from '../shared/errors.ts';
import { loadBrand } from './brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { chooseContent, toListing, translationLocales, versionsFor, type ContentVersion, type Listing } from './listing-view.ts';
import { brandLocale, pickTranslation } from '../shared/locale.ts';
import { hasFeature, requireFeature } from './features.ts';
import { toRatings } from './ratings.ts';

export type { ContentVersion, Listing } from './listing-view.ts';

export interface FeaturedListingsInput {
  /** The brand to read; without it, the brand the key acts for (see `actingBrand`). */
  brandId?: string | null;
  /** True: the unlisted listings instead of the publicly listed ones. */
  unlisted?: boolean;
  /** BCP 47 tag for title and summary (the brand's default locale when absent); untranslated text stays in the content's language. */
  locale?: string | null;
  version?: ContentVersion;
  /** How the request names `version` (GraphQL: `contentVersion`), for a refusal to point at it. */
  versionField?: string;
}

/**
 * Drafts are for secret keys: a publishable key ships in a shop's page, so whatever it reads is public.
 * It is refused `latest` (FORBIDDEN naming the field) rather than served the published content in its
 * place, so a preview built with the wrong key fails loudly instead of silently showing no drafts.
 */
export function assertMayReadVersion(principal: Principal, version: ContentVersion, field = 'version'): void {
  if (principal.kind === 'publishable' && version !== 'published') {
    throw new DomainError(
      'FORBIDDEN',
      `A publishable key reads published content only: the drafts ${field} asks for need a secret key (sk_...)`,
      {
        field,
        keyKind: 'publishable',
      },
    );
  }
}

/**
 * A brand's featured listings in dashboard order. A listing without content for the requested version
 * is left out. One read of the store, however many listings there are.
 */
export async function getFeaturedListings(deps: CallerDeps, input: FeaturedListingsInput): Promise<Listing[]> {
  const version = input.version ?? 'published';
  assertMayReadVersion(deps.principal, version, input.versionField);
  const brand = await loadBrand(deps, actingBrand(deps.principal, input.brandId));
  if (input.unlisted) requireFeature(brand, 'unlistedExperience', 'Unlisted listings', 'unlisted');
  // Text in the content's own language needs no translation, nor a read of them.
  const asked = input.locale ?? brandLocale(brand);
  const locale = asked.toLowerCase() === brand.language.toLowerCase() ? null : asked;
  const rows = await deps.db.listings.findFeaturedListingPage(
    brand.id,
    input.unlisted ?? false,
    versionsFor(version),
    translationLocales(locale),
  );
  const reviews = hasFeature(brand, 'reviews');
  return rows.flatMap((row) => {
    const content = chooseContent(row.contents, version);
    if (!content) return [];
    const translations = row.translations.filter((t) => t.contentId === content.id);
    return [
      toListing({
        row,
        content,
        translation: pickTranslation(translations, locale),
        language: brand.language,
        currency: brand.currency,
        medias: row.media,
        vibes: row.vibes,
        ratings: reviews && row.reviewStats ? toRatings(row.reviewStats) : undefined,
        principal: deps.principal,
      }),
    ];
  });
}
