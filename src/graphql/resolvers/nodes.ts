import { assertKeyMayUse, type PublishableUse } from '../../domain/access/publishable.ts';
import { findOrganization } from '../../domain/access/organizations.ts';
import { findCart } from '../../domain/bookings/carts.ts';
import { getBrandSettings } from '../../domain/catalog/brands.ts';
import { DomainError, invalid } from '../../domain/shared/errors.ts';
import { MAX_PAGE_SIZE } from '../../domain/shared/pagination.ts';
import { findWaitlist } from '../../domain/waitlists/waitlists.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import type { GraphQLContext } from '../context.ts';
import { fromGlobalId, notAGlobalId } from '../global-ids.ts';

type Part = 'uuid' | 'token';

/**
 * How each fetchable type is read again from the parts of its key (global-ids.ts), through the same domain
 * functions (and so the same brand scope) as its root field, and what a publishable key needs to read it
 * (catalogue types only). Every reader answers null for an object the key may not see, as root fields do.
 */
export const readers: Record<
  string,
  { shape: Part[]; use?: PublishableUse; read: (parts: string[], ctx: GraphQLContext) => Promise<object | null> }
> = {
  Experience: {
    shape: ['uuid', 'uuid', 'token'],
    use: 'catalogue',
    read: ([brandId, experienceId, language], ctx) =>
      ctx.loaders.experience.load({ brandId: brandId!, experienceId: experienceId!, language }),
  },
  Listing: {
    shape: ['uuid', 'uuid', 'token', 'token', 'token'],
    use: 'catalogue',
    read: async ([brandId, listingId, shown, listed, locale], ctx) => {
      const listings = await ctx.loaders.featuredListings.load({
        brandId,
        unlisted: listed === 'unlisted',
        locale,
        version: shown === 'draft' ? 'latest' : 'published',
      });
      // A draft since published (or a listing since moved) is another object now: not this one.
      return listings.find((l) => l.id === listingId && l.shownVersion === shown && l.contentLanguage === locale) ?? null;
    },
  },
  Session: { shape: ['uuid'], use: 'availability', read: async ([id], ctx) => (await ctx.loaders.session.load(id!)) ?? null },
  BrandSettings: { shape: ['uuid'], use: 'catalogue', read: ([brandId], ctx) => getBrandSettings(ctx.caller(), { brandId: brandId! }) },
  Booking: { shape: ['uuid'], read: async ([bookingId], ctx) => (await ctx.loaders.booking.load(bookingId!)) ?? null },
  Cart: { shape: ['uuid', 'uuid'], read: ([brandId, cartId], ctx) => findCart(ctx.caller(), { brandId: brandId!, cartId: cartId! }) },
  Organization: { shape: ['uuid'], read: ([id], ctx) => findOrganization(ctx.caller(), id!) },
  Waitlist: { shape: ['uuid', 'uuid'], read: ([brandId, id], ctx) => findWaitlist(ctx.caller(), { brandId: brandId!, id: id! }) },
};

const partPatterns: Record<Part, RegExp> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  // A language tag, a content version, listed/unlisted.
  token: /^[A-Za-z0-9-]{1,35}$/,
};

/**
 * The parts of a global id's key, when they have the shape its type's keys have (resolvers/entities.ts
 * reads by them too). Only keys Tessera issues: anything else names no object (and never reaches a query as
 * a bad UUID).
 */
export function issuedKeyParts(type: string, key: string): string[] | null {
  const shape = readers[type]?.shape;
  const parts = key.split(':');
  return shape && parts.length === shape.length && parts.every((part, i) => partPatterns[shape[i]!].test(part)) ? parts : null;
}

/** The GraphQL type of each object `node` answers (domain objects do not carry one). */
const typeOf = new WeakMap<object, string>();

async function readNode(id: string, field: string, ctx: GraphQLContext): Promise<object | null> {
  const decoded = fromGlobalId(id);
  if (!decoded) throw notAGlobalId(field, id);
  const reader = readers[decoded.type];
  // A global id of a type node cannot fetch (a Person, a Category): there is nothing to answer.
  if (!reader) return null;
  assertKeyMayUse(ctx.caller().principal, reader.use, `read a ${decoded.type} by node(id:)`);
  const parts = issuedKeyParts(decoded.type, decoded.key);
  if (!parts) return null;
  try {
    const object = await reader.read(parts, ctx);
    if (object) typeOf.set(object, decoded.type);
    return object;
  } catch (error) {
    // A brand outside the key's scope is not told apart from an id that does not exist, as `booking` does.
    if (error instanceof DomainError && (error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND')) return null;
    throw error;
  }
}

export const nodeResolvers: Resolvers = {
  Query: {
    node: (_, { id }, ctx) => readNode(id, 'id', ctx) as never,
    nodes: (_, { ids }, ctx) => {
      if (ids.length > MAX_PAGE_SIZE) throw invalid('ids', `ids takes at most ${MAX_PAGE_SIZE} ids`);
      // Each id on its own: a failure nulls its own entry, with its error.
      return ids.map((id, index) => readNode(id, `ids.${index}`, ctx).catch((error: unknown) => error as Error)) as never;
    },
  },
  Node: {
    __resolveType: (object) => (typeOf.get(object) ?? null) as never,
  },
};
