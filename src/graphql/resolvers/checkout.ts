import { findCart } from '../../domain/bookings/carts.ts';
import { createPaymentIntent } from '../../domain/checkout/checkout.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const checkoutResolvers: Resolvers = {
  Mutation: {
    // The GraphQL input mirrors the REST body field for field (absent fields arrive as null or undefined).
    createPaymentIntent: async (_, { brandId, cartId, input }, ctx) => {
      const result = await createPaymentIntent(ctx.caller(), { brandId, cartId, ...input });
      ctx.loaders.knowSessions(result.sessions ?? []);
      return result;
    },
  },
  CreatePaymentIntentPayload: {
    paymentIntentSecret: (payload) => payload.paymentIntentSecret ?? null,
    expiresAt: (payload) => payload.expiresAt ?? null,
    // The cart the checkout just created, as its unit left it (the same caller saw its brand), else read.
    cart: (payload, _, ctx) =>
      payload.heldCart ?? (payload.cartId ? findCart(ctx.caller(), { brandId: payload.brandId, cartId: payload.cartId }) : null),
  },
};
