import type { Db } from '../../../src/db/client.ts';
import type { paymentIntents } from '../../../src/db/schema.ts';
import { createBooking, type BookingSpec } from './bookings.ts';
import { createCart, createPaymentIntent } from './carts.ts';

export interface PaidBookingSpec extends BookingSpec {
  /** Status of the booking's payment intent: `succeeded` (paid, the default) or still `requires_payment`. */
  intentStatus?: (typeof paymentIntents.$inferSelect)['status'];
}

/**
 * A booking checked out through a cart with a payment intent, as checkout leaves it: the intent's
 * status says whether the guest's money was captured (refunds need `succeeded`).
 */
export function createPaidBooking(db: Db, spec: PaidBookingSpec) {
  const cart = createCart(db, spec.brandId, { status: spec.intentStatus === 'succeeded' || !spec.intentStatus ? 'paid' : 'open' });
  const made = createBooking(db, {
    ...spec,
    overrides: { cartId: cart.id, cartConfirmationCode: cart.confirmationCode, ...spec.overrides },
  });
  const intent = createPaymentIntent(db, cart, {
    amountMinor: made.booking.amountMinor,
    currency: spec.currency ?? 'EUR',
    status: spec.intentStatus ?? 'succeeded',
  });
  db.$client.prepare('UPDATE bookings SET payment_intent_id = ? WHERE id = ?').run(intent.id, made.booking.id);
  return { ...made, cart, intent };
}
