import type { CouponRow, CreditCodeRow } from '../checkout/store.ts';
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
import type { ExperienceQuestionRow } from '../questions/store.ts';
import type { BrandQuestion, QuestionsWrite } from './experience-questions.ts';

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
  /** The brand's own account at the payment processor (Stripe Connect, direct charges); null: the platform's. */
  processorAccount: string | null;
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
  /** Grows by one with every write through the API (the ETag). */
  version: number;
  /** When it was archived (no new sales), ISO 8601 UTC; null while it is sold. */
  archivedAt: string | null;
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
  altText: string | null;
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

/** A page of an experience's reviews, with the experience. */
export interface ReviewPageRead {
  experience: ReviewedExperienceRow;
  reviews: ReviewPageRow[];
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

/** An experience's record and its review stats (`reviewStatsOf`'s row, null without reviews). */
export interface ExperiencePageRecord extends ExperienceRecord {
  reviewStats: ReviewStatsRow | null;
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
  /**
   * The record as `findExperienceRecord` reads it, with its review stats as `reviewStatsOf` gives them
   * (null without reviews): what an experience page shows, read together (one statement where an engine
   * pays for each).
   */
  findExperiencePage(id: string): Promise<ExperiencePageRecord | undefined>;
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

/** What a coupon write sets (coupon-writes.ts). */
export type CouponFields = Omit<CouponRow, 'id' | 'brandId'>;

/** What a credit code write sets (credit-code-writes.ts). */
export type CreditCodeFields = Omit<CreditCodeRow, 'id' | 'brandId'>;

/** The writes of a brand's coded objects (coupons, credit codes: coded-writes.ts), one table each, codes unique per brand. */
export interface CodedWritesStore<Row, Fields> {
  /** The row, whatever its brand; in a unit of work it is the unit's own from then on (locked on PostgreSQL). */
  findToWrite(id: string): Promise<Row | undefined>;
  /** The brand's rows by code. */
  listOfBrand(brandId: string): Promise<Row[]>;
  /** The id of the brand's row with this (upper-case) code. */
  idByCode(brandId: string, upperCode: string): Promise<string | undefined>;
  insert(row: Fields & { id: string; brandId: string }): Promise<void>;
  /** Sets the fields given (undefined ones are left as they are). */
  update(id: string, fields: Partial<Fields>): Promise<void>;
}

export type CouponWritesStore = CodedWritesStore<CouponRow, CouponFields>;
export type CreditCodeWritesStore = CodedWritesStore<CreditCodeRow, CreditCodeFields>;

/** What a host write sets (host-writes.ts). */
export type HostFields = Omit<HostRow, 'id' | 'brandId' | 'phoneNumber'>;

export interface HostWritesStore {
  /** The host, whatever its brand; in a unit of work its row is the unit's own from then on (locked on PostgreSQL). */
  findHostToWrite(hostId: string): Promise<HostRow | undefined>;
  insertHost(row: HostFields & { id: string; brandId: string }): Promise<void>;
  /** Sets the fields given (undefined ones are left as they are). */
  updateHost(hostId: string, fields: Partial<HostFields>): Promise<void>;
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
   * Up to `limit` reviews of the experience ranked after `afterRank`, by rank (newest first), with the
   * experience and its review count; undefined when there is no such experience. Review pages are read
   * with every experience page (a hot path): a page that is not empty costs one statement.
   */
  findReviewsByRank(experienceId: string, afterRank: number, limit: number): Promise<ReviewPageRead | undefined>;
  /**
   * Up to `limit` reviews of the experience after `after` in newest-first order (the order of the ranks),
   * from the newest when it is null, with the experience and its review count as `findReviewsByRank`
   * reads them: those whose (`reviewedAt`, `id`) is below the key's, compared as text, stored instants in
   * their canonical ISO 8601 form. So a key of another shape (no milliseconds, an offset, no real date) is
   * compared as its text, never refused.
   */
  findReviewsAfterKey(experienceId: string, after: ReviewKey | null, limit: number): Promise<ReviewPageRead | undefined>;
  /** The reviews with these ids (unknown ones left out), in no particular order: one statement. */
  findReviewsByIds(ids: readonly string[]): Promise<ReviewOfExperienceRow[]>;
}

/** An experience as the API writes it: its row and every part written with it, replaced whole. */
export interface ExperienceWrite {
  row: Omit<ExperienceRow, 'version' | 'archivedAt'>;
  /** Its translations, one per locale. */
  translations: Array<Omit<ExperienceTranslationRow, 'experienceId'>>;
  /** Its vibes, in order. */
  vibeIds: string[];
  /** Its media: the cover, then the pictures in order; each media row's alt text is set as given. */
  media: Array<{ mediaId: string; role: MediaRole; altText: string | null }>;
  priceTiers: Array<{ id: string; name: string; priceMinor: number }>;
  taxes: Array<{ id: string; name: string; rateBasisPoints: number }>;
  /** Rows of the brand it refers to that do not exist yet, inserted first. */
  newCategories: Array<{ id: string; brandId: string; name: string }>;
  newVibes: Array<{ id: string; brandId: string; name: string }>;
  newMedia: MediaRow[];
  /** Its add-ons, in order (ids kept from the document, new ones generated). */
  addOns: Array<{ id: string; name: string; priceMinor: number }>;
  /** Its custom questions (definitions and assignments); null leaves them as they are. */
  questions: QuestionsWrite | null;
}

/** Writes of experiences (the catalogue API); the same SQL on both engines (src/db/catalog-writes). */
export interface ExperienceWritesStore {
  /** Inserts the experience (version 1) with its parts and the new rows it refers to. */
  insertExperience(write: ExperienceWrite): Promise<void>;
  /**
   * Replaces the experience and its parts when its version is still `expectedVersion`: its new version,
   * or null (nothing written) when it is not. Atomic against concurrent writers of the same experience.
   */
  replaceExperience(write: ExperienceWrite, expectedVersion: number): Promise<number | null>;
  /** Archives it at `at` (null: sold again) when its version is still `expectedVersion`: its new version, or null. */
  archiveExperience(id: string, at: string | null, expectedVersion: number): Promise<number | null>;
  /** The id of the brand's experience with this slug, if any. */
  experienceIdBySlug(brandId: string, slug: string): Promise<string | undefined>;
  /** The brand's categories, by name (byte order). */
  categoriesOfBrand(brandId: string): Promise<NamedRow[]>;
  /** The brand's vibes, by name (byte order). */
  vibesOfBrand(brandId: string): Promise<NamedRow[]>;
  /** The brand's media rows with these ids (others left out), in no particular order. */
  mediaOfBrand(brandId: string, ids: readonly string[]): Promise<MediaRow[]>;
  /** The brand's question definitions with these ids (others left out), each with the experiences it is assigned to. */
  questionsOfBrand(brandId: string, ids: readonly string[]): Promise<BrandQuestion[]>;
  /** The add-ons of these experiences, by experience id, then position. */
  addOnsOf(experienceIds: readonly string[]): Promise<Array<{ id: string; experienceId: string; name: string; priceMinor: number }>>;
  /** Every question assignment of the experience, active or not, in no particular order. */
  questionAssignments(experienceId: string): Promise<ExperienceQuestionRow[]>;
  /**
   * What the brand's catalogue export holds: the ids of all its experiences (archived ones too) and
   * listings, by id (byte order), and of its experiences' sessions not cancelled that start after `after`
   * (an ISO instant), by experience then local start.
   */
  catalogIdsOfBrand(brandId: string, after: string): Promise<{ experienceIds: string[]; listingIds: string[]; sessionIds: string[] }>;
}

/** The listing fields written with the listing itself (every field but the versioned content). */
export type ListingFields = Omit<ListingRow, 'id' | 'brandId' | 'experienceId'>;

/** A listing's content of one version, as written (the id is the caller's for a new one). */
export type ListingContentFields = Omit<ListingContentRow, 'listingId' | 'version'>;

/** Tables whose rows belong to one brand, for checking that ids sent in a body are the brand's own. */
export type BrandOwnedTable = 'categories' | 'hosts' | 'vibes' | 'experiences';

export interface ListingWritesStore {
  /**
   * The listing with both its content versions (draft first; no translations), media, vibes, categories,
   * hosts and review stats, as `findFeaturedListingPage` reads each; undefined when there is none. In a
   * unit of work the listing is the unit's own from then on.
   */
  findListingToWrite(listingId: string): Promise<FeaturedListingPageRow | undefined>;
  /** The position after the brand's last listing in dashboard order (0 for its first). */
  nextDisplayOrder(brandId: string): Promise<number>;
  /** Those of `ids` that are rows of `table` belonging to the brand, in no particular order. */
  idsOfBrand(table: BrandOwnedTable, brandId: string, ids: readonly string[]): Promise<string[]>;
  /** A new listing with its draft content (no published one yet) and its vibes in the order given. */
  insertListing(listing: ListingRow, draft: ListingContentFields, vibeIds: readonly string[]): Promise<void>;
  /** Sets the fields given (undefined ones are left as they are). */
  updateListing(listingId: string, fields: Partial<ListingFields>): Promise<void>;
  /**
   * Writes the listing's draft content: the draft it has, else a new draft (with `draft.id`) carrying
   * the translations of content `translationsOf` (its published one), so publishing keeps them.
   */
  saveDraft(listingId: string, draft: ListingContentFields, translationsOf: string | null): Promise<void>;
  /** The listing's vibes become `vibeIds`, in that order. */
  replaceListingVibes(listingId: string, vibeIds: readonly string[]): Promise<void>;
  /**
   * The draft becomes the published content, replacing the published one and its translations, in one
   * step of the unit (readers see the old published content or the new one, never neither). False, and
   * nothing changed, when the listing has no draft.
   */
  publishDraft(listingId: string): Promise<boolean>;
}

/** Brand settings a brand may change itself. */
export type BrandSettingsFields = Partial<
  Pick<
    BrandRow,
    | 'name'
    | 'brandEmail'
    | 'countryCode'
    | 'designElement'
    | 'templateElement'
    | 'promotionExclusiveTag'
    | 'customStyle'
    | 'validateRoomCharge'
    | 'validateMemberCharge'
    | 'products'
    | 'paymentMethods'
    | 'cancellationPolicyId'
    | 'reschedulePolicyId'
  >
>;

export interface BrandWritesStore {
  /** The brand, as `findBrand` reads it; in a unit of work the brand's row is the unit's own from then on. */
  findBrandToWrite(brandId: string): Promise<BrandRow | undefined>;
  /** Sets the fields given (undefined ones are left as they are). */
  updateBrand(brandId: string, fields: BrandSettingsFields): Promise<void>;
  /** Whether a cancellation (or reschedule) policy with this id belongs to the brand. */
  hasPolicy(kind: 'cancellation' | 'reschedule', brandId: string, policyId: string): Promise<boolean>;
}
