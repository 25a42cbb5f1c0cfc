/**
 * Federation entities (the `@key`s of schema/): how a router's references (`_entities`) are read again.
 * Each goes through the request's DataLoaders, so a batch of references costs one read per type, not one
 * per reference, and through the same domain functions as `node(id:)` and the root fields: the key's brand
 * scope, its kind (a publishable key reads catalogue types only) and the brand's features apply. An entity
 * the caller may not see answers null with NOT_FOUND, the same error as for a key that names nothing.
 */
import { assertKeyMayUse, type PublishableUse } from '../../domain/access/publishable.ts';
import { DomainError, invalid } from '../../domain/shared/errors.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import type { GraphQLContext } from '../context.ts';
import { fromGlobalId, isLanguageTag, notAGlobalId } from '../global-ids.ts';
import { readers, readIssued } from './nodes.ts';

/** A representation as a router sends it: `__typename` and the fields of one of the type's keys. */
interface Reference {
  id?: unknown;
  uuid?: unknown;
  contentLanguage?: unknown;
}

/** The key field a reference names an object by, and its value. */
function keyOf(reference: Reference): { field: 'id' | 'uuid'; value: string } {
  for (const field of ['id', 'uuid'] as const) {
    const value = reference[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
    return { field, value };
  }
  throw invalid('id', 'A reference names its object by one of its type\u2019s @key fields');
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidOf(value: string): string {
  if (!uuidPattern.test(value)) throw invalid('uuid', `${JSON.stringify(value.slice(0, 100))} is not a UUID`);
  // In any case, as the UUID scalar takes it (scalars.ts).
  return value.toLowerCase();
}

/**
 * The object a global id names, read by node(id:)'s reader; null when it names another type or nothing, and
 * VALIDATION_FAILED on `id` for a key of this type Tessera never issues (a made-up language).
 */
async function byGlobalId(type: string, id: string, ctx: GraphQLContext): Promise<object | null> {
  const decoded = fromGlobalId(id);
  if (!decoded) throw notAGlobalId('id', id);
  return decoded.type === type ? readIssued(type, id, decoded.key, 'id', ctx) : null;
}

/** The raw id a global id of this type holds (types whose key is their UUID alone); null for any other id. */
function uuidInGlobalId(type: string, id: string): string | null {
  const decoded = fromGlobalId(id);
  if (!decoded) throw notAGlobalId('id', id);
  return decoded.type === type && uuidPattern.test(decoded.key) ? decoded.key : null;
}

type Found = Promise<object | null | undefined>;

interface Entity {
  /** What a publishable key needs to read it; none: secret keys only. */
  use?: PublishableUse;
  /** By its global `id`. */
  byId: (id: string, ctx: GraphQLContext) => Found;
  /** By its other keys (`uuid`, with `contentLanguage` for an experience). */
  read: (reference: Reference, uuid: string, ctx: GraphQLContext) => Found;
}

/** Every entity type of the schema (a `@key`), and how it is read. */
const entities: Record<'Booking' | 'Session' | 'BrandSettings' | 'Listing' | 'Experience' | 'Review', Entity> = {
  Booking: {
    byId: (id, ctx) => byGlobalId('Booking', id, ctx),
    read: (_, uuid, ctx) => ctx.loaders.booking.load(uuid),
  },
  Session: {
    use: 'availability',
    byId: (id, ctx) => byGlobalId('Session', id, ctx),
    read: (_, uuid, ctx) => ctx.loaders.session.load(uuid),
  },
  BrandSettings: {
    use: 'catalogue',
    byId: (id, ctx) => byGlobalId('BrandSettings', id, ctx),
    read: (_, uuid, ctx) => readers.BrandSettings!.read([uuid], ctx),
  },
  Listing: {
    use: 'catalogue',
    byId: (id, ctx) => byGlobalId('Listing', id, ctx),
    // Keyed by `id` alone: a listing's uuid does not say which locale and version it shows.
    read: async () => null,
  },
  Experience: {
    use: 'catalogue',
    byId: (id, ctx) => byGlobalId('Experience', id, ctx),
    // `uuid` alone: in the brand's default language, as `Booking.experience`; with `contentLanguage`: the
    // variant shown in that language, and nothing when the experience shows another one.
    read: async (reference, uuid, ctx) => {
      const language = reference.contentLanguage;
      if (language !== undefined && (typeof language !== 'string' || !isLanguageTag(language))) {
        throw invalid('contentLanguage', 'contentLanguage must be a language tag');
      }
      const experience = await ctx.loaders.experience.load({ experienceId: uuid, language });
      return experience && (language === undefined || experience.contentLanguage === language) ? experience : null;
    },
  },
  Review: {
    use: 'catalogue',
    byId: async (id, ctx) => {
      const uuid = uuidInGlobalId('Review', id);
      return uuid ? ctx.loaders.review.load(uuid) : null;
    },
    read: (_, uuid, ctx) => ctx.loaders.review.load(uuid),
  },
};
async function resolveReference(typename: keyof typeof entities, reference: Reference, ctx: GraphQLContext): Promise<object> {
  const entity = entities[typename];
  assertKeyMayUse(ctx.caller().principal, entity.use, `read a ${typename} by reference`);
  const key = keyOf(reference);
  let object: object | null | undefined;
  try {
    object = key.field === 'id' ? await entity.byId(key.value, ctx) : await entity.read(reference, uuidOf(key.value), ctx);
  } catch (error) {
    // A brand outside the key's scope is not told apart from a key that names nothing, as `booking` does.
    if (!(error instanceof DomainError && (error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND'))) throw error;
  }
  if (!object) {
    throw new DomainError('NOT_FOUND', `${typename} ${JSON.stringify(key.value.slice(0, 100))} was not found`, { field: key.field });
  }
  return object;
}

/** The entity types, as the schema's `@key`s declare them (a test compares the two). */
export const entityTypes = Object.keys(entities);

export const entityResolvers = Object.fromEntries(
  Object.keys(entities).map((typename) => [
    typename,
    {
      __resolveReference: (reference: Reference, ctx: GraphQLContext) =>
        resolveReference(typename as keyof typeof entities, reference, ctx),
    },
  ]),
) as Resolvers;
