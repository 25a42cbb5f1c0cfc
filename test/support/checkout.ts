import type { TestDb } from './db.ts';
import { ProcessorError } from '../../src/domain/payments/processor.ts';
import { SandboxProcessor } from '../../src/adapters/sandbox-processor.ts';

/**
 * The sandbox with knobs for checkout tests: `createIntent` can wait a random delay, or hold every call
 * until a number of them have arrived (so concurrent checkouts all pass the early checks before any
 * writes, and the transaction alone decides), or fail as a processor outage would.
 */
export class CheckoutTestProcessor extends SandboxProcessor {
  intentCalls = 0;
  /** Milliseconds to wait before answering each createIntent (after the barrier, if any). */
  delay: () => number = () => 0;
  failIntents = false;
  private barrier: { size: number; waiting: Array<() => void> } | null = null;

  /** Holds createIntent calls until `size` of them are waiting, then lets them all go. */
  holdUntil(size: number): void {
    this.barrier = { size, waiting: [] };
  }

  override async createIntent(input: { amountMinor: number; currency: string; idempotencyKey: string; metadata: Record<string, string> }) {
    this.intentCalls += 1;
    const barrier = this.barrier;
    if (barrier) {
      await new Promise<void>((resolve) => {
        barrier.waiting.push(resolve);
        if (barrier.waiting.length >= barrier.size) for (const release of barrier.waiting) release();
      });
    }
    const ms = this.delay();
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    if (this.failIntents) throw new ProcessorError('processor unavailable');
    return super.createIntent(input);
  }
}

export const CREATE_PAYMENT_INTENT = /* GraphQL */ `
  mutation Checkout($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
    createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) {
      totalNetAmount
      paymentIntentSecret
      cart {
        id
        status
        confirmationCode
        paymentIntentStatus
        totalAmount
        currency
        bookings {
          id
          status
          confirmationCode
          cartConfirmationCode
          amount
        }
      }
    }
  }
`;

/** A checkout participant of the request body. */
export const guest = (firstName: string, priceTierName = 'Adult', extra: Record<string, unknown> = {}) => ({
  firstName,
  lastName: 'Silva',
  priceTierName,
  ...extra,
});

/** Small readers of the rows checkout writes. */
export function checkoutRows(db: TestDb) {
  const all = <T>(sql: string, ...params: unknown[]) => db.all<T>(sql, ...params);
  const one = async <T>(sql: string, ...params: unknown[]) => (await db.one<T>(sql, ...params)) as T;
  return {
    reserved: async (sessionId: string) =>
      (await one<{ reserved: number }>('SELECT reserved FROM sessions WHERE id = ?', sessionId)).reserved,
    bookingsOfCart: (cartId: string) =>
      all<{
        id: string;
        status: string;
        confirmationCode: string;
        cartConfirmationCode: string;
        cartPosition: number;
        amountMinor: number;
        holdExpiresAt: string | null;
        paymentIntentId: string | null;
        metadata: string | null;
      }>(
        `SELECT id, status, confirmation_code AS "confirmationCode", cart_confirmation_code AS "cartConfirmationCode", cart_position AS "cartPosition",
           amount_minor AS "amountMinor", hold_expires_at AS "holdExpiresAt", payment_intent_id AS "paymentIntentId", metadata
         FROM bookings WHERE cart_id = ? ORDER BY created_at, cart_position`,
        cartId,
      ),
    cart: (cartId: string) =>
      one<{ status: string; confirmationCode: string } | undefined>(
        'SELECT status, confirmation_code AS "confirmationCode" FROM carts WHERE id = ?',
        cartId,
      ),
    intentsOfCart: (cartId: string) =>
      all<{ id: string; status: string; secretHash: string; amountMinor: number; currency: string; processor: string }>(
        'SELECT id, status, secret_hash AS "secretHash", amount_minor AS "amountMinor", currency, processor FROM payment_intents WHERE cart_id = ? ORDER BY attempt',
        cartId,
      ),
    balance: async (creditCodeId: string) =>
      (await one<{ b: number }>('SELECT balance_minor AS b FROM credit_codes WHERE id = ?', creditCodeId)).b,
    count: async (table: string) => (await one<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)).n,
  };
}
