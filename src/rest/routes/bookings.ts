import { getBooking, listBookingsPage } from '../../domain/bookings/bookings.ts';
import { findCart } from '../../domain/bookings/carts.ts';
import { rescheduleBooking } from '../../domain/bookings/reschedule.ts';
import { notFound } from '../../domain/shared/errors.ts';
import type { RestApp } from '../plugin.ts';
import { getBookingSchema, getCartSchema, listBookingsSchema, rescheduleBookingSchema } from '../schemas/bookings.ts';

export function bookingRoutes(app: RestApp) {
  app.get('/v1/bookings/:bookingId', { schema: getBookingSchema }, async (request) =>
    getBooking(request.caller, { bookingId: request.params.bookingId }),
  );
  app.post('/v1/bookings/:bookingId/reschedule', { schema: rescheduleBookingSchema }, async (request) => {
    const { booking, previousSession } = await rescheduleBooking(request.caller, { bookingId: request.params.bookingId, ...request.body });
    return { data: booking, previousSession };
  });
  app.get('/v1/brands/:brandId/bookings', { schema: listBookingsSchema }, async (request) =>
    listBookingsPage(request.caller, { brandId: request.params.brandId, ...request.query }),
  );
  app.get('/v1/brands/:brandId/carts/:cartId', { schema: getCartSchema }, async (request) => {
    const cart = await findCart(request.caller, request.params);
    if (!cart) throw notFound('Cart', request.params.cartId);
    return { data: cart };
  });
}
