import { findBooking, listBookings } from '../../domain/bookings/bookings.ts';
import { findCart } from '../../domain/bookings/carts.ts';
import { rescheduleBooking, rescheduleHistory } from '../../domain/bookings/reschedule.ts';
import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const bookingResolvers: Resolvers = {
  Query: {
    booking: (_, { id }, ctx) => findBooking(ctx.caller(), { bookingId: id }),
    cart: (_, { brandId, cartId }, ctx) => findCart(ctx.caller(), { brandId, cartId }),
    bookings: (_, { brandId, status, from, to, first, after }, ctx) =>
      listBookings(ctx.caller(), { brandId, status, from, to, first, after }),
  },
  Mutation: {
    rescheduleBooking: (_, { input }, ctx) => rescheduleBooking(ctx.caller(), input),
  },
  RescheduleBookingPayload: {
    releasedSession: async (payload, _, ctx) => (await ctx.loaders.session.load(payload.previousSessionId)) ?? null,
  },
  Booking: {
    reschedules: (booking, _, ctx) => rescheduleHistory(ctx.caller(), booking.id),
    experience: (booking, _, ctx) => ctx.loaders.experience.load({ brandId: booking.brandId, experienceId: booking.experience.id }),
    session: async (booking, _, ctx) => (await ctx.loaders.session.load(booking.sessionId)) ?? null,
  },
  BookingStatus: enumValues.BookingStatus,
  CartStatus: enumValues.CartStatus,
  PaymentIntentStatus: enumValues.PaymentIntentStatus,
};
