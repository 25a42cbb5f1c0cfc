/**
 * Reading a checked-out cart: its payment state and the bookings of its current checkout. A cart can
 * be checked out several times while unpaid; each new checkout replaces the bookings of the last.
 */
import type { CartBookingRow, CartCheckouts, CartIntentRow, CartRow } from './store.ts';
import { bookingViews, type Booking } from './booking-view.ts';
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { toDecimal } from '../shared/money.ts';
import { hashSecret } from '../access/secrets.ts';
import { DomainError, notFound } from '../shared/errors.ts';

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

/**
 * FORBIDDEN unless `secret` is the client secret of the cart's current payment intent. One answer,
 * whatever was wrong (no secret, an unknown one, another cart's, an earlier checkout's, no such cart):
 * a page guessing learns nothing. The secret is found by its hash through a unique index, as keys are,
 * never compared byte by byte.
 */
export async function assertHoldsCurrentIntent(deps: CallerDeps, cart: Cart | null, secret: string | null | undefined): Promise<void> {
  const intent = secret ? await deps.db.payments.findIntentBySecretHash(hashSecret(secret)) : undefined;
  const current = intent && cart && intent.cartId === cart.id ? currentCheckout(await deps.db.carts.checkoutsOfCart(cart.id)).intent : null;
  if (!intent || !current || current.id !== intent.id) {
    throw new DomainError(
      'FORBIDDEN',
      "A publishable key may watch a cart only with the client secret of the cart's current payment intent (paymentIntentSecret); or use a secret key (sk_...) from a server",
      { keyKind: 'publishable' },
    );
  }
}

/**
 * A checked-out cart as its holder may read it: a secret key as the `cart` query reads it; a publishable
 * key (a shop's page, an assistant) only with the client secret of the cart's current payment intent,
 * the credential its checkout answered with, the rule of `watchCart`.
 */
export async function readHeldCart(
  deps: CallerDeps,
  input: { brandId: string; cartId: string; paymentIntentSecret?: string | null },
): Promise<Cart> {
  const cart = await findCart(deps, input);
  if (deps.principal.kind === 'publishable') await assertHoldsCurrentIntent(deps, cart, input.paymentIntentSecret);
  if (!cart) throw notFound('Cart', input.cartId);
  return cart;
}
