/**
 * A unit's read of the bookings an intent pays for locks them as it reads them (one statement). A locking
 * read that waits for another unit gets the booking as that unit left it but what it counts from other
 * rows (the active participants) as it was when the statement began: the store must see that the row is
 * newer than its snapshot and read again, now that it holds the lock. So must a payment's read of its
 * bookings with its cart's checkouts (paymentOfIntent), the same locking read, and a payment's settling of
 * its intent with that read in the same statement (settleIntentWithPayment), which also sees that the
 * intent it locked is newer than its snapshot and reads the payment again.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { freshPostgresDb } from '../support/db.ts';
import { describePostgres, untilSomeoneWaitsForALock } from '../support/postgres.ts';
import type { Stores } from '../../src/domain/shared/database.ts';

describePostgres('locking reads of an intent’s bookings', () => {
  let db: Awaited<ReturnType<typeof freshPostgresDb>>;
  let other: pg.Client;
  beforeAll(async () => {
    db = await freshPostgresDb();
    other = new pg.Client({ connectionString: db.url });
    await other.connect();
  });
  afterAll(() => other?.end());

  const booked = async () => {
    const brand = await createBrand(db);
    const { experience } = await createExperience(db, brand.id);
    const session = await createSession(db, experience, { capacity: 10 });
    return createPaidBooking(db, {
      brandId: brand.id,
      session,
      status: 'processing',
      intentStatus: 'requires_payment',
      participants: [{ firstName: 'Ana' }, { firstName: 'Rui' }],
    });
  };

  type Intent = { id: string; cartId: string; processorReference: string };
  const settle = (tx: Stores, intent: Intent) =>
    tx.payments.settleIntentWithPayment(
      { processor: 'sandbox', reference: intent.processorReference },
      'succeeded',
      ['requires_payment'],
      '2026-11-25T12:00:00.000Z',
    );

  it('reads the bookings with their active participants, their view’s record and no other field when nothing waits', async () => {
    const { booking, intent } = await booked();
    const rows = await db.database.transaction((tx) => tx.payments.bookingsOfIntent(intent.id));
    expect(rows).toStrictEqual([expect.objectContaining({ id: booking.id, status: 'processing', activeParticipants: 2 })]);
    expect(Object.keys(rows[0]!).sort()).toStrictEqual(
      [
        'activeParticipants',
        'amountMinor',
        'amountRefundedMinor',
        'brandId',
        'currency',
        'id',
        'pricing',
        'publishableHold',
        'record',
        'sessionId',
        'status',
      ].sort(),
    );
  });

  // bookingsOfIntent, and paymentOfIntent (the same locking read, with the cart's checkouts beside it).
  const readers = {
    bookingsOfIntent: (tx: Stores, intent: Intent) => tx.payments.bookingsOfIntent(intent.id),
    paymentOfIntent: async (tx: Stores, intent: Intent) => (await tx.payments.paymentOfIntent(intent)).bookings,
    settleIntentWithPayment: async (tx: Stores, intent: Intent) => (await settle(tx, intent))!.payment!.bookings,
  };

  it.each(Object.keys(readers) as Array<keyof typeof readers>)(
    '%s counts the participants another unit cancelled while it waited for that unit’s lock',
    async (reader) => {
      const { booking, participants, intent } = await booked();
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM bookings WHERE id = $1 FOR NO KEY UPDATE', [booking.id]);
      await other.query('UPDATE participants SET cancelled_at = $2 WHERE id = $1', [participants[1]!.id, '2026-11-25T12:00:00.000Z']);
      await other.query('UPDATE bookings SET updated_at = $2 WHERE id = $1', [booking.id, '2026-11-25T12:00:00.000Z']);
      const reading = db.database.transaction((tx) => readers[reader](tx, intent));
      // The read has begun (its snapshot taken) and waits for the other unit's lock.
      await untilSomeoneWaitsForALock(other);
      await other.query('COMMIT');
      const rows = await reading;
      expect(rows.map((row) => [row.id, row.activeParticipants])).toStrictEqual([[booking.id, 1]]);
    },
  );

  it('settleIntentWithPayment reads the cart’s checkouts again when a unit holding its intent added a checkout meanwhile', async () => {
    const { booking, intent } = await booked();
    await other.query('BEGIN');
    await other.query('UPDATE payment_intents SET updated_at = $2 WHERE id = $1', [intent.id, '2026-11-25T11:00:00.000Z']);
    await other.query(
      `INSERT INTO payment_intents (id, brand_id, cart_id, attempt, processor, processor_reference, secret_hash, amount_minor,
        currency, status, created_at, updated_at)
       SELECT 'newer-' || id, brand_id, cart_id, 2, processor, 'pi_newer_' || id, 'newer-' || secret_hash, 0, currency,
        'requires_payment', '2026-11-25T11:00:00.000Z', '2026-11-25T11:00:00.000Z' FROM payment_intents WHERE id = $1`,
      [intent.id],
    );
    const reading = db.database.transaction((tx) => settle(tx, intent));
    await untilSomeoneWaitsForALock(other);
    await other.query('COMMIT');
    const settled = await reading;
    expect(settled!.changed).toBe(true);
    expect(settled!.payment!.checkouts.intents.map((i) => i.id)).toStrictEqual(['newer-' + intent.id, intent.id]);
    expect(settled!.payment!.bookings.map((b) => b.id)).toStrictEqual([booking.id]);
  });
});
