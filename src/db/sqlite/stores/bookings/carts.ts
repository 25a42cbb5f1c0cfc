import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { bookings, carts, paymentIntents } from '../../schema/index.ts';
import type { CartCheckouts, CartRow, CartsStore } from '../../../../domain/bookings/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

// Every checkout, payment and cart read looks the cart up: prepared once per connection.
const cartById = preparedPerDb((db) =>
  db
    .select()
    .from(carts)
    .where(eq(carts.id, sql.placeholder('id')))
    .prepare(),
);

export function findCartRow(db: Db, cartId: string): CartRow | undefined {
  return cartById(db).get({ id: cartId });
}

const intentsOfCart = preparedPerDb((db) =>
  db
    .select({ id: paymentIntents.id, status: paymentIntents.status, createdAt: paymentIntents.createdAt })
    .from(paymentIntents)
    .where(eq(paymentIntents.cartId, sql.placeholder('cartId')))
    .orderBy(desc(paymentIntents.attempt))
    .prepare(),
);

const cartBookings = preparedPerDb((db) =>
  db
    .select({ id: bookings.id, paymentIntentId: bookings.paymentIntentId, amountMinor: bookings.amountMinor })
    .from(bookings)
    .where(eq(bookings.cartId, sql.placeholder('cartId')))
    .orderBy(asc(bookings.createdAt), asc(bookings.cartPosition))
    .prepare(),
);

/** Two prepared reads. */
export function checkoutsOfCart(db: Db, cartId: string): CartCheckouts {
  return { intents: intentsOfCart(db).all({ cartId }), bookings: cartBookings(db).all({ cartId }) };
}

export const cartsStore = {
  findCartRow,
  checkoutsOfCart,
} satisfies SqliteStore<CartsStore>;
