import type {
  BookingAvailabilityMode,
  ContentVersion,
  ListingKind,
  MediaRole,
  PaymentPlatform,
  ProductLine,
  ServiceVersion,
} from '../shared/values.ts';
import type {
  DesignElement,
  ImageRef,
  IntegrationMeta,
  MediaRendition,
  PaymentMethodFlags,
  TemplateElement,
} from '../shared/json-types.ts';

export interface BrandRow {
  id: string;
  organizationId: string | null;
  name: string;
  brandEmail: string;
  countryCode: string;
  /** ISO 4217 code; every amount of the brand is in it. */
  currency: string;
  /** Default content language (BCP 47), used when no translation matches. */
  language: string;
  /** The locale answers default to when none is asked (a translation's, else `language`); null: `language`. */
  defaultLocale: string | null;
  isLimited: boolean;
  designElement: DesignElement;
  templateElement: TemplateElement;
  featuresActive: string[];
  featuresUpdatedAt: string;
  hostsLimit: number;
  promotionExclusiveTag: string;
  customStyle: string;
  paymentPlatform: PaymentPlatform;
  validateRoomCharge: boolean;
  validateMemberCharge: boolean;
  serviceVersion: ServiceVersion;
  products: ProductLine[];
  paymentMethods: PaymentMethodFlags;
  cancellationPolicyId: string | null;
  reschedulePolicyId: string | null;
  /** Percent (0..100) of each session's capacity that unpaid holds made with publishable keys may take. */
  publishableHoldSharePercent: number;
  createdAt: string;
}

export interface CancellationPolicyRow {
  id: string;
  brandId: string;
  name: string;
  description: string;
  /** Hours before the session start up to which a full refund is given; null: never refundable. */
  fullRefundHoursBefore: number | null;
  /** Percentage refunded after that point (0..100). */
  lateRefundPercent: number;
}

export interface ReschedulePolicyRow {
  id: string;
  brandId: string;
  name: string;
  description: string;
  /** Hours before the session start up to which a guest may reschedule. */
  allowedHoursBefore: number;
  maxReschedules: number;
}

export interface ExperienceRow {
  id: string;
  brandId: string;
  hostId: string;
  categoryId: string;
  slug: string;
  title: string;
  headline: string;
  description: string;
  healthAndSafety: string;
  providedItems: string[];
  locationName: string;
  longitude: string;
  latitude: string;
  /** IANA zone of the location; session times are local to it. */
  timezoneId: string;
  locationAdditionalInfo: string;
  maxParticipantsCount: number;
  sessionDurationMinutes: number;
  bookingAvailabilityMode: BookingAvailabilityMode;
  isExclusive: boolean;
  isBookable: boolean;
  isUnlisted: boolean;
  type: string;
  paymentMethods: string[];
  integrationMeta: IntegrationMeta[];
  externalFieldType: string | null;
  externalFieldValue: string | null;
  minimumRequiredToBook: number | null;
  maximumAllowedToBook: number | null;
  displayedCapacity: number | null;
  cancellationPolicyId: string | null;
}

export interface ExperienceTranslationRow {
  experienceId: string;
  locale: string;
  title: string;
  headline: string;
  description: string;
  healthAndSafety: string;
}

export interface NamedRow {
  id: string;
  name: string;
}

export interface ExperienceMediaRow {
  id: string;
  role: MediaRole;
  renditions: MediaRendition[];
}

export interface HostRow {
  id: string;
  brandId: string;
  firstName: string;
  lastName: string;
  emailAddress: string;
  phoneNumber: string;
  description: string;
  profilePicture: ImageRef;
  allowOverlappingBookings: boolean;
}

/** A listing with the categories and hosts of both the listing itself and its experience, if any. */
export interface FeaturedListingRow {
  listing: ListingRow;
  listingCategory: { id: string; name: string } | null;
  experienceCategory: { id: string; name: string } | null;
  listingHost: HostRow | null;
  experienceHost: HostRow | null;
}

export interface ListingContentRow {
  id: string;
  listingId: string;
  version: ContentVersion;
  title: string;
  summary: string;
  slug: string | null;
  advertisedPriceMinor: number;
  startingPriceMinor: number;
  hidePrice: boolean;
  pricePerType: string;
  maxParticipants: number;
}

export interface ListingContentTranslationRow {
  contentId: string;
  locale: string;
  title: string;
  summary: string;
}

export interface ListingMediaRow {
  listingId: string;
  kind: string;
  media: MediaRow;
}

export interface ListingVibeRow {
  listingId: string;
  id: string;
  name: string;
}

export interface ListingRow {
  id: string;
  brandId: string;
  kind: ListingKind;
  productLine: ProductLine;
  experienceId: string | null;
  resourceGroupCollectionId: string;
  isFeatured: boolean;
  isUnlisted: boolean;
  isExclusive: boolean;
  /** Position in the dashboard order (ascending). */
  displayOrder: number;
  bookingAvailabilityMode: BookingAvailabilityMode | null;
  categoryId: string | null;
  hostId: string | null;
  pointsEligible: boolean | null;
  /** Event listings only: first and last local date (YYYY-MM-DD). */
  eventStartDate: string | null;
  eventEndDate: string | null;
}

export interface MediaRow {
  id: string;
  brandId: string;
  type: string;
  altText: string | null;
  renditions: MediaRendition[];
}

export interface ReviewStatsRow {
  experienceId: string;
  averageRating: number;
  averageRecommendability: number;
  total: number;
}

export interface ReviewedExperienceRow {
  id: string;
  title: string;
  brandId: string;
  /** Number of reviews: ranks are dense (1..n), so the highest rank is the count. */
  total: number;
}

export interface ReviewPageRow {
  id: string;
  rank: number;
  rating: number;
  recommendability: number;
  text: string;
  reviewedAt: string;
  experiencedDate: string;
  reviewer: PersonRow;
  host: PersonRow;
}

/** A review read by its id, with the experience it reviews. */
export interface ReviewOfExperienceRow extends ReviewPageRow {
  experience: Omit<ReviewedExperienceRow, 'total'>;
}

/** A position in newest-first order: the last review seen. */
export interface ReviewKey {
  reviewedAt: string;
  id: string;
}

export interface PersonRow {
  id: string;
  firstName: string;
  lastName: string;
  emailAddress: string;
  phoneNumber: string;
  profilePicture: ImageRef;
}

export interface BrandsStore {
  findBrand(id: string): Promise<BrandRow | undefined>;
  findCancellationPolicy(id: string): Promise<CancellationPolicyRow | undefined>;
  findReschedulePolicy(id: string): Promise<ReschedulePolicyRow | undefined>;
}

/** An experience with all its page shows of it but reviews and questions. */
export interface ExperienceRecord {
  row: ExperienceRow;
  /** By locale (byte order). */
  translations: ExperienceTranslationRow[];
  /** Cover first, then pictures by position. */
  media: ExperienceMediaRow[];
  /** Null only for a broken row (categories and hosts are never deleted). */
  category: NamedRow | null;
  host: HostRow | null;
  /** In their configured order. */
  vibes: NamedRow[];
  /** By position. */
  priceTiers: Array<{ name: string; priceMinor: number }>;
  /** By position. */
  taxes: Array<{ name: string; rateBasisPoints: number }>;
}

export interface ExperiencesStore {
  findExperienceRow(id: string): Promise<ExperienceRow | undefined>;
  /** The experience with its parts, read at once (every experience page: a hot path). */
  findExperienceRecord(id: string): Promise<ExperienceRecord | undefined>;
  /**
   * The experiences with these ids, as `findExperienceRecord` reads each, in no particular order (unknown
   * ids are left out): a fixed number of statements however many ids (a router's batch of references).
   */
  findExperienceRecords(ids: readonly string[]): Promise<ExperienceRecord[]>;
  /** By position. */
  priceTiersOfExperience(experienceId: string): Promise<Array<{ name: string; priceMinor: number }>>;
  /**
   * Ids of the brand's listed experiences (unlisted ones left out) after `afterId` (null: from the first),
   * by id in byte order, at most `limit` (a search pages through a brand's catalogue with them).
   */
  listedExperienceIds(brandId: string, afterId: string | null, limit: number): Promise<string[]>;
}

export interface HostsStore {
  /** The brand's hosts by last name, then first name, then id. */
  listHostsOfBrand(brandId: string): Promise<HostRow[]>;
}

/** A featured listing with everything a featured-listings answer shows of it. */
export interface FeaturedListingPageRow extends FeaturedListingRow {
  /** Its content rows of the versions asked, by version ('draft' before 'published'). */
  contents: ListingContentRow[];
  /** Translations of those contents whose locale is one of those asked (compared case-insensitively), by content id, then locale. */
  translations: ListingContentTranslationRow[];
  /** Its media, in position order. */
  media: ListingMediaRow[];
  /** Its vibes, in position order. */
  vibes: ListingVibeRow[];
  /** Its experience's review averages and count; null without an experience or without reviews. */
  reviewStats: ReviewStatsRow | null;
}

export interface ListingsStore {
  /**
   * A brand's featured listings that are (un)listed, in dashboard order (display order, then id), each
   * with its contents of `versions`, their translations in `locales`, its media, vibes and review stats:
   * every featured-listings request reads this (a hot path), in one call however many listings there are.
   */
  findFeaturedListingPage(
    brandId: string,
    unlisted: boolean,
    versions: ReadonlyArray<ListingContentRow['version']>,
    locales: readonly string[],
  ): Promise<FeaturedListingPageRow[]>;
}

export interface ReviewStatsStore {
  /**
   * Review averages and counts of several experiences, by experience id; experiences without reviews are
   * absent. Averages are of doubles, as `sum / count` computes them. Every listing and experience read
   * asks (a hot path).
   */
  reviewStatsOf(experienceIds: readonly string[]): Promise<ReviewStatsRow[]>;
}

/** A new review: its rank is the store's to give. */
export interface ReviewInsert {
  id: string;
  experienceId: string;
  reviewerId: string;
  /** Host who led the reviewed session. */
  hostId: string;
  rating: number;
  recommendability: number;
  text: string;
  /** An instant (any form `Date.parse` reads; stored as ISO 8601 UTC). */
  reviewedAt: string;
  experiencedDate: string;
}

export interface ReviewsStore {
  /**
   * Inserts reviews and renumbers the rank of every review of the experiences touched: 1 for the newest
   * (latest `reviewedAt`, equal instants by id descending, byte order), dense. Concurrent writers of one
   * experience never leave a rank twice or a gap. A `reviewedAt` or `experiencedDate` that is no date-time
   * is refused (RangeError) and nothing is written.
   */
  insertReviews(rows: readonly ReviewInsert[]): Promise<void>;
  /**
   * The experience a review page belongs to, with its review count. Review pages are read with every
   * experience page (a hot path, as are the page reads).
   */
  findReviewedExperience(experienceId: string): Promise<ReviewedExperienceRow | undefined>;
  /** Up to `limit` reviews of the experience ranked after `afterRank`, by rank (newest first). */
  findReviewsByRank(experienceId: string, afterRank: number, limit: number): Promise<ReviewPageRow[]>;
  /**
   * Up to `limit` reviews of the experience after `after` in newest-first order (the order of the ranks),
   * from the newest when it is null: those whose (`reviewedAt`, `id`) is below the key's, compared as
   * text, stored instants in their canonical ISO 8601 form. So a key of another shape (no milliseconds,
   * an offset, no real date) is compared as its text, never refused.
   */
  findReviewsAfterKey(experienceId: string, after: ReviewKey | null, limit: number): Promise<ReviewPageRow[]>;
  /** The reviews with these ids (unknown ones left out), in no particular order: one statement. */
  findReviewsByIds(ids: readonly string[]): Promise<ReviewOfExperienceRow[]>;
}
