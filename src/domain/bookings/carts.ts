/**
 * Reading a checked-out cart: its payment state and the bookings of its current checkout. A cart can
 * be checked out several times while unpaid; each new checkout replaces the bookings of the last.
 */
import type { CartBookingRow, CartCheckouts, CartIntentRow, CartRow } from './store.ts';
import { bookingViews, type Booking } from './booking-view.ts';
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { toDecimal } from '../shared/money.ts';

export interface Cart {
  id: string;
  brandId: string;
  confirmationCode: string;
  status: CartRow['status'];
  /** Status of the current checkout's payment intent; null when that checkout was free. */
  paymentIntentStatus: CartIntentRow['status'] | null;
  /** Sum of the current bookings' amounts, in `currency`. */
  totalAmount: number;
  currency: string;
  bookings: Booking[];
}

export interface CurrentCheckout {
  intent: CartIntentRow | null;
  bookings: CartBookingRow[];
}

/**
 * The cart's current checkout. A free checkout (bookings without a payment intent) pays the cart at
 * once, so no checkout can follow it: when there is one, it is current and has no intent. Otherwise
 * the current checkout is the newest payment intent (`intents` come newest first) and its bookings;
 * bookings of earlier intents were replaced.
 */
export function currentCheckout({ intents, bookings }: CartCheckouts): CurrentCheckout {
  const free = bookings.filter((b) => b.paymentIntentId === null);
  const latest = intents[0];
  if (free.length > 0 || !latest) return { intent: null, bookings: free };
  return { intent: latest, bookings: bookings.filter((b) => b.paymentIntentId === latest.id) };
}

/**
 * The cart with its current bookings, or null when no such cart exists for `brandId`. FORBIDDEN when
 * the caller may not act for the brand.
 */
export async function findCart(deps: CallerDeps, input: { brandId: string; cartId: string }): Promise<Cart | null> {
  const brand = await loadBrand(deps, input.brandId);
  const cart = await deps.db.carts.findCartRow(input.cartId);
  if (!cart || cart.brandId !== brand.id) return null;
  const current = currentCheckout(await deps.db.carts.checkoutsOfCart(cart.id));
  const totalMinor = current.bookings.reduce((sum, b) => sum + b.amountMinor, 0);
  return {
    id: cart.id,
    brandId: cart.brandId,
    confirmationCode: cart.confirmationCode,
    status: cart.status,
    paymentIntentStatus: current.intent?.status ?? null,
    totalAmount: toDecimal(totalMinor, brand.currency),
    currency: brand.currency,
    bookings: await bookingViews(
      deps,
      current.bookings.map((b) => b.id),
    ),
  };
}
