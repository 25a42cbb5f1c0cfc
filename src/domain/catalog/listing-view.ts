/**
 * Pure rules that turn stored listing rows into the API's Listing: which content version a view shows,
 * which translations to look for, and the mapping of every field.
 */
import type { MediaObject } from '../shared/json-types.ts';
import type { FeaturedListingRow, ListingContentRow, ListingContentTranslationRow, ListingMediaRow, ListingRow } from './store.ts';
import { toHost, type Host } from './hosts.ts';
import { toDecimal } from '../shared/money.ts';
import type { Ratings } from './ratings.ts';
import type { Category, Vibe } from './taxonomy.ts';
import type { Principal } from '../access/principal.ts';

/** `published` (default) shows what guests see; `latest` shows the draft where one exists. */
export type ContentVersion = 'latest' | 'published';

export interface EventDates {
  /** First local date, `YYYY-MM-DD`. */
  startDate: string;
  /** Last local date, `YYYY-MM-DD`. */
  endDate: string;
}

export interface ListingRating {
  rating: number;
  total: number;
}

/** The spec's Listing (element of `data` in the featured listings response). */
export interface Listing {
  id: string;
  /** Not part of the spec's Listing (GraphQL only, dropped by the REST schema): the brand it belongs to. */
  brandId: string;
  /** Not part of the spec's Listing (GraphQL only): which content is shown, the draft or the published one. */
  shownVersion: ListingContentRow['version'];
  kind: ListingRow['kind'];
  productLine: ListingRow['productLine'];
  title: string;
  summary: string;
  /** The language `title` and `summary` are in: the translation's locale, else the content's own language. */
  contentLanguage: string;
  slug: string | null;
  advertisedPrice: number;
  startingPrice: number;
  hidePrice: boolean;
  pricePerType: string;
  maxParticipants: number;
  order: number;
  isExclusive: boolean;
  isUnlisted: boolean;
  /** Whether it is among the brand's featured listings (`GET /v3/listings/featured` shows only those). */
  isFeatured: boolean;
  experienceId: string | null;
  resourceGroupCollectionId: string;
  medias: MediaObject[];
  bookingAvailabilityMode: ListingRow['bookingAvailabilityMode'];
  category: Category | null;
  eventDates: EventDates | null;
  hostedBy: Host | null;
  pointsEligible: boolean | null;
  rating: ListingRating | null;
  vibes: Vibe[];
}

/** The content versions a view needs to read. */
export function versionsFor(version: ContentVersion): Array<ListingContentRow['version']> {
  return version === 'published' ? ['published'] : ['draft', 'published'];
}

/** The content a view shows for one listing, or undefined when the listing has none for it (it is skipped). */
export function chooseContent(rows: readonly ListingContentRow[], version: ContentVersion): ListingContentRow | undefined {
  const published = rows.find((r) => r.version === 'published');
  if (version === 'published') return published;
  return rows.find((r) => r.version === 'draft') ?? published;
}

/** Locales whose translations may serve `locale` (exact tag, then its language), for the query to fetch. */
export function translationLocales(locale: string | null | undefined): string[] {
  if (!locale) return [];
  const language = locale.split('-')[0]!;
  return language.toLowerCase() === locale.toLowerCase() ? [locale] : [locale, language];
}

/** A media item as listings show it: the rendition MIME type is a link's `type`, its name the `resolution`. */
export const toMediaObject = (row: ListingMediaRow): MediaObject => ({
  id: row.media.id,
  kind: row.kind,
  type: row.media.type,
  links: row.media.renditions.map((r) => ({ type: r.type, url: r.url, resolution: r.resolution })),
  altText: row.media.altText,
});

/** Event listings with both dates carry them; every other listing has none. */
export function toEventDates(listing: ListingRow): EventDates | null {
  if (listing.kind !== 'event' || !listing.eventStartDate || !listing.eventEndDate) return null;
  return { startDate: listing.eventStartDate, endDate: listing.eventEndDate };
}

export interface ListingParts {
  row: FeaturedListingRow;
  content: ListingContentRow;
  /** The chosen translation of the content, or null to keep the base text (in `language`). */
  translation: Pick<ListingContentTranslationRow, 'locale' | 'title' | 'summary'> | null;
  /** The language the brand's content is written in. */
  language: string;
  currency: string;
  medias: readonly ListingMediaRow[];
  vibes: readonly Vibe[];
  ratings: Ratings | undefined;
  /** Who reads it: the host's contact details follow the key (personal-data.ts). */
  principal: Principal;
}

/** Category and host are the listing's own, else its experience's. */
export function toListing({ row, content, translation, language, currency, medias, vibes, ratings, principal }: ListingParts): Listing {
  const { listing } = row;
  const host = row.listingHost ?? row.experienceHost;
  return {
    id: listing.id,
    brandId: listing.brandId,
    shownVersion: content.version,
    kind: listing.kind,
    productLine: listing.productLine,
    title: translation?.title ?? content.title,
    summary: translation?.summary ?? content.summary,
    contentLanguage: translation?.locale ?? language,
    slug: content.slug,
    advertisedPrice: toDecimal(content.advertisedPriceMinor, currency),
    startingPrice: toDecimal(content.startingPriceMinor, currency),
    hidePrice: content.hidePrice,
    pricePerType: content.pricePerType,
    maxParticipants: content.maxParticipants,
    order: listing.displayOrder,
    isExclusive: listing.isExclusive,
    isUnlisted: listing.isUnlisted,
    isFeatured: listing.isFeatured,
    experienceId: listing.experienceId,
    resourceGroupCollectionId: listing.resourceGroupCollectionId,
    medias: medias.map(toMediaObject),
    bookingAvailabilityMode: listing.bookingAvailabilityMode,
    category: row.listingCategory ?? row.experienceCategory,
    eventDates: toEventDates(listing),
    hostedBy: host ? toHost(host, principal) : null,
    pointsEligible: listing.pointsEligible,
    rating: ratings ? { rating: ratings.rating, total: ratings.total } : null,
    vibes: vibes.map((v) => ({ id: v.id, name: v.name })),
  };
}
