import { eq, sql, type SQL } from 'drizzle-orm';
import type { CartBookingRow, CartCheckouts, CartIntentRow, CartRow, CartsStore } from '../../../../domain/bookings/store.ts';
import { carts } from '../../schema/index.ts';
import { preparedPerExecutor, readOwned, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { isoText, jsonRows, oneRow } from '../sql-parts.ts';

export async function findCartRow(db: PgExecutor, cartId: string): Promise<CartRow | undefined> {
  const [row] = await readOwned(db, db.select().from(carts).where(eq(carts.id, cartId)));
  return row;
}

/** A cart's checkouts as two JSON columns (`intents`, `bookings`): also read with a payment's bookings (stores/payments). */
export const cartCheckoutsColumns = (cartId: SQL) => ({
  intents: jsonRows<CartIntentRow>(sql`
    SELECT json_agg(json_build_object('id', i.id, 'status', i.status, 'createdAt', ${isoText('i.created_at')})
      ORDER BY i.attempt DESC)
    FROM payment_intents i WHERE i.cart_id = ${cartId}`),
  bookings: jsonRows<CartBookingRow>(sql`
    SELECT json_agg(json_build_object('id', b.id, 'paymentIntentId', b.payment_intent_id, 'amountMinor', b.amount_minor)
      ORDER BY b.created_at, b.cart_position)
    FROM bookings b WHERE b.cart_id = ${cartId}`),
});

const cartCheckouts = preparedPerExecutor((db) =>
  db
    .select(cartCheckoutsColumns(sql`${sql.placeholder('cartId')}`))
    .from(oneRow)
    .prepare('cart_checkouts'),
);

/** One named statement, both lists aggregated in it. */
export async function checkoutsOfCart(db: PgExecutor, cartId: string): Promise<CartCheckouts> {
  const [row] = await cartCheckouts(db).execute({ cartId });
  return row!;
}

export const cartsStore = {
  findCartRow,
  checkoutsOfCart,
} satisfies PostgresStore<CartsStore>;
