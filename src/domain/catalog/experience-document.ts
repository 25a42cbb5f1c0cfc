/**
 * The experience as a client writes it: the document `GET /v1/brands/{brandId}/experiences/{id}` answers,
 * less what the server derives (`id`, `currency`, `medias`, `ratings`, `status`, `version`,
 * `contentLanguage`, renditions of known media), plus `translations` by locale. Read into the rows the
 * store writes, each mistake a VALIDATION_FAILED naming its field (`priceTiers.0.price`).
 */
import { randomUUID } from 'node:crypto';
import { IANAZone } from 'luxon';
import type { BrandRow, ExperienceRecord, ExperienceWrite, HostRow, MediaRow, NamedRow } from './store.ts';
import { invalid } from '../shared/errors.ts';
import { fromDecimal, toDecimal, toScaledInteger } from '../shared/money.ts';
import { bookingAvailabilityModes, paymentMethods } from '../shared/values.ts';
import { array, coordinate, flag, integer, knownLocale, object, oneOf, pictureUrl, text, type JsonObject } from './document-fields.ts';
import { locationOf } from './experiences.ts';
import { readCustomQuestions, type BrandQuestion } from './experience-questions.ts';
import { requireFeature } from './features.ts';
import type { ExperienceQuestionRow } from '../questions/store.ts';
import type { QuestionSnapshot } from '../questions/questions.ts';

/** What the document refers to, read before it is read: the brand's hosts, categories, vibes and the media it names. */
export interface DocumentContext {
  brand: BrandRow;
  hosts: HostRow[];
  categories: NamedRow[];
  vibes: NamedRow[];
  media: MediaRow[];
  /** Ids of the brand's cancellation policies named by the document. */
  cancellationPolicyIds: string[];
  /** The brand's question definitions the document names, the experience's assignments now, and whether the brand asks questions at all. */
  questions: { enabled: boolean; known: BrandQuestion[]; current: ExperienceQuestionRow[] };
  /** Ids of the experience's add-ons now (none for a new experience). */
  addOnIds: string[];
}

/** An add-on as the document shows it: `price` a decimal in the brand currency, as `priceTiers`. */
export interface AddOn {
  id: string;
  name: string;
  price: number;
}

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A category or vibe: `{ id }` of the brand's, or `{ name }` (the brand's of that name, else a new one). */
function named(value: unknown, field: string, known: NamedRow[], brandId: string, created: Array<NamedRow & { brandId: string }>): string {
  const item = object(value, field);
  if (item.id !== undefined && item.id !== null) {
    const found = known.find((k) => k.id === item.id);
    if (!found) throw invalid(`${field}.id`, `${field}.id is not one of the brand's`);
    return found.id;
  }
  const name = text(item.name, `${field}.name`, { min: 1, max: 100 }).trim();
  const existing = [...known, ...created].find((k) => k.name === name);
  if (existing) return existing.id;
  const id = randomUUID();
  created.push({ id, brandId, name });
  return id;
}

const mediaTypes: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};

/** A picture: `{ id }` of the brand's media (its renditions kept), or `{ uri: { original: url, ... } }` (new media); `altText` either way. */
function picture(
  value: unknown,
  field: string,
  context: DocumentContext,
  newMedia: MediaRow[],
): { mediaId: string; altText: string | null } {
  const item = object(value, field);
  const altText = item.altText === undefined || item.altText === null ? null : text(item.altText, `${field}.altText`, { max: 500 });
  if (typeof item.id === 'string') {
    const known = context.media.find((m) => m.id === item.id);
    if (!known) throw invalid(`${field}.id`, `${field}.id is not a picture of the brand`);
    return { mediaId: known.id, altText };
  }
  const uri = object(item.uri, `${field}.uri`);
  if (uri.original === undefined) throw invalid(`${field}.uri.original`, `${field}.uri.original is required: the picture's URL`);
  const renditions = Object.entries(uri).map(([resolution, url]) => {
    const at = pictureUrl(url, `${field}.uri.${resolution}`, { http: true });
    const extension = new URL(at).pathname.split('.').pop()?.toLowerCase() ?? '';
    return { resolution, url: at, type: mediaTypes[extension] ?? 'image/jpeg' };
  });
  const id = randomUUID();
  newMedia.push({ id, brandId: context.brand.id, type: 'image', altText, renditions });
  return { mediaId: id, altText };
}

function optionalInteger(value: unknown, field: string, min: number): number | null {
  return value === undefined || value === null ? null : integer(value, field, min);
}

function translations(value: unknown, field: string): ExperienceWrite['translations'] {
  if (value === undefined || value === null) return [];
  const byLocale = object(value, field);
  const seen = new Set<string>();
  return Object.entries(byLocale).map(([locale, entry]) => {
    const at = `${field}.${locale}`;
    const canonical = knownLocale(locale, at);
    if (seen.has(canonical.toLowerCase())) throw invalid(at, `${at} names a locale twice`);
    seen.add(canonical.toLowerCase());
    const t = object(entry, at);
    return {
      locale: canonical,
      title: text(t.title, `${at}.title`, { min: 1, max: 200 }),
      headline: text(t.headline, `${at}.headline`, { max: 500 }),
      description: text(t.description, `${at}.description`),
      healthAndSafety: text(t.healthAndSafety, `${at}.healthAndSafety`),
    };
  });
}

function priceTiers(value: unknown, currency: string): ExperienceWrite['priceTiers'] {
  const tiers = array(value, 'priceTiers');
  if (tiers.length === 0) throw invalid('priceTiers', 'priceTiers must list at least one tier');
  const names = new Set<string>();
  return tiers.map((entry, i) => {
    const tier = object(entry, `priceTiers.${i}`);
    const name = text(tier.name, `priceTiers.${i}.name`, { min: 1, max: 100 });
    if (names.has(name)) throw invalid(`priceTiers.${i}.name`, `priceTiers.${i}.name repeats "${name}"`);
    names.add(name);
    if (typeof tier.price !== 'number') throw invalid(`priceTiers.${i}.price`, `priceTiers.${i}.price must be a number`);
    return { id: randomUUID(), name, priceMinor: fromDecimal(tier.price, currency, `priceTiers.${i}.price`) };
  });
}

function addOns(value: unknown, currency: string, known: readonly string[]): ExperienceWrite['addOns'] {
  if (value === undefined || value === null) return [];
  const list = array(value, 'addOns');
  if (list.length > 100) throw invalid('addOns', 'addOns must list at most 100 add-ons');
  const names = new Set<string>();
  const ids = new Set<string>();
  return list.map((entry, i) => {
    const at = `addOns.${i}`;
    const item = object(entry, at);
    let id: string = randomUUID();
    if (item.id !== undefined && item.id !== null) {
      id = text(item.id, `${at}.id`, { min: 1, max: 100 });
      if (!known.includes(id)) throw invalid(`${at}.id`, `${at}.id is not an add-on of the experience (leave it out for a new one)`);
      if (ids.has(id)) throw invalid(`${at}.id`, `${at}.id repeats an add-on of the list`);
      ids.add(id);
    }
    const name = text(item.name, `${at}.name`, { min: 1, max: 100 });
    if (names.has(name)) throw invalid(`${at}.name`, `${at}.name repeats "${name}"`);
    names.add(name);
    if (typeof item.price !== 'number') throw invalid(`${at}.price`, `${at}.price must be a number`);
    return { id, name, priceMinor: fromDecimal(item.price, currency, `${at}.price`) };
  });
}

function taxes(value: unknown): ExperienceWrite['taxes'] {
  if (value === undefined || value === null) return [];
  return array(value, 'taxes').map((entry, i) => {
    const tax = object(entry, `taxes.${i}`);
    const field = `taxes.${i}.amount`;
    const basisPoints = typeof tax.amount === 'number' ? toScaledInteger(tax.amount, 2) : undefined;
    if (basisPoints === undefined || basisPoints > 10_000)
      throw invalid(field, `${field} must be a percentage from 0 to 100 with at most 2 decimals`);
    return { id: randomUUID(), name: text(tax.name, `taxes.${i}.name`, { min: 1, max: 100 }), rateBasisPoints: basisPoints };
  });
}

function integrationMeta(value: unknown): ExperienceWrite['row']['integrationMeta'] {
  if (value === undefined || value === null) return [];
  return array(value, 'integrationMeta').map((entry, i) => {
    const meta = object(entry, `integrationMeta.${i}`);
    return {
      type: text(meta.type, `integrationMeta.${i}.type`, { min: 1, max: 100 }),
      key: text(meta.key, `integrationMeta.${i}.key`, { min: 1, max: 100 }),
      value: object(meta.value, `integrationMeta.${i}.value`),
    };
  });
}

function location(
  value: unknown,
): Pick<ExperienceWrite['row'], 'longitude' | 'latitude' | 'locationName' | 'timezoneId' | 'locationAdditionalInfo'> {
  const at = object(value, 'location');
  const timezoneId = text(at.timezoneId, 'location.timezoneId', { min: 1, max: 64 });
  if (!IANAZone.isValidZone(timezoneId))
    throw invalid('location.timezoneId', `location.timezoneId: "${timezoneId}" is not an IANA time zone`);
  return {
    longitude: coordinate(at.longitude, 'location.longitude', 180),
    latitude: coordinate(at.latitude, 'location.latitude', 90),
    locationName: text(at.name, 'location.name', { min: 1, max: 200 }),
    timezoneId,
    locationAdditionalInfo:
      at.additionalInfo === undefined || at.additionalInfo === null ? '' : text(at.additionalInfo, 'location.additionalInfo'),
  };
}

/** Its questions; without the brand's `customQuestions` feature none may be sent and those it has stay as they are. */
function questionsOf(value: unknown, id: string, context: DocumentContext): ExperienceWrite['questions'] {
  const { enabled, known, current } = context.questions;
  if (!enabled) {
    if (Array.isArray(value) && value.length > 0)
      requireFeature(context.brand, 'customQuestions', 'Asking custom questions', 'customQuestions');
    return null;
  }
  return readCustomQuestions(value, { brandId: context.brand.id, experienceId: id, known, current });
}

/** The rows of `document` as experience `id` of the context's brand; VALIDATION_FAILED naming the first wrong field. */
export function readExperienceDocument(document: unknown, id: string, context: DocumentContext): ExperienceWrite {
  const doc = object(document, 'body');
  const { brand } = context;
  if (doc.status !== undefined && doc.status !== null && doc.status !== 'active' && doc.status !== 'archived') {
    throw invalid('status', 'status is read-only: archive with POST /v1/brands/{brandId}/experiences/{experienceId}/archive');
  }
  const slug = text(doc.slug, 'slug', { min: 1, max: 100 });
  if (!slugPattern.test(slug)) throw invalid('slug', 'slug must be lowercase letters and digits separated by single dashes');
  const host = object(doc.hostedBy, 'hostedBy');
  const hostRow = context.hosts.find((h) => h.id === host.id);
  if (!hostRow) throw invalid('hostedBy.id', "hostedBy.id is not one of the brand's hosts");
  const newCategories: ExperienceWrite['newCategories'] = [];
  const categoryId = named(doc.category, 'category', context.categories, brand.id, newCategories);
  const newVibes: ExperienceWrite['newVibes'] = [];
  const vibeIds = (doc.vibes === undefined || doc.vibes === null ? [] : array(doc.vibes, 'vibes')).map((v, i) =>
    named(v, `vibes.${i}`, context.vibes, brand.id, newVibes),
  );
  if (new Set(vibeIds).size !== vibeIds.length) throw invalid('vibes', 'vibes must not list a vibe twice');
  const newMedia: MediaRow[] = [];
  const cover = picture(doc.coverPicture, 'coverPicture', context, newMedia);
  const pictures = (doc.pictures === undefined || doc.pictures === null ? [] : array(doc.pictures, 'pictures')).map((p, i) =>
    picture(p, `pictures.${i}`, context, newMedia),
  );
  const mediaIds = [cover, ...pictures].map((m) => m.mediaId);
  if (new Set(mediaIds).size !== mediaIds.length) throw invalid('pictures', 'pictures must not repeat the cover or another picture');
  const methods =
    doc.paymentMethods === undefined || doc.paymentMethods === null ? ['credit-card'] : array(doc.paymentMethods, 'paymentMethods');
  const external = doc.externalField === undefined || doc.externalField === null ? null : object(doc.externalField, 'externalField');
  const policyId =
    doc.cancellationPolicyId === undefined || doc.cancellationPolicyId === null
      ? null
      : text(doc.cancellationPolicyId, 'cancellationPolicyId');
  if (policyId !== null && !context.cancellationPolicyIds.includes(policyId)) {
    throw invalid('cancellationPolicyId', "cancellationPolicyId is not one of the brand's cancellation policies");
  }
  return {
    row: {
      id,
      brandId: brand.id,
      hostId: hostRow.id,
      categoryId,
      slug,
      title: text(doc.title, 'title', { min: 1, max: 200 }),
      headline: text(doc.headline, 'headline', { max: 500 }),
      description: text(doc.description, 'description'),
      healthAndSafety: text(doc.healthAndSafety, 'healthAndSafety'),
      providedItems: (doc.providedItems === undefined || doc.providedItems === null ? [] : array(doc.providedItems, 'providedItems')).map(
        (item, i) => text(item, `providedItems.${i}`, { min: 1, max: 200 }),
      ),
      ...location(doc.location),
      maxParticipantsCount: integer(doc.maxParticipantsCount, 'maxParticipantsCount', 1, 10_000),
      sessionDurationMinutes: integer(doc.sessionDurationMinutes, 'sessionDurationMinutes', 1, 60 * 24 * 31),
      bookingAvailabilityMode: oneOf(doc.bookingAvailabilityMode, 'bookingAvailabilityMode', bookingAvailabilityModes),
      isExclusive: flag(doc.isExclusive, 'isExclusive', false),
      isBookable: flag(doc.isBookable, 'isBookable', true),
      isUnlisted: flag(doc.isUnlisted, 'isUnlisted', false),
      type: text(doc.type, 'type', { min: 1, max: 100 }),
      paymentMethods: methods.map((m, i) => oneOf(m, `paymentMethods.${i}`, paymentMethods)),
      integrationMeta: integrationMeta(doc.integrationMeta),
      externalFieldType: external ? text(external.type, 'externalField.type', { min: 1, max: 100 }) : null,
      externalFieldValue: external ? text(external.value, 'externalField.value', { max: 500 }) : null,
      minimumRequiredToBook: optionalInteger(doc.minimumRequiredToBook, 'minimumRequiredToBook', 1),
      maximumAllowedToBook: optionalInteger(doc.maximumAllowedToBook, 'maximumAllowedToBook', 1),
      displayedCapacity: optionalInteger(doc.displayedCapacity, 'displayedCapacity', 0),
      cancellationPolicyId: policyId,
    },
    translations: translations(doc.translations, 'translations'),
    vibeIds,
    media: [{ ...cover, role: 'cover' }, ...pictures.map((p) => ({ ...p, role: 'picture' as const }))],
    priceTiers: priceTiers(doc.priceTiers, brand.currency),
    taxes: taxes(doc.taxes),
    addOns: addOns(doc.addOns, brand.currency, context.addOnIds),
    newCategories,
    newVibes,
    newMedia,
    questions: questionsOf(doc.customQuestions, id, context),
  };
}

/** The document of a stored experience, in its base language with its translations by locale: what a merge patch applies to. */
export function experienceDocument(
  record: ExperienceRecord,
  brand: BrandRow,
  parts: { customQuestions: QuestionSnapshot[]; addOns: AddOn[] },
): JsonObject {
  const { row } = record;
  const toPicture = (m: ExperienceRecord['media'][number]) => ({
    id: m.id,
    uri: Object.fromEntries(m.renditions.map((r) => [r.resolution, r.url])),
    ...(m.altText !== null ? { altText: m.altText } : {}),
  });
  const cover = record.media.find((m) => m.role === 'cover');
  const document: Record<string, unknown> = {
    title: row.title,
    slug: row.slug,
    headline: row.headline,
    description: row.description,
    translations: Object.fromEntries(
      record.translations.map((t) => [
        t.locale,
        { title: t.title, headline: t.headline, description: t.description, healthAndSafety: t.healthAndSafety },
      ]),
    ),
    vibes: record.vibes.map((v) => ({ id: v.id, name: v.name })),
    category: record.category ? { id: record.category.id, name: record.category.name } : null,
    location: locationOf(row),
    maxParticipantsCount: row.maxParticipantsCount,
    sessionDurationMinutes: row.sessionDurationMinutes,
    coverPicture: cover ? toPicture(cover) : null,
    pictures: record.media.filter((m) => m.role === 'picture').map(toPicture),
    bookingAvailabilityMode: row.bookingAvailabilityMode,
    providedItems: row.providedItems,
    healthAndSafety: row.healthAndSafety,
    isExclusive: row.isExclusive,
    isBookable: row.isBookable,
    isUnlisted: row.isUnlisted,
    type: row.type,
    hostedBy: { id: row.hostId },
    paymentMethods: row.paymentMethods,
    priceTiers: record.priceTiers.map((t) => ({ name: t.name, price: toDecimal(t.priceMinor, brand.currency) })),
    taxes: record.taxes.map((t) => ({ name: t.name, amount: t.rateBasisPoints / 100 })),
    integrationMeta: row.integrationMeta,
    externalField: row.externalFieldType !== null ? { type: row.externalFieldType, value: row.externalFieldValue ?? '' } : null,
    minimumRequiredToBook: row.minimumRequiredToBook,
    maximumAllowedToBook: row.maximumAllowedToBook,
    displayedCapacity: row.displayedCapacity,
    cancellationPolicyId: row.cancellationPolicyId,
    addOns: parts.addOns,
    customQuestions: parts.customQuestions,
  };
  return document as JsonObject;
}
