import { assertKeyMayUse, type PublishableUse } from '../../domain/access/publishable.ts';
import { findOrganization } from '../../domain/access/organizations.ts';
import { findCart } from '../../domain/bookings/carts.ts';
import { getBrandSettings } from '../../domain/catalog/brands.ts';
import { DomainError, invalid } from '../../domain/shared/errors.ts';
import { MAX_PAGE_SIZE } from '../../domain/shared/pagination.ts';
import { findWaitlist } from '../../domain/waitlists/waitlists.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import type { GraphQLContext } from '../context.ts';
import { fromGlobalId, globalIdOf, keyParts, notAGlobalId, notAnIssuedId } from '../global-ids.ts';

/**
 * How each fetchable type is read again from the parts of its key (global-ids.ts, which holds each key's
 * grammar), through the same domain functions (and so the same brand scope) as its root field, and what a
 * publishable key needs to read it (catalogue types only). Every reader answers null for an object the key
 * may not see, as root fields do.
 */
export const readers: Record<string, { use?: PublishableUse; read: (parts: string[], ctx: GraphQLContext) => Promise<object | null> }> = {
  Experience: {
    use: 'catalogue',
    read: ([brandId, experienceId, language], ctx) =>
      ctx.loaders.experience.load({ brandId: brandId!, experienceId: experienceId!, language }),
  },
  Listing: {
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
  Session: { use: 'availability', read: async ([id], ctx) => (await ctx.loaders.session.load(id!)) ?? null },
  BrandSettings: { use: 'catalogue', read: ([brandId], ctx) => getBrandSettings(ctx.caller(), { brandId: brandId! }) },
  Booking: { read: async ([bookingId], ctx) => (await ctx.loaders.booking.load(bookingId!)) ?? null },
  Cart: { read: ([brandId, cartId], ctx) => findCart(ctx.caller(), { brandId: brandId!, cartId: cartId! }) },
  Organization: { read: ([id], ctx) => findOrganization(ctx.caller(), id!) },
  Waitlist: { read: ([brandId, id], ctx) => findWaitlist(ctx.caller(), { brandId: brandId!, id: id! }) },
};

/**
 * The object a global id of a fetchable type names, read by its reader: VALIDATION_FAILED on `field` for a key
 * that breaks its type's grammar (a made-up language, a listing version that does not exist), and null
 * when what the read found answers another id (an experience in a language it has no translation for is
 * shown in another one): an object is never answered under an id other than its own.
 */
export async function readIssued(type: string, id: string, key: string, field: string, ctx: GraphQLContext): Promise<object | null> {
  const parts = keyParts(type, key);
  if (!parts) throw notAnIssuedId(field, type, id);
  const object = await readers[type]!.read(parts, ctx);
  return object && globalIdOf(type, object) === id ? object : null;
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
  try {
    const object = await readIssued(decoded.type, id, decoded.key, field, ctx);
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
