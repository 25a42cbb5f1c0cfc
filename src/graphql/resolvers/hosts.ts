import { listHosts } from '../../domain/catalog/hosts.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const hostResolvers: Resolvers = {
  Query: {
    hosts: (_, { brandId }, ctx) => listHosts(ctx.caller(), { brandId }),
  },
};
