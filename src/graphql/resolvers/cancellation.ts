import { cancelBookings } from '../../domain/cancellation/cancellation.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const cancellationResolvers: Resolvers = {
  Mutation: {
    cancelBookings: async (_, { input }, ctx) => {
      const result = await cancelBookings(ctx.caller(), input);
      ctx.loaders.knowSessions(result.sessions);
      return result;
    },
  },
};
