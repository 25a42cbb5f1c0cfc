/**
 * Global object identification (https://graphql.org/learn/global-object-identification/): every `id` of
 * the schema is `base64url("<Type>:<key>")`, opaque to clients, unique across types, and the same each
 * time the same object is read, so Apollo Client, urql's graphcache and Relay normalize by it safely. The
 * raw identifier stays readable as `uuid` (or `key` where the spec's id is free text).
 *
 * An object whose content depends on how it was asked for carries that in its key: an experience read in
 * another language, a listing in another locale or its draft. The key names the content actually shown
 * (the translation's language, the draft or the published version), not the argument, so two requests
 * that show the same text share an id and two that show different text never do.
 */
import { createHash } from 'node:crypto';
import { invalid, type DomainError } from '../domain/shared/errors.ts';
import { MAX_LOCALE_LENGTH } from '../domain/shared/locale.ts';
import type { Experience } from '../domain/catalog/experiences.ts';
import type { Listing } from '../domain/catalog/listings.ts';
import type { QuestionSnapshot } from '../domain/questions/questions.ts';

/**
 * Where each id's text is encoded on its way to base64url: one buffer for all (encoding is synchronous),
 * instead of a Buffer made and dropped for each of the hundred or so ids of a featured page.
 */
const scratch = Buffer.allocUnsafe(1024);

export function toGlobalId(type: string, key: string): string {
  const text = `${type}:${key}`;
  // UTF-8 takes at most three bytes a UTF-16 unit: a text that might not fit is encoded on its own.
  if (text.length * 3 > scratch.length) return Buffer.from(text).toString('base64url');
  return scratch.toString('base64url', 0, scratch.write(text));
}

/** The type and key of a global id; null for a string that is not one. */
export function fromGlobalId(id: string): { type: string; key: string } | null {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(id)) return null;
  const text = Buffer.from(id, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0 || toGlobalId(text.slice(0, colon), text.slice(colon + 1)) !== id) return null;
  return { type: text.slice(0, colon), key: text.slice(colon + 1) };
}

export const experienceKey = (experience: Experience) => `${experience.brandId}:${experience.id}:${experience.contentLanguage}`;

export const listingKey = (listing: Listing) =>
  `${listing.brandId}:${listing.id}:${listing.shownVersion}:${listing.isUnlisted ? 'unlisted' : 'listed'}:${listing.contentLanguage}`;

/** A question's configuration on the experience: a recorded answer's snapshot and today's question differ when it changed. */
export const customQuestionKey = (question: QuestionSnapshot) =>
  `${question.config.experienceQuestionId}:${createHash('sha256').update(JSON.stringify(question)).digest('base64url').slice(0, 16)}`;

/** The types whose `id` is global, with the key each is identified by, and whether their raw id is a `uuid` or a `key`. */
const identified: Record<string, { raw: 'uuid' | 'key'; key?: (parent: never) => string }> = {
  Experience: { raw: 'uuid', key: experienceKey },
  Listing: { raw: 'uuid', key: listingKey },
  Cart: { raw: 'uuid', key: (cart: { brandId: string; id: string }) => `${cart.brandId}:${cart.id}` },
  Waitlist: { raw: 'uuid', key: (waitlist: { brandId: string; id: string }) => `${waitlist.brandId}:${waitlist.id}` },
  Session: { raw: 'uuid' },
  Booking: { raw: 'uuid' },
  BrandSettings: { raw: 'uuid' },
  BrandSummary: { raw: 'uuid' },
  Organization: { raw: 'uuid' },
  Review: { raw: 'uuid' },
  Person: { raw: 'uuid' },
  Host: { raw: 'uuid' },
  Coupon: { raw: 'uuid' },
  CreditCode: { raw: 'uuid' },
  Participant: { raw: 'uuid' },
  WaitlistEntry: { raw: 'uuid' },
  WebhookEndpoint: { raw: 'uuid' },
  WebhookDelivery: { raw: 'uuid' },
  Event: { raw: 'uuid' },
  Category: { raw: 'key' },
  Vibe: { raw: 'key' },
  Media: { raw: 'key' },
  Picture: { raw: 'key' },
  BrandImage: { raw: 'key' },
  CancellationPolicy: { raw: 'key' },
  ReschedulePolicy: { raw: 'key' },
  Purchaser: { raw: 'key' },
  CustomQuestionAnswer: { raw: 'key' },
};

type FieldResolver = (parent: { id: string }) => string;

/** The global id Tessera answers for this object of this type. */
export function globalIdOf(type: string, object: object): string {
  const key = identified[type]?.key as ((parent: object) => string) | undefined;
  return toGlobalId(type, key ? key(object) : (object as { id: string }).id);
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const knownLanguages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A BCP 47 language tag whose language is a known one (`pt-BR`, `ja`): not a made-up token (`xx`, `forged`). */
export function isLanguageTag(tag: string): boolean {
  if (tag.length > MAX_LOCALE_LENGTH) return false;
  try {
    return knownLanguages.of(new Intl.Locale(tag).language) !== undefined;
  } catch {
    return false;
  }
}

/** The grammar of each part of a key: a UUID, a language, a listing's version shown and whether it is unlisted. */
const parts = {
  uuid: (part: string) => uuidPattern.test(part),
  language: isLanguageTag,
  version: (part: string) => part === 'published' || part === 'draft',
  listed: (part: string) => part === 'listed' || part === 'unlisted',
} satisfies Record<string, (part: string) => boolean>;

/** The parts of the keys of the types `node(id:)` and a router's references read again, as Tessera issues them. */
const keyGrammar: Record<string, ReadonlyArray<keyof typeof parts>> = {
  Experience: ['uuid', 'uuid', 'language'],
  Listing: ['uuid', 'uuid', 'version', 'listed', 'language'],
  Session: ['uuid'],
  BrandSettings: ['uuid'],
  Booking: ['uuid'],
  Cart: ['uuid', 'uuid'],
  Organization: ['uuid'],
  Waitlist: ['uuid', 'uuid'],
};

/**
 * The parts of a key of this type when it follows the type's grammar; null for anything else (a made-up
 * language, a listing version that does not exist, a part missing or added), which names no object Tessera
 * issued and so never reaches a read.
 */
export function keyParts(type: string, key: string): string[] | null {
  const grammar = keyGrammar[type];
  const split = key.split(':');
  return grammar && split.length === grammar.length && split.every((part, i) => parts[grammar[i]!](part)) ? split : null;
}

/** VALIDATION_FAILED naming the argument, for a global id of `type` whose key is not one Tessera issues. */
export function notAnIssuedId(field: string, type: string, id: string): DomainError {
  return invalid(
    field,
    `${JSON.stringify(id.slice(0, 100))} is not a global id of type ${type}: pass an object's \`id\` as it was answered`,
  );
}

/** The `id` and `uuid`/`key` resolvers of every identified type, plus CustomQuestion's content-addressed `id`. */
export function globalIdResolvers(): Record<string, Record<string, FieldResolver>> {
  const resolvers: Record<string, Record<string, FieldResolver>> = {};
  for (const [type, { raw, key }] of Object.entries(identified)) {
    const keyOf = (key ?? ((parent: { id: string }) => parent.id)) as (parent: { id: string }) => string;
    resolvers[type] = { id: (parent) => toGlobalId(type, keyOf(parent)), [raw]: (parent) => parent.id };
  }
  resolvers.CustomQuestion = { id: (question) => toGlobalId('CustomQuestion', customQuestionKey(question as unknown as QuestionSnapshot)) };
  return resolvers;
}

/** VALIDATION_FAILED naming the argument, for a string that is not a global id of this schema. */
export function notAGlobalId(field: string, id: string): DomainError {
  return invalid(field, `${JSON.stringify(id.slice(0, 100))} is not a global id: pass an object's \`id\` as it was answered`);
}
