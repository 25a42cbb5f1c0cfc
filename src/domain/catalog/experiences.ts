import type { ExperienceMediaRow, ExperienceRecord, ExperienceRow, NamedRow } from './store.ts';
import type { ImageRef, IntegrationMeta } from '../shared/json-types.ts';
import type { BrandRow } from './store.ts';
import { loadBrand } from './brands.ts';
import { hasFeature, offeredTiers, requireFeature } from './features.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { notFound } from '../shared/errors.ts';
import { toHost, type Host } from './hosts.ts';
import { acceptedPaymentMethods } from '../payments/methods.ts';
import type { PaymentMethod } from '../shared/values.ts';
import { brandLocale, pickTranslation } from '../shared/locale.ts';
import { toDecimal } from '../shared/money.ts';
import { ratingsByExperience, toRatings, type Ratings } from './ratings.ts';
import type { QuestionSnapshot } from '../questions/questions.ts';

/** The spec's Experience resource. Optional fields are absent (not null) when they have no value. */
export interface Experience {
  /** The brand the experience belongs to (not shown by the API: it decides what the brand's features allow). */
  brandId: string;
  id: string;
  title: string;
  slug: string;
  headline: string;
  description: string;
  /** The language of its text (title, headline, description, ...): the translation's locale, else the brand's content language. */
  contentLanguage: string;
  vibes: NamedRow[];
  category: NamedRow;
  location: { longitude: number; latitude: number; name: string; timezoneId: string; additionalInfo: string };
  maxParticipantsCount: number;
  sessionDurationMinutes: number;
  currency: string;
  coverPicture: ImageRef;
  pictures: ImageRef[];
  medias: ImageRef[];
  bookingAvailabilityMode: ExperienceRow['bookingAvailabilityMode'];
  providedItems: string[];
  healthAndSafety: string;
  isExclusive: boolean;
  isBookable: boolean;
  isUnlisted: boolean;
  type: string;
  hostedBy: Host;
  paymentMethods: PaymentMethod[];
  priceTiers: Array<{ name: string; price: number }>;
  /** `amount` is the tax rate in percent (2300 basis points -> 23). */
  taxes: Array<{ name: string; amount: number }>;
  integrationMeta: IntegrationMeta[];
  ratings?: Ratings;
  externalField?: { type: string; value: string };
  minimumRequiredToBook?: number;
  maximumAllowedToBook?: number;
  displayedCapacity?: number;
  cancellationPolicyId?: string;
  /** `archived`: no new sales (checkouts and holds refuse it); bookings already made stand. */
  status: 'active' | 'archived';
  /** Grows by one with every write (REST's ETag, GraphQL's `version`). */
  version: number;
  /** The active custom questions, in display order: shown by REST's GET and the write answers (GraphQL resolves its own); set by experience-writes.ts. */
  customQuestions?: QuestionSnapshot[];
  /** Its add-ons (`price` a decimal in the brand currency), in order: shown by REST's GET and the write answers; set by experience-writes.ts. */
  addOns?: Array<{ id: string; name: string; price: number }>;
}

/** Whether `row` may be read as an experience of `brand` (unlisted ones need the brand's feature). */
function ofBrand(brand: BrandRow, row: ExperienceRow): boolean {
  if (row.brandId !== brand.id) return false;
  if (row.isUnlisted) requireFeature(brand, 'unlistedExperience', `Experience ${row.id} is unlisted: reading it`);
  return true;
}

/** The experience row when the caller may act for `brandId` and the experience is that brand's. */
export async function loadExperienceOfBrand(
  deps: CallerDeps,
  brandId: string,
  experienceId: string,
): Promise<{ brand: BrandRow; row: ExperienceRow } | null> {
  const brand = await loadBrand(deps, brandId);
  const row = await deps.db.experiences.findExperienceRow(experienceId);
  return row && ofBrand(brand, row) ? { brand, row } : null;
}

/** Picture shape of the spec: rendition name (`original`, `480w`) -> URL. */
const toPicture = (media: ExperienceMediaRow): ImageRef => ({
  id: media.id,
  uri: Object.fromEntries(media.renditions.map((r) => [r.resolution, r.url])),
  ...(media.altText !== null ? { altText: media.altText } : {}),
});

/**
 * Basis points to percent: 650 -> 6.5, 2300 -> 23. A rate, not money; one correctly rounded division
 * gives the double nearest the exact two-decimal value, so it prints exactly.
 */
const basisPointsToPercent = (basisPoints: number) => basisPoints / 100;

/** Optional fields of the spec: present only when they hold a value. */
function optionalFields(row: ExperienceRow, ratings: Ratings | undefined): Partial<Experience> {
  const fields: Partial<Experience> = {};
  if (ratings) fields.ratings = ratings;
  if (row.externalFieldType !== null && row.externalFieldValue !== null) {
    fields.externalField = { type: row.externalFieldType, value: row.externalFieldValue };
  }
  if (row.minimumRequiredToBook !== null) fields.minimumRequiredToBook = row.minimumRequiredToBook;
  if (row.maximumAllowedToBook !== null) fields.maximumAllowedToBook = row.maximumAllowedToBook;
  if (row.displayedCapacity !== null) fields.displayedCapacity = row.displayedCapacity;
  if (row.cancellationPolicyId !== null) fields.cancellationPolicyId = row.cancellationPolicyId;
  return fields;
}

/** `ratings`: the experience's, read beforehand (several experiences' at once); read here when absent. */
export async function toExperience(
  deps: CallerDeps,
  brand: BrandRow,
  record: ExperienceRecord,
  language: string | undefined,
  ratingsRead?: Map<string, Ratings>,
): Promise<Experience> {
  const { row, media, category, host } = record;
  const translation = pickTranslation(record.translations, language ?? brandLocale(brand));
  const text = translation ?? row;
  const cover = media.find((m) => m.role === 'cover');
  // The schema promises exactly one cover per experience; without it the record is broken, not absent.
  if (!cover) throw new Error(`Experience ${row.id} has no cover picture`);
  if (!category || !host) throw new Error(`Experience ${row.id} references a missing category or host`);
  const ratings = hasFeature(brand, 'reviews') ? (ratingsRead ?? (await ratingsByExperience(deps, [row.id]))).get(row.id) : undefined;
  return {
    brandId: brand.id,
    id: row.id,
    title: text.title,
    slug: row.slug,
    headline: text.headline,
    description: text.description,
    contentLanguage: translation?.locale ?? brand.language,
    vibes: record.vibes,
    category,
    location: locationOf(row),
    maxParticipantsCount: row.maxParticipantsCount,
    sessionDurationMinutes: row.sessionDurationMinutes,
    currency: brand.currency,
    coverPicture: toPicture(cover),
    pictures: media.filter((m) => m.role === 'picture').map(toPicture),
    medias: media.map(toPicture),
    bookingAvailabilityMode: row.bookingAvailabilityMode,
    providedItems: row.providedItems,
    healthAndSafety: text.healthAndSafety,
    isExclusive: row.isExclusive,
    isBookable: row.isBookable,
    isUnlisted: row.isUnlisted,
    type: row.type,
    hostedBy: toHost(host, deps.principal),
    paymentMethods: acceptedPaymentMethods(brand, row, deps.principal.kind),
    priceTiers: offeredTiers(brand, record.priceTiers).map((t) => ({
      name: t.name,
      price: toDecimal(t.priceMinor, brand.currency),
    })),
    taxes: record.taxes.map((t) => ({
      name: t.name,
      amount: basisPointsToPercent(t.rateBasisPoints),
    })),
    integrationMeta: row.integrationMeta,
    ...optionalFields(row, ratings),
    status: row.archivedAt ? 'archived' : 'active',
    version: row.version,
  };
}

export interface ExperienceInput {
  /** The brand it must belong to; without it, its own brand (whose scope rules still apply). */
  brandId?: string | null;
  experienceId: string;
  /** BCP 47 tag for title, headline, description and health-and-safety text; base text when untranslated. */
  language?: string | null;
}

/** An experience of the brand (listed or not), or null when there is none with that id in the brand. */
export async function findExperience(deps: CallerDeps, input: ExperienceInput): Promise<Experience | null> {
  // A brand named is checked first: a key outside its scope learns nothing of the experience.
  const named = input.brandId ? await loadBrand(deps, input.brandId) : null;
  const found = await deps.db.experiences.findExperiencePage(input.experienceId);
  if (!found) return null;
  const { reviewStats, ...record } = found;
  const brand = named ?? (await loadBrand(deps, record.row.brandId));
  const ratings = new Map(reviewStats ? [[record.row.id, toRatings(reviewStats)]] : []);
  return ofBrand(brand, record.row) ? toExperience(deps, brand, record, input.language ?? undefined, ratings) : null;
}

/**
 * Several experiences at once, each as `findExperience` answers it (null, or the error it would throw):
 * their records, then their ratings, each read once for all of them (a router's batch of references, a
 * booking list's experiences).
 */
export async function findExperiences(deps: CallerDeps, inputs: readonly ExperienceInput[]): Promise<Array<Experience | null | Error>> {
  // Named brands first, as findExperience does: a key outside a brand's scope learns nothing of its experiences.
  const named = await Promise.all(
    inputs.map(async (input) => (input.brandId ? loadBrand(deps, input.brandId).catch((error: unknown) => error as Error) : null)),
  );
  const wanted = inputs.filter((_, i) => !(named[i] instanceof Error)).map((input) => input.experienceId);
  const records = new Map((await deps.db.experiences.findExperienceRecords([...new Set(wanted)])).map((r) => [r.row.id, r]));
  const ratings = records.size > 0 ? await ratingsByExperience(deps, [...records.keys()]) : new Map<string, Ratings>();
  return Promise.all(
    inputs.map(async (input, i) => {
      const brandNamed = named[i];
      if (brandNamed instanceof Error) return brandNamed;
      const record = records.get(input.experienceId);
      if (!record) return null;
      try {
        const brand = brandNamed ?? (await loadBrand(deps, record.row.brandId));
        return ofBrand(brand, record.row) ? await toExperience(deps, brand, record, input.language ?? undefined, ratings) : null;
      } catch (error) {
        return error as Error;
      }
    }),
  );
}

export async function getExperience(deps: CallerDeps, input: ExperienceInput): Promise<Experience> {
  const experience = await findExperience(deps, input);
  if (!experience) throw notFound('Experience', input.experienceId);
  return experience;
}

/** An experience's meeting place as both the API and the experience document show it. */
export function locationOf(row: ExperienceRow) {
  return {
    longitude: Number(row.longitude),
    latitude: Number(row.latitude),
    name: row.locationName,
    timezoneId: row.timezoneId,
    additionalInfo: row.locationAdditionalInfo,
  };
}
