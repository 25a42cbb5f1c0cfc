import { cancelBookings } from '../../domain/cancellation/cancellation.ts';
import type { RestApp } from '../plugin.ts';
import { cancelBookingsSchema, cancelEnvelope } from '../schemas/cancellation.ts';
import { validateBodyAs } from '../validation.ts';

export function cancellationRoutes(app: RestApp) {
  app.post('/v1/bookings/cancel', { schema: cancelBookingsSchema, validatorCompiler: validateBodyAs(cancelEnvelope) }, async (request) => {
    // The sessions are GraphQL's (its `session` field); REST's answer is the spec's.
    const { items, errors } = await cancelBookings(request.caller, request.body);
    return { items, errors };
  });
}
