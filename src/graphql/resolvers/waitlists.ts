import { joinWaitlist } from '../../domain/waitlists/join.ts';
import { entriesOf, findWaitlist, leaveWaitlist } from '../../domain/waitlists/waitlists.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { enumValues } from '../enums.ts';

export const waitlistResolvers: Resolvers = {
  WaitlistEntryStatus: enumValues.WaitlistEntryStatus,
  Query: {
    waitlist: (_, { brandId, id }, ctx) => findWaitlist(ctx.caller(), { brandId, id }),
  },
  Mutation: {
    // The GraphQL input mirrors the REST body field for field.
    joinWaitlist: async (_, { brandId, waitlistId, input }, ctx) => ({
      entry: await joinWaitlist(ctx.caller(), { brandId, waitlistId, ...input }),
    }),
    leaveWaitlist: async (_, { brandId, entryId }, ctx) => ({ entry: await leaveWaitlist(ctx.caller(), { brandId, entryId }) }),
  },
  Waitlist: {
    entries: (waitlist, { sessionStartDateTime, statuses }, ctx) => entriesOf(ctx.caller(), waitlist, { sessionStartDateTime, statuses }),
  },
};
