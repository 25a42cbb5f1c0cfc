import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { bookings, carts, paymentIntents } from '../schema.ts';

export type CartRow = typeof carts.$inferSelect;

/** What reading a cart needs of a payment intent (never its secret hash). */
export interface CartIntentRow {
  id: string;
  status: (typeof paymentIntents.$inferSelect)['status'];
  createdAt: string;
}

/** What choosing a cart's current bookings needs of each booking. */
export interface CartBookingRow {
  id: string;
  paymentIntentId: string | null;
  amountMinor: number;
}

export function findCartRow(db: Db, cartId: string): CartRow | undefined {
  return db.select().from(carts).where(eq(carts.id, cartId)).get();
}

/** The cart's payment intents, the current (latest) checkout first. */
export function paymentIntentsOfCart(db: Db, cartId: string): CartIntentRow[] {
  return db
    .select({ id: paymentIntents.id, status: paymentIntents.status, createdAt: paymentIntents.createdAt })
    .from(paymentIntents)
    .where(eq(paymentIntents.cartId, cartId))
    .orderBy(desc(paymentIntents.attempt))
    .all();
}

/** Every booking ever created for the cart: checkouts in creation order, each in its items' order. */
export function bookingsOfCart(db: Db, cartId: string): CartBookingRow[] {
  return db
    .select({ id: bookings.id, paymentIntentId: bookings.paymentIntentId, amountMinor: bookings.amountMinor })
    .from(bookings)
    .where(eq(bookings.cartId, cartId))
    .orderBy(asc(bookings.createdAt), asc(bookings.cartPosition))
    .all();
}
