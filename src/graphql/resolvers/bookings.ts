import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const bookingResolvers: Resolvers = {
  BookingStatus: enumValues.BookingStatus,
  CartStatus: enumValues.CartStatus,
  PaymentIntentStatus: enumValues.PaymentIntentStatus,
};
