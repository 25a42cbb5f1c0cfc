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
    joinWaitlist: (_, { brandId, waitlistId, input }, ctx) => joinWaitlist(ctx.caller(), { brandId, waitlistId, ...input }),
    leaveWaitlist: (_, { brandId, entryId }, ctx) => leaveWaitlist(ctx.caller(), { brandId, entryId }),
  },
  Waitlist: {
    entries: (waitlist, { sessionStartDateTime, statuses }, ctx) => entriesOf(ctx.caller(), waitlist, { sessionStartDateTime, statuses }),
  },
};
