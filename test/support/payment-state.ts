import type { TestDb } from './db.ts';

/** What a payment outcome may change, read straight from the database: bookings, intent, cart, places, credit, refunds. */
export function paymentState(db: TestDb) {
  const one = async <T>(sql: string, ...args: unknown[]) => (await db.one<T>(sql, ...args)) as T;
  const all = <T>(sql: string, ...args: unknown[]) => db.all<T>(sql, ...args);
  const value = async <T>(sql: string, ...args: unknown[]) => (await db.value(sql, ...args)) as T;
  return {
    booking: (id: string) =>
      one<{ status: string; holdExpiresAt: string | null; refundedMinor: number }>(
        'SELECT status, hold_expires_at AS "holdExpiresAt", amount_refunded_minor AS "refundedMinor" FROM bookings WHERE id = ?',
        id,
      ),
    intentStatus: (id: string) => value<string>('SELECT status FROM payment_intents WHERE id = ?', id),
    cartStatus: (id: string) => value<string>('SELECT status FROM carts WHERE id = ?', id),
    reserved: (sessionId: string) => value<number>('SELECT reserved FROM sessions WHERE id = ?', sessionId),
    balance: (creditCodeId: string) => value<number>('SELECT balance_minor FROM credit_codes WHERE id = ?', creditCodeId),
    redemptions: (bookingId: string) =>
      all<{ amountMinor: number }>('SELECT amount_minor AS "amountMinor" FROM credit_redemptions WHERE booking_id = ?', bookingId),
    ledger: (bookingId: string) =>
      all<{ amountMinor: number; status: string }>(
        'SELECT amount_minor AS "amountMinor", status FROM refunds WHERE booking_id = ? ORDER BY created_at, id',
        bookingId,
      ),
    cancelledAt: (bookingId: string) =>
      db.values<string | null>('SELECT cancelled_at FROM participants WHERE booking_id = ? ORDER BY position', bookingId),
    /** Everything at once, to show an event changed nothing. */
    snapshot: async () => ({
      bookings: await all('SELECT id, status, hold_expires_at, amount_refunded_minor, updated_at FROM bookings ORDER BY id'),
      participants: await all('SELECT id, cancelled_at FROM participants ORDER BY id'),
      intents: await all('SELECT id, status, updated_at FROM payment_intents ORDER BY id'),
      carts: await all('SELECT id, status FROM carts ORDER BY id'),
      sessions: await all('SELECT id, reserved FROM sessions ORDER BY id'),
      credits: await all('SELECT id, balance_minor FROM credit_codes ORDER BY id'),
      redemptions: await all('SELECT id FROM credit_redemptions ORDER BY id'),
      refunds: await all('SELECT id, status FROM refunds ORDER BY id'),
    }),
  };
}
