/**
 * Tables of the booking domain. Columns are snake_case in SQL and camelCase in TypeScript.
 * Money columns end in `Minor` and hold integer minor units of the owning brand's currency.
 * JSON columns hold small value objects that are always read and written whole.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type {
  AnswerValueJson,
  DesignElement,
  ImageRef,
  IntegrationMeta,
  MediaRendition,
  PaymentMethodFlags,
  PricingBreakdown,
  QuestionCondition,
  QuestionOption,
  QuestionSnapshotJson,
  RefundEffectJson,
  TemplateElement,
  TermsAndConditions,
  WaitlistPerson,
} from '../../domain/shared/json-types.ts';
import {
  apiKeyKinds,
  bookingAvailabilityModes,
  bookingStatuses,
  cartStatuses,
  conditionsMatchTypes,
  contentVersions,
  idempotencyStates,
  listingKinds,
  mediaRoles,
  paymentIntentStatuses,
  paymentMethods,
  paymentPlatforms,
  productLines,
  questionFieldTypes,
  questionScopes,
  refundStatuses,
  serviceVersions,
  waitlistEntryStatuses,
  webhookDeliveryStatuses,
} from '../../domain/shared/values.ts';

const createdAt = () =>
  text('created_at')
    .notNull()
    .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);

export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const cancellationPolicies = sqliteTable('cancellation_policies', {
  id: text('id').primaryKey(),
  brandId: text('brand_id').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Hours before the session start up to which a full refund is given; null: never refundable. */
  fullRefundHoursBefore: integer('full_refund_hours_before'),
  /** Percentage refunded after that point (0..100). */
  lateRefundPercent: integer('late_refund_percent').notNull().default(0),
});

export const reschedulePolicies = sqliteTable('reschedule_policies', {
  id: text('id').primaryKey(),
  brandId: text('brand_id').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Hours before the session start up to which a guest may reschedule. */
  allowedHoursBefore: integer('allowed_hours_before').notNull(),
  maxReschedules: integer('max_reschedules').notNull(),
});

export const brands = sqliteTable('brands', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id').references(() => organizations.id),
  name: text('name').notNull(),
  brandEmail: text('brand_email').notNull(),
  countryCode: text('country_code').notNull(),
  /** ISO 4217 code; every amount of the brand is in it. */
  currency: text('currency').notNull(),
  /** Default content language (BCP 47), used when no translation matches. */
  language: text('language').notNull(),
  isLimited: integer('is_limited', { mode: 'boolean' }).notNull().default(false),
  designElement: text('design_element', { mode: 'json' }).$type<DesignElement>().notNull(),
  templateElement: text('template_element', { mode: 'json' }).$type<TemplateElement>().notNull(),
  featuresActive: text('features_active', { mode: 'json' }).$type<string[]>().notNull(),
  featuresUpdatedAt: text('features_updated_at').notNull(),
  hostsLimit: integer('hosts_limit').notNull(),
  promotionExclusiveTag: text('promotion_exclusive_tag').notNull(),
  customStyle: text('custom_style').notNull(),
  paymentPlatform: text('payment_platform', {
    enum: paymentPlatforms,
  }).notNull(),
  validateRoomCharge: integer('validate_room_charge', { mode: 'boolean' }).notNull().default(false),
  validateMemberCharge: integer('validate_member_charge', { mode: 'boolean' }).notNull().default(false),
  serviceVersion: text('service_version', { enum: serviceVersions }).notNull(),
  products: text('products', { mode: 'json' }).$type<Array<'activate' | 'host' | 'reserve'>>().notNull(),
  paymentMethods: text('payment_methods', { mode: 'json' }).$type<PaymentMethodFlags>().notNull(),
  cancellationPolicyId: text('cancellation_policy_id'),
  reschedulePolicyId: text('reschedule_policy_id'),
  createdAt: createdAt(),
});

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: apiKeyKinds }).notNull(),
    brandId: text('brand_id').references(() => brands.id),
    organizationId: text('organization_id').references(() => organizations.id),
    /** SHA-256 of the secret, hex. The secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    /** First characters of the secret, to tell keys apart in listings. */
    prefix: text('prefix').notNull(),
    label: text('label').notNull().default(''),
    createdAt: createdAt(),
    revokedAt: text('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash)],
);

/** Stored images and videos; shown as `medias`/`pictures` with one link per rendition. */
export const media = sqliteTable('media', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  type: text('type').notNull().default('image'),
  altText: text('alt_text'),
  renditions: text('renditions', { mode: 'json' }).$type<MediaRendition[]>().notNull(),
});

export const hosts = sqliteTable(
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
    profilePicture: text('profile_picture', { mode: 'json' }).$type<ImageRef>().notNull(),
    allowOverlappingBookings: integer('allow_overlapping_bookings', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [index('hosts_brand_idx').on(t.brandId)],
);

export const categories = sqliteTable('categories', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  name: text('name').notNull(),
});

export const vibes = sqliteTable('vibes', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  name: text('name').notNull(),
});

export const experiences = sqliteTable(
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
    providedItems: text('provided_items', { mode: 'json' }).$type<string[]>().notNull(),
    locationName: text('location_name').notNull(),
    longitude: text('longitude').notNull(),
    latitude: text('latitude').notNull(),
    /** IANA zone of the location; session times are local to it. */
    timezoneId: text('timezone_id').notNull(),
    locationAdditionalInfo: text('location_additional_info').notNull().default(''),
    maxParticipantsCount: integer('max_participants_count').notNull(),
    sessionDurationMinutes: integer('session_duration_minutes').notNull(),
    bookingAvailabilityMode: text('booking_availability_mode', {
      enum: bookingAvailabilityModes,
    }).notNull(),
    isExclusive: integer('is_exclusive', { mode: 'boolean' }).notNull().default(false),
    isBookable: integer('is_bookable', { mode: 'boolean' }).notNull().default(true),
    isUnlisted: integer('is_unlisted', { mode: 'boolean' }).notNull().default(false),
    type: text('type').notNull(),
    paymentMethods: text('payment_methods', { mode: 'json' }).$type<string[]>().notNull(),
    integrationMeta: text('integration_meta', { mode: 'json' }).$type<IntegrationMeta[]>().notNull(),
    externalFieldType: text('external_field_type'),
    externalFieldValue: text('external_field_value'),
    minimumRequiredToBook: integer('minimum_required_to_book'),
    maximumAllowedToBook: integer('maximum_allowed_to_book'),
    displayedCapacity: integer('displayed_capacity'),
    cancellationPolicyId: text('cancellation_policy_id'),
  },
  (t) => [uniqueIndex('experiences_brand_slug_idx').on(t.brandId, t.slug)],
);

export const experienceTranslations = sqliteTable(
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

export const experienceVibes = sqliteTable(
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
export const experienceMedia = sqliteTable(
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

export const priceTiers = sqliteTable(
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
export const taxes = sqliteTable('taxes', {
  id: text('id').primaryKey(),
  experienceId: text('experience_id')
    .notNull()
    .references(() => experiences.id),
  name: text('name').notNull(),
  rateBasisPoints: integer('rate_basis_points').notNull(),
  position: integer('position').notNull(),
});

/** Question definitions of a brand (`customQuestionId`). */
export const questions = sqliteTable('questions', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  prompt: text('prompt').notNull(),
  fieldType: text('field_type', {
    enum: questionFieldTypes,
  }).notNull(),
  options: text('options', { mode: 'json' }).$type<QuestionOption[]>(),
  termsAndConditions: text('terms_and_conditions', { mode: 'json' }).$type<TermsAndConditions>(),
});

/** A question assigned to an experience (`experienceQuestionId`). */
export const experienceQuestions = sqliteTable(
  'experience_questions',
  {
    id: text('id').primaryKey(),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    questionId: text('question_id')
      .notNull()
      .references(() => questions.id),
    isRequired: integer('is_required', { mode: 'boolean' }).notNull(),
    isActive: integer('is_active', { mode: 'boolean' }).notNull(),
    order: integer('order').notNull(),
    scope: text('scope', { enum: questionScopes }).notNull(),
    conditions: text('conditions', { mode: 'json' }).$type<QuestionCondition[]>(),
    conditionsMatchType: text('conditions_match_type', { enum: conditionsMatchTypes }),
  },
  (t) => [index('experience_questions_experience_idx').on(t.experienceId, t.order)],
);

export const listings = sqliteTable(
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
    isFeatured: integer('is_featured', { mode: 'boolean' }).notNull().default(true),
    isUnlisted: integer('is_unlisted', { mode: 'boolean' }).notNull().default(false),
    isExclusive: integer('is_exclusive', { mode: 'boolean' }).notNull().default(false),
    /** Position in the dashboard order (ascending). */
    displayOrder: integer('display_order').notNull(),
    bookingAvailabilityMode: text('booking_availability_mode', { enum: bookingAvailabilityModes }),
    categoryId: text('category_id').references(() => categories.id),
    hostId: text('host_id').references(() => hosts.id),
    pointsEligible: integer('points_eligible', { mode: 'boolean' }),
    /** Event listings only: first and last local date (YYYY-MM-DD). */
    eventStartDate: text('event_start_date'),
    eventEndDate: text('event_end_date'),
  },
  (t) => [index('listings_brand_order_idx').on(t.brandId, t.isFeatured, t.isUnlisted, t.displayOrder)],
);

/**
 * The content of a listing. Each listing has a `published` version; a `draft` version, when present,
 * is what `version=latest` shows.
 */
export const listingContents = sqliteTable(
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
    hidePrice: integer('hide_price', { mode: 'boolean' }).notNull().default(false),
    pricePerType: text('price_per_type').notNull(),
    maxParticipants: integer('max_participants').notNull(),
  },
  (t) => [uniqueIndex('listing_contents_listing_version_idx').on(t.listingId, t.version)],
);

export const listingContentTranslations = sqliteTable(
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

export const listingMedia = sqliteTable(
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

export const listingVibes = sqliteTable(
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
export const reviewers = sqliteTable('reviewers', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  emailAddress: text('email_address').notNull(),
  phoneNumber: text('phone_number').notNull().default(''),
  profilePicture: text('profile_picture', { mode: 'json' }).$type<ImageRef>().notNull(),
});

export const reviews = sqliteTable(
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
    reviewedAt: text('reviewed_at').notNull(),
    experiencedDate: text('experienced_date').notNull(),
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

/* ---------------------------------------------------------------- availability and checkout */

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    /** Local start in the experience's zone, `YYYY-MM-DDTHH:MM:SS` (no offset). */
    startLocal: text('start_local').notNull(),
    /** The same instant in UTC, ISO 8601, for clocks and ordering across zones. */
    startsAt: text('starts_at').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    capacity: integer('capacity').notNull(),
    /**
     * Places taken by active participants of `processing` and `confirmed` bookings. Changed only in the
     * transactions that change those participants; the CHECK makes overselling impossible even for a bug.
     */
    reserved: integer('reserved').notNull().default(0),
    /** Places held for waitlist entries that were offered them; only those entries may take them. */
    heldForOffers: integer('held_for_offers').notNull().default(0),
  },
  (t) => [
    uniqueIndex('sessions_experience_start_idx').on(t.experienceId, t.startLocal),
    check(
      'sessions_reserved_within_capacity',
      sql`${t.reserved} >= 0 AND ${t.heldForOffers} >= 0 AND ${t.reserved} + ${t.heldForOffers} <= ${t.capacity}`,
    ),
  ],
);

/** One waitlist per experience; its entries name a session (see the waitlists issue). */
export const waitlists = sqliteTable('waitlists', {
  id: text('id').primaryKey(),
  experienceId: text('experience_id')
    .notNull()
    .unique()
    .references(() => experiences.id),
  createdAt: createdAt(),
});

/** Extras bookable with an experience (`listingAddOns: [{ addOnId, quantity }]`). */
export const addOns = sqliteTable('add_ons', {
  id: text('id').primaryKey(),
  experienceId: text('experience_id')
    .notNull()
    .references(() => experiences.id),
  name: text('name').notNull(),
  priceMinor: integer('price_minor').notNull(),
  position: integer('position').notNull(),
});

/** Brand coupons: either a percentage (basis points) or a fixed amount off an item. */
export const coupons = sqliteTable(
  'coupons',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    /** Upper-case; codes are matched case-insensitively. */
    code: text('code').notNull(),
    percentOffBasisPoints: integer('percent_off_basis_points'),
    amountOffMinor: integer('amount_off_minor'),
    validFrom: text('valid_from'),
    validUntil: text('valid_until'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
  },
  (t) => [
    uniqueIndex('coupons_brand_code_idx').on(t.brandId, t.code),
    check('coupons_one_kind', sql`(${t.percentOffBasisPoints} IS NULL) <> (${t.amountOffMinor} IS NULL)`),
  ],
);

/** Stored-value credit (gift cards, goodwill credit) redeemable with `appliedCreditCodes`. */
export const creditCodes = sqliteTable(
  'credit_codes',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    code: text('code').notNull(),
    balanceMinor: integer('balance_minor').notNull(),
  },
  (t) => [uniqueIndex('credit_codes_brand_code_idx').on(t.brandId, t.code), check('credit_codes_balance', sql`${t.balanceMinor} >= 0`)],
);

/** A cart: its id is generated by the client; checkout turns it into one booking per item. */
export const carts = sqliteTable(
  'carts',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    /** Shared by every booking of the cart (`cartConfirmationCode`). */
    confirmationCode: text('confirmation_code').notNull(),
    status: text('status', { enum: cartStatuses }).notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('carts_brand_code_idx').on(t.brandId, t.confirmationCode)],
);

/** A payment intent at the brand's processor. The client secret is stored only as a hash. */
export const paymentIntents = sqliteTable(
  'payment_intents',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    cartId: text('cart_id')
      .notNull()
      .references(() => carts.id),
    /** 1 for a cart's first checkout, then 2, 3...: the highest is the cart's current checkout. */
    attempt: integer('attempt').notNull(),
    processor: text('processor').notNull(),
    /** The processor's own id of the intent. */
    processorReference: text('processor_reference').notNull(),
    secretHash: text('secret_hash').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: paymentIntentStatuses }).notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('payment_intents_secret_idx').on(t.secretHash),
    uniqueIndex('payment_intents_processor_ref_idx').on(t.processor, t.processorReference),
    uniqueIndex('payment_intents_cart_attempt_idx').on(t.cartId, t.attempt),
  ],
);

/** One booking per cart item. `amountRefundedMinor` always equals the sum of its live refund ledger rows. */
export const bookings = sqliteTable(
  'bookings',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    cartId: text('cart_id').references(() => carts.id),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    /** The session's local start, copied so back-office date filters are one index range. */
    sessionStartLocal: text('session_start_local').notNull(),
    paymentIntentId: text('payment_intent_id').references(() => paymentIntents.id),
    confirmationCode: text('confirmation_code').notNull(),
    cartConfirmationCode: text('cart_confirmation_code'),
    /** Position of the item in its cart (0-based), so a cart lists its bookings in item order. */
    cartPosition: integer('cart_position').notNull().default(0),
    status: text('status', { enum: bookingStatuses }).notNull(),
    currency: text('currency').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    amountRefundedMinor: integer('amount_refunded_minor').notNull().default(0),
    /** How the amount was reached (tiers, add-ons, discounts, taxes), in minor units. */
    pricing: text('pricing', { mode: 'json' }).$type<PricingBreakdown>().notNull(),
    paymentMethod: text('payment_method', { enum: paymentMethods }).notNull(),
    purchaserId: text('purchaser_id').notNull(),
    purchaserFirstName: text('purchaser_first_name').notNull(),
    purchaserLastName: text('purchaser_last_name').notNull(),
    purchaserEmail: text('purchaser_email'),
    purchaserPhone: text('purchaser_phone'),
    notes: text('notes'),
    internalNotes: text('internal_notes'),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** While `processing`: when the hold lapses and the booking fails. */
    holdExpiresAt: text('hold_expires_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('bookings_brand_code_idx').on(t.brandId, t.confirmationCode),
    index('bookings_cart_idx').on(t.cartId),
    // A payment's bookings are found by their intent, on every processor event.
    index('bookings_payment_intent_idx').on(t.paymentIntentId),
    index('bookings_brand_created_idx').on(t.brandId, t.createdAt, t.id),
    index('bookings_brand_session_start_idx').on(t.brandId, t.sessionStartLocal),
    index('bookings_hold_idx').on(t.status, t.holdExpiresAt),
    check('bookings_refund_within_amount', sql`${t.amountRefundedMinor} >= 0 AND ${t.amountRefundedMinor} <= ${t.amountMinor}`),
  ],
);

export const participants = sqliteTable(
  'participants',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    position: integer('position').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    emailAddress: text('email_address'),
    phoneNumber: text('phone_number'),
    priceTierName: text('price_tier_name').notNull(),
    priceMinor: integer('price_minor').notNull(),
    cancelledAt: text('cancelled_at'),
  },
  (t) => [index('participants_booking_idx').on(t.bookingId, t.position)],
);

/** Recorded answers to custom questions, each with the question as it was when answered. */
export const answers = sqliteTable(
  'answers',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    /** Null for purchaser-scoped answers. */
    participantId: text('participant_id').references(() => participants.id),
    question: text('question', { mode: 'json' }).$type<QuestionSnapshotJson>().notNull(),
    answer: text('answer', { mode: 'json' }).$type<AnswerValueJson[]>().notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('answers_booking_idx').on(t.bookingId)],
);

/** Credit taken from a credit code by a booking; given back if the booking never gets paid. */
export const creditRedemptions = sqliteTable('credit_redemptions', {
  id: text('id').primaryKey(),
  bookingId: text('booking_id')
    .notNull()
    .references(() => bookings.id),
  creditCodeId: text('credit_code_id')
    .notNull()
    .references(() => creditCodes.id),
  amountMinor: integer('amount_minor').notNull(),
});

/**
 * The refund ledger. A refund is `pending` from the moment its amount is reserved on the booking until
 * the processor answers; a `failed` one gives the amount back.
 */
export const refunds = sqliteTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    amountMinor: integer('amount_minor').notNull(),
    status: text('status', { enum: refundStatuses }).notNull(),
    processorReference: text('processor_reference'),
    /** What settling the refund does besides the ledger (cancellations, the asker's bookkeeping). */
    effect: text('effect', { mode: 'json' })
      .$type<RefundEffectJson>()
      .notNull()
      .default(sql`'{"cancel":false,"participantIds":null,"also":null}'`),
    /** Processor calls made for it so far, whatever their outcome. */
    attempts: integer('attempts').notNull().default(0),
    /**
     * When the reconciler may next ask the processor about a `pending` refund (it also waits for a grace
     * period after `created_at`); moved forward as a lease while it asks. Null once settled.
     */
    nextAttemptAt: text('next_attempt_at'),
    /** Why the last processor call gave no answer. */
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('refunds_booking_idx').on(t.bookingId),
    index('refunds_due_idx').on(t.status, t.nextAttemptAt),
    check('refunds_positive', sql`${t.amountMinor} > 0`),
  ],
);

/** Stored answers of POST requests sent with an `Idempotency-Key`, per API key, kept 24 hours. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    apiKeyId: text('api_key_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: idempotencyStates }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    /**
     * While `running`: until when the request that claimed it is presumed alive. A retry finding the
     * lease ended (its request was cut off by a crash) takes the record over and runs again.
     */
    leaseExpiresAt: text('lease_expires_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/* ---------------------------------------------------------------- waitlists and events */

/** A party waiting for places on one sold-out session. Live entries are `waiting` and `offered`. */
export const waitlistEntries = sqliteTable(
  'waitlist_entries',
  {
    id: text('id').primaryKey(),
    waitlistId: text('waitlist_id')
      .notNull()
      .references(() => waitlists.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    status: text('status', { enum: waitlistEntryStatuses }).notNull(),
    /** First come, first served: 1, 2, 3... per session, in joining order. */
    position: integer('position').notNull(),
    partySize: integer('party_size').notNull(),
    purchaser: text('purchaser', { mode: 'json' }).$type<WaitlistPerson>().notNull(),
    /** Lower-cased purchaser email: one live entry per email and session. */
    purchaserEmailKey: text('purchaser_email_key').notNull(),
    participants: text('participants', { mode: 'json' }).$type<WaitlistPerson[]>().notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    offeredAt: text('offered_at'),
    /** While `offered`: when the held places go to the next entry. */
    offerExpiresAt: text('offer_expires_at'),
    convertedBookingId: text('converted_booking_id').references(() => bookings.id),
  },
  (t) => [
    uniqueIndex('waitlist_entries_session_position_idx').on(t.sessionId, t.position),
    uniqueIndex('waitlist_entries_live_email_idx')
      .on(t.sessionId, t.purchaserEmailKey)
      .where(sql`status IN ('waiting', 'offered')`),
    index('waitlist_entries_waitlist_idx').on(t.waitlistId, t.position),
    index('waitlist_entries_offer_expiry_idx').on(t.status, t.offerExpiresAt),
  ],
);

/**
 * The transactional outbox: every state change writes its event in the same transaction. `sequence`
 * orders events and pages the events query.
 */
export const events = sqliteTable(
  'events',
  {
    sequence: integer('sequence').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    type: text('type').notNull(),
    /** The booking or waitlist entry the event is about; deliveries keep its events in order. */
    resourceId: text('resource_id').notNull(),
    /** The resource as the API shows it, when the event happened. */
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('events_brand_sequence_idx').on(t.brandId, t.sequence)],
);

export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    url: text('url').notNull(),
    /** Event types delivered to this endpoint. */
    eventTypes: text('event_types', { mode: 'json' }).$type<string[]>().notNull(),
    /** The signing secret, encrypted (AES-256-GCM) with the server's key: it must be readable to sign. */
    secretCiphertext: text('secret_ciphertext').notNull(),
    createdAt: text('created_at').notNull(),
    /** Deleted endpoints keep their delivery log and receive nothing more. */
    deletedAt: text('deleted_at'),
  },
  (t) => [index('webhook_endpoints_brand_idx').on(t.brandId)],
);

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    eventSequence: integer('event_sequence')
      .notNull()
      .references(() => events.sequence),
    /** Copied from the event: an endpoint gets one resource's events strictly in order. */
    resourceId: text('resource_id').notNull(),
    status: text('status', { enum: webhookDeliveryStatuses }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastAttemptAt: text('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    deliveredAt: text('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_order_idx').on(t.endpointId, t.resourceId, t.eventSequence),
  ],
);
