import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { insertPaymentIntent } from '../../../src/db/queries/checkout.ts';
import { carts, paymentIntents } from '../../../src/db/schema.ts';

type CartInsert = typeof carts.$inferInsert;
type IntentInsert = Omit<typeof paymentIntents.$inferInsert, 'attempt'>;

let cartCounter = 0;

/** A cart row as checkout leaves it (open unless told otherwise). */
export function createCart(db: Db, brandId: string, overrides: Partial<CartInsert> = {}) {
  const row = {
    id: randomUUID(),
    brandId,
    confirmationCode: `CART${String(++cartCounter).padStart(4, '0')}`,
    status: 'open' as const,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
  db.insert(carts).values(row).run();
  return row;
}

/** A payment intent of `cart` at the sandbox processor; its secret is never needed by reads. */
export function createPaymentIntent(
  db: Db,
  cart: { id: string; brandId: string },
  overrides: Partial<Omit<IntentInsert, 'cartId' | 'brandId'>> = {},
) {
  const id = randomUUID();
  const row = {
    id,
    brandId: cart.brandId,
    cartId: cart.id,
    processor: 'sandbox',
    processorReference: `pi_${id}`,
    secretHash: createHash('sha256').update(`secret-${id}`).digest('hex'),
    amountMinor: 0,
    currency: 'EUR',
    status: 'requires_payment' as const,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
  insertPaymentIntent(db, row);
  return row;
}
