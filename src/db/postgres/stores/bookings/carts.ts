import { asc, desc, eq } from 'drizzle-orm';
import type { CartBookingRow, CartIntentRow, CartRow, CartsStore } from '../../../../domain/bookings/store.ts';
import { bookings, carts, paymentIntents } from '../../schema/index.ts';
import { lockInUnit, type PgExecutor, type PostgresStore } from '../../store-binding.ts';

export async function findCartRow(db: PgExecutor, cartId: string): Promise<CartRow | undefined> {
  await lockInUnit(db, carts, eq(carts.id, cartId));
  const [row] = await db.select().from(carts).where(eq(carts.id, cartId));
  return row;
}

export async function paymentIntentsOfCart(db: PgExecutor, cartId: string): Promise<CartIntentRow[]> {
  return db
    .select({ id: paymentIntents.id, status: paymentIntents.status, createdAt: paymentIntents.createdAt })
    .from(paymentIntents)
    .where(eq(paymentIntents.cartId, cartId))
    .orderBy(desc(paymentIntents.attempt));
}

export async function bookingsOfCart(db: PgExecutor, cartId: string): Promise<CartBookingRow[]> {
  return db
    .select({ id: bookings.id, paymentIntentId: bookings.paymentIntentId, amountMinor: bookings.amountMinor })
    .from(bookings)
    .where(eq(bookings.cartId, cartId))
    .orderBy(asc(bookings.createdAt), asc(bookings.cartPosition));
}

export const cartsStore = {
  findCartRow,
  paymentIntentsOfCart,
  bookingsOfCart,
} satisfies PostgresStore<CartsStore>;
