import { watchSessionAvailability } from '../../domain/live/availability.ts';
import { watchBookingEvents, type LiveEvent } from '../../domain/live/booking-events.ts';
import { watchCart } from '../../domain/live/carts.ts';
import { watchWaitlistEntry } from '../../domain/live/waitlist-entries.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

/** Live updates (src/graphql/live runs them): each watch checks its caller as the matching query does. */
export const liveResolvers: Resolvers = {
  Subscription: {
    sessionAvailability: {
      subscribe: (_, { brandId, experienceId, from, to }, ctx) =>
        watchSessionAvailability(ctx.caller(), { brandId, experienceId, from, to }),
      resolve: (sessions: unknown) => sessions as never,
    },
    cartUpdated: {
      subscribe: (_, { brandId, cartId, paymentIntentSecret }, ctx) => watchCart(ctx.caller(), { brandId, cartId, paymentIntentSecret }),
      resolve: (cart: unknown) => cart as never,
    },
    waitlistEntryUpdated: {
      subscribe: (_, { brandId, entryId }, ctx) => watchWaitlistEntry(ctx.caller(), { brandId, entryId }),
      resolve: (entry: unknown) => entry as never,
    },
    bookingEvents: {
      subscribe: (_, { brandId, types, after }, ctx) => watchBookingEvents(ctx.caller(), { brandId, types, after }),
      resolve: ({ cursor, event }: LiveEvent) => ({ cursor, node: event }),
    },
  },
};
