import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, json, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type {
  DesignElement,
  ImageRef,
  IntegrationMeta,
  MediaRendition,
  PaymentMethodFlags,
  TemplateElement,
} from '../../../domain/shared/json-types.ts';
import {
  bookingAvailabilityModes,
  contentVersions,
  listingKinds,
  mediaRoles,
  paymentPlatforms,
  productLines,
  serviceVersions,
} from '../../../domain/shared/values.ts';
import { createdAt, instant } from './columns.ts';

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const cancellationPolicies = pgTable('cancellation_policies', {
  id: text('id').primaryKey(),
  brandId: text('brand_id').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Hours before the session start up to which a full refund is given; null: never refundable. */
  fullRefundHoursBefore: integer('full_refund_hours_before'),
  /** Percentage refunded after that point (0..100). */
  lateRefundPercent: integer('late_refund_percent').notNull().default(0),
});

export const reschedulePolicies = pgTable('reschedule_policies', {
  id: text('id').primaryKey(),
  brandId: text('brand_id').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Hours before the session start up to which a guest may reschedule. */
  allowedHoursBefore: integer('allowed_hours_before').notNull(),
  maxReschedules: integer('max_reschedules').notNull(),
});

export const brands = pgTable(
  'brands',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').references(() => organizations.id),
    name: text('name').notNull(),
    brandEmail: text('brand_email').notNull(),
    countryCode: text('country_code').notNull(),
    /** ISO 4217 code; every amount of the brand is in it. */
    currency: text('currency').notNull(),
    /** Default content language (BCP 47), used when no translation matches. */
    language: text('language').notNull(),
    /**
     * The locale answers are in when the caller asks for none (the spec's "brand's language"): its
     * translation where content has one, else the content's own `language`. Null: `language`.
     */
    defaultLocale: text('default_locale'),
    isLimited: boolean('is_limited').notNull().default(false),
    designElement: json('design_element').$type<DesignElement>().notNull(),
    templateElement: json('template_element').$type<TemplateElement>().notNull(),
    featuresActive: json('features_active').$type<string[]>().notNull(),
    featuresUpdatedAt: instant('features_updated_at').notNull(),
    hostsLimit: integer('hosts_limit').notNull(),
    promotionExclusiveTag: text('promotion_exclusive_tag').notNull(),
    customStyle: text('custom_style').notNull(),
    paymentPlatform: text('payment_platform', { enum: paymentPlatforms }).notNull(),
    validateRoomCharge: boolean('validate_room_charge').notNull().default(false),
    validateMemberCharge: boolean('validate_member_charge').notNull().default(false),
    /** The brand's own account at the payment processor (a Stripe connected account, `acct_...`); null: the platform's. */
    processorAccount: text('processor_account'),
    serviceVersion: text('service_version', { enum: serviceVersions }).notNull(),
    products: json('products').$type<Array<'activate' | 'host' | 'reserve'>>().notNull(),
    paymentMethods: json('payment_methods').$type<PaymentMethodFlags>().notNull(),
    cancellationPolicyId: text('cancellation_policy_id'),
    reschedulePolicyId: text('reschedule_policy_id'),
    /**
     * The share of each session's capacity, in percent (0..100), that unpaid holds made with publishable keys
     * may take; the rest is sold only by checkouts that pay at once or through secret keys.
     */
    publishableHoldSharePercent: integer('publishable_hold_share_percent').notNull().default(50),
    createdAt: createdAt(),
  },
  (t) => [check('brands_publishable_hold_share_percent', sql`${t.publishableHoldSharePercent} BETWEEN 0 AND 100`)],
);

/** Stored images and videos; shown as `medias`/`pictures` with one link per rendition. */
export const media = pgTable('media', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  type: text('type').notNull().default('image'),
  altText: text('alt_text'),
  renditions: json('renditions').$type<MediaRendition[]>().notNull(),
});

export const hosts = pgTable(
  'hosts',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    emailAddress: text('email_address').notNull(),
    phoneNumber: text('phone_number').notNull().default(''),
    description: text('description').notNull(),
    profilePicture: json('profile_picture').$type<ImageRef>().notNull(),
    allowOverlappingBookings: boolean('allow_overlapping_bookings').notNull().default(false),
  },
  (t) => [index('hosts_brand_idx').on(t.brandId)],
);

export const categories = pgTable('categories', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  name: text('name').notNull(),
});

export const vibes = pgTable('vibes', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  name: text('name').notNull(),
});

export const experiences = pgTable(
  'experiences',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    hostId: text('host_id')
      .notNull()
      .references(() => hosts.id),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    headline: text('headline').notNull(),
    description: text('description').notNull(),
    healthAndSafety: text('health_and_safety').notNull(),
    providedItems: json('provided_items').$type<string[]>().notNull(),
    locationName: text('location_name').notNull(),
    longitude: text('longitude').notNull(),
    latitude: text('latitude').notNull(),
    /** IANA zone of the location; session times are local to it. */
    timezoneId: text('timezone_id').notNull(),
    locationAdditionalInfo: text('location_additional_info').notNull().default(''),
    maxParticipantsCount: integer('max_participants_count').notNull(),
    sessionDurationMinutes: integer('session_duration_minutes').notNull(),
    bookingAvailabilityMode: text('booking_availability_mode', { enum: bookingAvailabilityModes }).notNull(),
    isExclusive: boolean('is_exclusive').notNull().default(false),
    isBookable: boolean('is_bookable').notNull().default(true),
    isUnlisted: boolean('is_unlisted').notNull().default(false),
    type: text('type').notNull(),
    paymentMethods: json('payment_methods').$type<string[]>().notNull(),
    integrationMeta: json('integration_meta').$type<IntegrationMeta[]>().notNull(),
    externalFieldType: text('external_field_type'),
    externalFieldValue: text('external_field_value'),
    minimumRequiredToBook: integer('minimum_required_to_book'),
    maximumAllowedToBook: integer('maximum_allowed_to_book'),
    displayedCapacity: integer('displayed_capacity'),
    cancellationPolicyId: text('cancellation_policy_id'),
    /** Grows by one with every write through the API: the experience's ETag. */
    version: integer('version').notNull().default(1),
    /** When it was archived (no new sales); null while it is sold. */
    archivedAt: instant('archived_at'),
  },
  (t) => [uniqueIndex('experiences_brand_slug_idx').on(t.brandId, t.slug)],
);

export const experienceTranslations = pgTable(
  'experience_translations',
  {
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    headline: text('headline').notNull(),
    description: text('description').notNull(),
    healthAndSafety: text('health_and_safety').notNull(),
  },
  (t) => [primaryKey({ columns: [t.experienceId, t.locale] })],
);

export const experienceVibes = pgTable(
  'experience_vibes',
  {
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    vibeId: text('vibe_id')
      .notNull()
      .references(() => vibes.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.experienceId, t.vibeId] })],
);

/** Pictures of an experience; `role = 'cover'` is the cover picture (exactly one per experience). */
export const experienceMedia = pgTable(
  'experience_media',
  {
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    mediaId: text('media_id')
      .notNull()
      .references(() => media.id),
    role: text('role', { enum: mediaRoles }).notNull(),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.experienceId, t.mediaId] })],
);

export const priceTiers = pgTable(
  'price_tiers',
  {
    id: text('id').primaryKey(),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    name: text('name').notNull(),
    priceMinor: integer('price_minor').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [uniqueIndex('price_tiers_experience_name_idx').on(t.experienceId, t.name)],
);

/** A tax is a percentage of the net price, in basis points (2300 = 23 %). */
export const taxes = pgTable('taxes', {
  id: text('id').primaryKey(),
  experienceId: text('experience_id')
    .notNull()
    .references(() => experiences.id),
  name: text('name').notNull(),
  rateBasisPoints: integer('rate_basis_points').notNull(),
  position: integer('position').notNull(),
});

export const listings = pgTable(
  'listings',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    kind: text('kind', { enum: listingKinds }).notNull(),
    productLine: text('product_line', { enum: productLines }).notNull(),
    experienceId: text('experience_id').references(() => experiences.id),
    resourceGroupCollectionId: text('resource_group_collection_id').notNull(),
    isFeatured: boolean('is_featured').notNull().default(true),
    isUnlisted: boolean('is_unlisted').notNull().default(false),
    isExclusive: boolean('is_exclusive').notNull().default(false),
    /** Position in the dashboard order (ascending). */
    displayOrder: integer('display_order').notNull(),
    bookingAvailabilityMode: text('booking_availability_mode', { enum: bookingAvailabilityModes }),
    categoryId: text('category_id').references(() => categories.id),
    hostId: text('host_id').references(() => hosts.id),
    pointsEligible: boolean('points_eligible'),
    /** Event listings only: first and last local date (YYYY-MM-DD), text as they are no instants. */
    eventStartDate: text('event_start_date'),
    eventEndDate: text('event_end_date'),
  },
  (t) => [index('listings_brand_order_idx').on(t.brandId, t.isFeatured, t.isUnlisted, t.displayOrder)],
);

/**
 * The content of a listing. Each listing has a `published` version; a `draft` version, when present,
 * is what `version=latest` shows.
 */
export const listingContents = pgTable(
  'listing_contents',
  {
    id: text('id').primaryKey(),
    listingId: text('listing_id')
      .notNull()
      .references(() => listings.id),
    version: text('version', { enum: contentVersions }).notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    slug: text('slug'),
    advertisedPriceMinor: integer('advertised_price_minor').notNull(),
    startingPriceMinor: integer('starting_price_minor').notNull(),
    hidePrice: boolean('hide_price').notNull().default(false),
    pricePerType: text('price_per_type').notNull(),
    maxParticipants: integer('max_participants').notNull(),
  },
  (t) => [uniqueIndex('listing_contents_listing_version_idx').on(t.listingId, t.version)],
);

export const listingContentTranslations = pgTable(
  'listing_content_translations',
  {
    contentId: text('content_id')
      .notNull()
      .references(() => listingContents.id),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.locale] })],
);

export const listingMedia = pgTable(
  'listing_media',
  {
    listingId: text('listing_id')
      .notNull()
      .references(() => listings.id),
    mediaId: text('media_id')
      .notNull()
      .references(() => media.id),
    kind: text('kind').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.mediaId] })],
);

export const listingVibes = pgTable(
  'listing_vibes',
  {
    listingId: text('listing_id')
      .notNull()
      .references(() => listings.id),
    vibeId: text('vibe_id')
      .notNull()
      .references(() => vibes.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.vibeId] })],
);

/** People who wrote reviews (guests). */
export const reviewers = pgTable('reviewers', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  emailAddress: text('email_address').notNull(),
  phoneNumber: text('phone_number').notNull().default(''),
  profilePicture: json('profile_picture').$type<ImageRef>().notNull(),
});

export const reviews = pgTable(
  'reviews',
  {
    id: text('id').primaryKey(),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    reviewerId: text('reviewer_id')
      .notNull()
      .references(() => reviewers.id),
    /** Host who led the reviewed session. */
    hostId: text('host_id')
      .notNull()
      .references(() => hosts.id),
    rating: integer('rating').notNull(),
    recommendability: integer('recommendability').notNull(),
    text: text('text').notNull(),
    reviewedAt: instant('reviewed_at').notNull(),
    /** An instant despite its name: the API shows it as a DateTime and the data holds full UTC times. */
    experiencedDate: instant('experienced_date').notNull(),
    /**
     * Dense 1-based position in display order (newest first) within the experience, maintained by the
     * db layer whenever reviews are written, so any page is one indexed seek.
     */
    rank: integer('rank').notNull(),
  },
  (t) => [
    uniqueIndex('reviews_experience_rank_idx').on(t.experienceId, t.rank),
    index('reviews_experience_reviewed_idx').on(t.experienceId, t.reviewedAt, t.id),
  ],
);

/**
 * Each reviewed experience's review count and rating sums, kept with its reviews by the one path that
 * writes them (`insertReviews`, in the same transaction): an experience's ratings are one row read,
 * whatever its number of reviews (averaging 100,000 reviews took 42 ms a read on SQLite).
 */
export const reviewTotals = pgTable('review_totals', {
  experienceId: text('experience_id')
    .primaryKey()
    .references(() => experiences.id),
  reviews: integer('reviews').notNull(),
  ratingSum: integer('rating_sum').notNull(),
  recommendabilitySum: integer('recommendability_sum').notNull(),
});
