import { getBooking } from '../../domain/bookings/bookings.ts';
import { rescheduleBooking } from '../../domain/bookings/reschedule.ts';
import type { RestApp } from '../plugin.ts';
import { getBookingSchema, rescheduleBookingSchema } from '../schemas/bookings.ts';

export function bookingRoutes(app: RestApp) {
  app.get('/v1/bookings/:bookingId', { schema: getBookingSchema }, async (request) =>
    getBooking(request.caller, { bookingId: request.params.bookingId }),
  );
  app.post('/v1/bookings/:bookingId/reschedule', { schema: rescheduleBookingSchema }, async (request) => {
    const { booking, previousSession } = await rescheduleBooking(request.caller, { bookingId: request.params.bookingId, ...request.body });
    return { data: booking, previousSession };
  });
}
