import { findOrganization, viewer } from '../../domain/access/organizations.ts';
import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const organizationResolvers: Resolvers = {
  Query: {
    organization: (_, { id }, ctx) => findOrganization(ctx.caller(), id),
    viewer: (_, __, ctx) => viewer(ctx.caller()),
  },
  ApiKeyKind: enumValues.ApiKeyKind,
};
