import { getFeaturedListings } from '../../domain/catalog/listings.ts';
import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const listingResolvers: Resolvers = {
  Query: {
    featuredListings: (_, { brandId, unlisted, locale, contentVersion }, ctx) =>
      getFeaturedListings(ctx.caller(), {
        brandId,
        unlisted: unlisted ?? false,
        locale,
        version: contentVersion ?? 'published',
        versionField: 'contentVersion',
      }),
  },
  ListingKind: enumValues.ListingKind,
  BookingAvailabilityMode: enumValues.BookingAvailabilityMode,
  ContentVersion: enumValues.ContentVersion,
};
