/**
 * A listing body (`GET /v3/listings/featured`'s Listing, less its `id`, plus `isFeatured`) read into what
 * the store writes: pure rules, each refusal naming its field. Content fields (title, summary, slug,
 * prices, hidePrice, pricePerType, maxParticipants) are versioned: they go to the draft and guests see them
 * once it is published. Every other field is the listing's own and applies at once.
 */
import { fromDecimal } from '../shared/money.ts';
import { invalid } from '../shared/errors.ts';
import { bookingAvailabilityModes, listingKinds, productLines } from '../shared/values.ts';
import type { ListingContentFields, ListingFields } from './store.ts';
import { isObject, type JsonObject } from './write-shape.ts';

/** What a listing body asks for, checked for shape; ids of the brand's rows still to be checked against the store. */
export interface ListingInput {
  fields: ListingFields;
  content: Omit<ListingContentFields, 'id'>;
  vibeIds: string[];
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function text(body: JsonObject, field: string, max: number, { required = false } = {}): string {
  const value = body[field];
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  if (value.length > max) throw invalid(field, `${field} must be at most ${max} characters`);
  if (required && value.trim() === '') throw invalid(field, `${field} must not be empty`);
  return value;
}

function flag(body: JsonObject, field: string): boolean {
  if (typeof body[field] !== 'boolean') throw invalid(field, `${field} must be true or false`);
  return body[field] as boolean;
}

function oneOf<T extends string>(body: JsonObject, field: string, values: readonly T[]): T {
  const value = body[field];
  if (typeof value !== 'string' || !values.includes(value as T)) throw invalid(field, `${field} must be one of ${values.join(', ')}`);
  return value as T;
}

function integer(body: JsonObject, field: string, min: number, max: number): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `${field} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function optional<T>(body: JsonObject, field: string, read: (body: JsonObject, field: string) => T): T | null {
  return body[field] === undefined || body[field] === null ? null : read(body, field);
}

/** `{ "id": ... }` of a category or host (the rest of the object is derived from the id and ignored). */
function reference(body: JsonObject, field: string): string {
  const value = body[field];
  if (!isObject(value) || typeof value.id !== 'string' || value.id === '')
    throw invalid(`${field}.id`, `${field} must be null or an object with an id`);
  return value.id;
}

function vibeIdsOf(body: JsonObject): string[] {
  const value = body.vibes ?? [];
  if (!Array.isArray(value)) throw invalid('vibes', 'vibes must be an array of { "id": ... }');
  if (value.length > 20) throw invalid('vibes', 'vibes must list at most 20 vibes');
  const ids = value.map((vibe, index) => reference({ [index]: vibe }, String(index)));
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index) throw invalid(`vibes.${index}.id`, `vibes.${index} names vibe ${id} again`);
  });
  return ids;
}

function eventDatesOf(body: JsonObject, kind: ListingFields['kind']): { eventStartDate: string | null; eventEndDate: string | null } {
  const value = body.eventDates;
  if (value === undefined || value === null) return { eventStartDate: null, eventEndDate: null };
  if (kind !== 'event') throw invalid('eventDates', 'eventDates are for listings of kind event only');
  if (!isObject(value)) throw invalid('eventDates', 'eventDates must be null or { "startDate", "endDate" }');
  for (const key of ['startDate', 'endDate'] as const) {
    const date = value[key];
    if (typeof date !== 'string' || !datePattern.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
      throw invalid(`eventDates.${key}`, `eventDates.${key} must be a date (YYYY-MM-DD)`);
    }
  }
  if ((value.endDate as string) < (value.startDate as string))
    throw invalid('eventDates.endDate', 'eventDates.endDate is before its startDate');
  return { eventStartDate: value.startDate as string, eventEndDate: value.endDate as string };
}

/**
 * Reads a whole listing body (defaults already merged in). `categoryId`/`hostId` null mean the
 * experience's. Amounts are decimal in `currency` (negative or finer than its minor unit: refused).
 */
export function readListingBody(body: JsonObject, currency: string): ListingInput {
  const kind = oneOf(body, 'kind', listingKinds);
  const resourceGroupCollectionId = text(body, 'resourceGroupCollectionId', 36);
  if (!uuidPattern.test(resourceGroupCollectionId)) throw invalid('resourceGroupCollectionId', 'resourceGroupCollectionId must be a UUID');
  const slug = optional(body, 'slug', (b, f) => text(b, f, 100));
  if (slug !== null && !slugPattern.test(slug))
    throw invalid('slug', 'slug must be lower-case letters and digits separated by single hyphens');
  const price = (field: string) => {
    if (typeof body[field] !== 'number') throw invalid(field, `${field} must be a number (in ${currency})`);
    return fromDecimal(body[field] as number, currency, field);
  };
  return {
    fields: {
      kind,
      productLine: oneOf(body, 'productLine', productLines),
      resourceGroupCollectionId: resourceGroupCollectionId.toLowerCase(),
      isFeatured: flag(body, 'isFeatured'),
      isUnlisted: flag(body, 'isUnlisted'),
      isExclusive: flag(body, 'isExclusive'),
      displayOrder: integer(body, 'order', 0, 1_000_000),
      bookingAvailabilityMode: optional(body, 'bookingAvailabilityMode', (b, f) => oneOf(b, f, bookingAvailabilityModes)),
      categoryId: optional(body, 'category', reference),
      hostId: optional(body, 'hostedBy', reference),
      pointsEligible: optional(body, 'pointsEligible', flag),
      ...eventDatesOf(body, kind),
    },
    content: {
      title: text(body, 'title', 200, { required: true }),
      summary: text(body, 'summary', 2000),
      slug,
      advertisedPriceMinor: price('advertisedPrice'),
      startingPriceMinor: price('startingPrice'),
      hidePrice: flag(body, 'hidePrice'),
      pricePerType: text(body, 'pricePerType', 50),
      maxParticipants: integer(body, 'maxParticipants', 1, 10_000),
    },
    vibeIds: vibeIdsOf(body),
  };
}
