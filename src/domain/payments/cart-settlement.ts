/**
 * A cart is `paid` once the checkout its succeeded intent pays for has every booking settled. Both a
 * payment event and the late refund it may cause (settled by the request or by the reconciler) ask.
 */
import type { Stores } from '../shared/database.ts';
import type { CartCheckouts } from '../bookings/store.ts';
import { currentCheckout } from '../bookings/carts.ts';
import { cartIsPaid } from './rules.ts';

/** Whether `intent` pays for the current checkout of its cart, whose checkouts are given (not one a later checkout replaced). */
export function paysCurrentCheckout(checkouts: CartCheckouts, intent: { id: string }): boolean {
  return currentCheckout(checkouts).intent?.id === intent.id;
}

/** Whether `intent` pays for the cart's current checkout (not one a later checkout replaced). */
export async function isCurrentCheckout(tx: Stores, intent: { id: string; cartId: string }): Promise<boolean> {
  return paysCurrentCheckout(await tx.carts.checkoutsOfCart(intent.cartId), intent);
}

/**
 * Marks the intent's cart paid when its bookings are all settled (cartIsPaid; a payment's own unit, which
 * knows its bookings' statuses, asks cartIsPaid itself). Call inside a transaction.
 */
export async function settleCart(tx: Stores, intent: { id: string; cartId: string }, at: string): Promise<void> {
  const statuses = (await tx.payments.bookingsOfIntent(intent.id)).map((b) => b.status);
  if (cartIsPaid(await isCurrentCheckout(tx, intent), statuses)) await tx.payments.markCartPaid(intent.cartId, at);
}

/** `settleCart` for an intent known by its id (a stored refund effect); nothing when it is gone. */
export async function settleCartOfIntent(tx: Stores, intentId: string, at: string): Promise<void> {
  const intent = await tx.payments.findIntentById(intentId);
  if (intent) await settleCart(tx, intent, at);
}
