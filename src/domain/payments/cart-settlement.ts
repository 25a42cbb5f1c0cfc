/**
 * A cart is `paid` once the checkout its succeeded intent pays for has every booking settled. Both a
 * payment event and the late refund it may cause (settled by the request or by the reconciler) ask.
 */
import type { Db } from '../../db/sqlite/client.ts';
import { bookingsOfCart, paymentIntentsOfCart } from '../../db/sqlite/stores/bookings/carts.ts';
import { bookingsOfIntent, findIntentById, markCartPaid } from '../../db/sqlite/stores/payments/payments.ts';
import { currentCheckout } from '../bookings/carts.ts';
import { cartIsPaid } from './rules.ts';

/** Whether `intent` pays for the cart's current checkout (not one a later checkout replaced). */
export function isCurrentCheckout(tx: Db, intent: { id: string; cartId: string }): boolean {
  return currentCheckout(paymentIntentsOfCart(tx, intent.cartId), bookingsOfCart(tx, intent.cartId)).intent?.id === intent.id;
}

/** Marks the intent's cart paid when its bookings are all settled. Call inside a transaction. */
export function settleCart(tx: Db, intent: { id: string; cartId: string }, at: string): void {
  const statuses = bookingsOfIntent(tx, intent.id).map((b) => b.status);
  if (cartIsPaid(isCurrentCheckout(tx, intent), statuses)) markCartPaid(tx, intent.cartId, at);
}

/** `settleCart` for an intent known by its id (a stored refund effect); nothing when it is gone. */
export function settleCartOfIntent(tx: Db, intentId: string, at: string): void {
  const intent = findIntentById(tx, intentId);
  if (intent) settleCart(tx, intent, at);
}
