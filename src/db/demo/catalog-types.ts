/**
 * The declarative shape of one demo brand's catalog. The content files (lisbon.ts, tokyo.ts, kayak.ts)
 * describe it; catalog.ts and reviews.ts turn it into rows with derived, stable ids.
 */
import type { IntegrationMeta } from '../../domain/shared/json-types.ts';
import type { NewRow } from '../tables.ts';
import type { DemoBrandKey } from './ids.ts';

export interface HostSpec {
  key: string;
  firstName: string;
  lastName: string;
  emailAddress: string;
  phoneNumber: string;
  description: string;
  allowOverlappingBookings?: boolean;
}

/** A picture by slug: its files are <cdn>/<brand>/<slug>-original.jpg and -480w.jpg. */
export interface PictureSpec {
  slug: string;
  alt: string;
}

export interface ReviewPlan {
  count: number;
  /** Sentences about this experience in particular; the generator mixes them with generic ones. */
  details: string[];
}

type Mode = NonNullable<NewRow<'listings'>['bookingAvailabilityMode']>;

export interface ExperienceSpec {
  slug: string;
  title: string;
  headline: string;
  description: string;
  healthAndSafety: string;
  providedItems: string[];
  host: string;
  category: string;
  vibes: string[];
  location: { name: string; latitude: string; longitude: string; timezoneId: string; additionalInfo: string };
  maxParticipantsCount: number;
  sessionDurationMinutes: number;
  bookingAvailabilityMode: Mode;
  type: string;
  paymentMethods: string[];
  integrationMeta?: IntegrationMeta[];
  externalField?: { type: string; value: string };
  minimumRequiredToBook?: number;
  maximumAllowedToBook?: number;
  displayedCapacity?: number;
  isExclusive?: boolean;
  isBookable?: boolean;
  isUnlisted?: boolean;
  /** Key of one of the brand's cancellation policies, when the experience has its own. */
  cancellationPolicy?: string;
  /** [name, price in minor units], in display order. */
  priceTiers: Array<[string, number]>;
  /** [name, rate in basis points]. */
  taxes: Array<[string, number]>;
  /** The first picture is the cover. */
  pictures: PictureSpec[];
  translations?: Array<{ locale: string; title: string; headline: string; description: string; healthAndSafety: string }>;
  reviews?: ReviewPlan;
}

export interface ContentSpec {
  title: string;
  summary: string;
  slug: string | null;
  advertisedPriceMinor: number;
  startingPriceMinor: number;
  hidePrice?: boolean;
  pricePerType: string;
  maxParticipants: number;
  translations?: Array<{ locale: string; title: string; summary: string }>;
}

type ListingRow = NewRow<'listings'>;

export interface ListingSpec {
  slug: string;
  kind: ListingRow['kind'];
  productLine: ListingRow['productLine'];
  /** Slug of the experience the listing sells. */
  experience?: string;
  isFeatured: boolean;
  isUnlisted?: boolean;
  isExclusive?: boolean;
  displayOrder: number;
  bookingAvailabilityMode: Mode | null;
  category?: string;
  host?: string;
  pointsEligible?: boolean;
  /** Event listings: first and last local date. */
  eventDates?: [string, string];
  published: ContentSpec;
  /** Unpublished edits, shown with `version=latest`. */
  draft?: ContentSpec;
  /** Picture slugs (experience pictures or the catalog's extra pictures); the first is the cover. */
  medias: string[];
  vibes: string[];
}

export interface QuestionSpec {
  key: string;
  prompt: string;
  fieldType: NewRow<'questions'>['fieldType'];
  /** Option labels of select questions; their keys are derived. */
  options?: string[];
  terms?: { label: string; document: PictureSpec; isOverrided: boolean };
}

type AssignmentRow = NewRow<'experienceQuestions'>;

export interface AssignmentSpec {
  experience: string;
  question: string;
  isRequired: boolean;
  isActive: boolean;
  order: number;
  scope: AssignmentRow['scope'];
  /** Shown only when the parent select question's answer includes this option. */
  showWhen?: { question: string; option: string };
}

export interface BrandCatalog {
  brand: DemoBrandKey;
  brandId: string;
  hosts: HostSpec[];
  categories: string[];
  vibes: string[];
  /** Pictures used only by listings (e.g. resources without an experience). */
  extraPictures?: PictureSpec[];
  experiences: ExperienceSpec[];
  listings: ListingSpec[];
  questions?: QuestionSpec[];
  assignments?: AssignmentSpec[];
  /** Guests who write the reviews. */
  reviewers: { firstNames: string[]; lastNames: string[]; phone: (n: number) => string };
}
