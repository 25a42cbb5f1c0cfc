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
import type { Experience } from '../domain/catalog/experiences.ts';
import type { Listing } from '../domain/catalog/listings.ts';
import type { QuestionSnapshot } from '../domain/questions/questions.ts';

export function toGlobalId(type: string, key: string): string {
  return Buffer.from(`${type}:${key}`).toString('base64url');
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
