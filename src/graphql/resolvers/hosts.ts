import { listHosts } from '../../domain/catalog/hosts.ts';
import { createHost, updateHost } from '../../domain/catalog/host-writes.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const hostResolvers: Resolvers = {
  Query: {
    hosts: (_, { brandId }, ctx) => listHosts(ctx.caller(), { brandId }),
  },
  Mutation: {
    createHost: (_, { brandId, input }, ctx) => createHost(ctx.caller(), { brandId, body: input }),
    updateHost: (_, { brandId, id, input, ifMatch }, ctx) =>
      updateHost(ctx.caller(), { brandId, hostId: id, patch: input, ifMatch, ifMatchField: 'ifMatch' }),
  },
};
