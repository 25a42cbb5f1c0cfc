import { cancelBookings } from '../../domain/cancellation/cancellation.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const cancellationResolvers: Resolvers = {
  Mutation: {
    cancelBookings: (_, { input }, ctx) => cancelBookings(ctx.caller(), input),
  },
};
