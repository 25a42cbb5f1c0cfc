import { getBooking } from '../../domain/bookings/bookings.ts';
import type { RestApp } from '../plugin.ts';
import { getBookingSchema } from '../schemas/bookings.ts';

export function bookingRoutes(app: RestApp) {
  app.get('/v1/bookings/:bookingId', { schema: getBookingSchema }, async (request) =>
    getBooking(request.caller, { bookingId: request.params.bookingId }),
  );
}
