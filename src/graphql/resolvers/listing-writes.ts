import { createListing, publishListing, updateListingDraft } from '../../domain/catalog/listing-writes.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { ListingInput, Resolvers } from '../__generated__/resolvers-types.ts';

/**
 * The input as the REST body spells it (the domain's one shape): ids of the category, host and vibes
 * become references. A field left out stays left out, a null stays null (a merge patch's removal).
 */
export function listingBody(input: ListingInput): Record<string, unknown> {
  const { categoryId, hostId, vibeIds, ...body } = input as Record<string, unknown> & ListingInput;
  const reference = (id: string | null | undefined) => (id === null ? null : { id });
  return {
    ...body,
    ...(categoryId !== undefined ? { category: reference(categoryId) } : {}),
    ...(hostId !== undefined ? { hostedBy: reference(hostId) } : {}),
    ...(vibeIds !== undefined ? { vibes: vibeIds === null ? null : vibeIds.map((id) => ({ id })) } : {}),
  };
}

/** A refusal naming a field of the REST body names the input's field instead. */
export async function namingInputFields<T>(write: Promise<T>, rename: (field: string) => string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const field = error instanceof DomainError ? error.details?.field : undefined;
    if (!(error instanceof DomainError) || field === undefined || rename(field) === field) throw error;
    throw new DomainError(error.code, error.message.replace(field, rename(field)), { ...error.details, field: rename(field) });
  }
}

const listingField = (field: string) =>
  field === 'category.id' ? 'categoryId' : field === 'hostedBy.id' ? 'hostId' : field.replace(/^vibes\.(\d+)\.id$/, 'vibeIds.$1');

export const listingWriteResolvers: Resolvers = {
  Mutation: {
    createListing: (_, { brandId, input }, ctx) =>
      namingInputFields(createListing(ctx.caller(), { brandId, body: listingBody(input) }), listingField),
    updateListingDraft: (_, { brandId, id, input, ifMatch }, ctx) =>
      namingInputFields(
        updateListingDraft(ctx.caller(), { brandId, listingId: id, patch: listingBody(input), ifMatch, ifMatchField: 'ifMatch' }),
        listingField,
      ),
    publishListing: (_, { brandId, id, ifMatch }, ctx) =>
      publishListing(ctx.caller(), { brandId, listingId: id, ifMatch, ifMatchField: 'ifMatch' }),
  },
};
