import type { Db } from '../../src/db/sqlite/client.ts';

/** What a payment outcome may change, read straight from the database: bookings, intent, cart, places, credit, refunds. */
export function paymentState(db: Db) {
  const one = <T>(sql: string, ...args: unknown[]) => db.$client.prepare(sql).get(...args) as T;
  const all = <T>(sql: string, ...args: unknown[]) => db.$client.prepare(sql).all(...args) as T[];
  return {
    booking: (id: string) =>
      one<{ status: string; holdExpiresAt: string | null; refundedMinor: number }>(
        'SELECT status, hold_expires_at AS holdExpiresAt, amount_refunded_minor AS refundedMinor FROM bookings WHERE id = ?',
        id,
      ),
    intentStatus: (id: string) => one<{ status: string }>('SELECT status FROM payment_intents WHERE id = ?', id).status,
    cartStatus: (id: string) => one<{ status: string }>('SELECT status FROM carts WHERE id = ?', id).status,
    reserved: (sessionId: string) => one<{ reserved: number }>('SELECT reserved FROM sessions WHERE id = ?', sessionId).reserved,
    balance: (creditCodeId: string) => one<{ b: number }>('SELECT balance_minor AS b FROM credit_codes WHERE id = ?', creditCodeId).b,
    redemptions: (bookingId: string) =>
      all<{ amountMinor: number }>('SELECT amount_minor AS amountMinor FROM credit_redemptions WHERE booking_id = ?', bookingId),
    ledger: (bookingId: string) =>
      all<{ amountMinor: number; status: string }>(
        'SELECT amount_minor AS amountMinor, status FROM refunds WHERE booking_id = ? ORDER BY created_at, id',
        bookingId,
      ),
    cancelledAt: (bookingId: string) =>
      all<{ cancelledAt: string | null }>(
        'SELECT cancelled_at AS cancelledAt FROM participants WHERE booking_id = ? ORDER BY position',
        bookingId,
      ).map((p) => p.cancelledAt),
    /** Everything at once, to show an event changed nothing. */
    snapshot: () => ({
      bookings: all('SELECT id, status, hold_expires_at, amount_refunded_minor, updated_at FROM bookings ORDER BY id'),
      participants: all('SELECT id, cancelled_at FROM participants ORDER BY id'),
      intents: all('SELECT id, status, updated_at FROM payment_intents ORDER BY id'),
      carts: all('SELECT id, status FROM carts ORDER BY id'),
      sessions: all('SELECT id, reserved FROM sessions ORDER BY id'),
      credits: all('SELECT id, balance_minor FROM credit_codes ORDER BY id'),
      redemptions: all('SELECT id FROM credit_redemptions ORDER BY id'),
      refunds: all('SELECT id, status FROM refunds ORDER BY id'),
    }),
  };
}
