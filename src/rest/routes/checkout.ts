import { createPaymentIntent } from '../../domain/checkout/checkout.ts';
import type { RestApp } from '../plugin.ts';
import { createPaymentIntentSchema } from '../schemas/checkout.ts';

export function checkoutRoutes(app: RestApp) {
  app.post(
    '/v1/brands/:brandId/carts/:cartId/payment_intents',
    { schema: createPaymentIntentSchema, config: { publishable: 'checkout' } },
    async (request, reply) => {
      const { brandId, cartId } = request.params;
      // heldCart and sessions are for GraphQL's cart field; REST answers with the cart's code and bookings.
      const {
        heldCart: _cart,
        sessions: _sessions,
        ...result
      } = await createPaymentIntent(request.caller, { brandId, cartId, ...request.body });
      // A quote creates nothing: 200. A checkout creates bookings: 201.
      reply.code(request.body.getOnlyTotalNetAmount ? 200 : 201);
      return result;
    },
  );
}
