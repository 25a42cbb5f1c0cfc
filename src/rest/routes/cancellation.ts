import { cancelBookings } from '../../domain/cancellation/cancellation.ts';
import type { RestApp } from '../plugin.ts';
import { cancelBookingsSchema } from '../schemas/cancellation.ts';

export function cancellationRoutes(app: RestApp) {
  app.post('/v1/bookings/cancel', { schema: cancelBookingsSchema }, async (request) => cancelBookings(request.caller, request.body));
}
