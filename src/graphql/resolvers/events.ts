import { listEvents } from '../../domain/outbox/feed.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const eventResolvers: Resolvers = {
  Query: {
    events: (_, { brandId, after, types, first }, ctx) => listEvents(ctx.caller(), { brandId, after, types, first }),
  },
};
