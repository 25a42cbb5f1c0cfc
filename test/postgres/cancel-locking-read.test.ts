/**
 * A cancel or refund unit reads its booking locked, in one statement (findBookingToCancel), with the
 * booking's pending refunds counted from the refunds table. A locking read that waited for another unit
 * gets the booking row as that unit left it, but the count as it was when the statement began: a unit
 * settling a refund writes the booking too (settleRefund), so the row tells the read it is newer than its
 * snapshot and the read is made again, now that it holds the lock. Without that, two refunds settled at
 * once would each count the other as pending and neither would mark the booking refunded.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { freshPostgresDb } from '../support/db.ts';
import { describePostgres, untilSomeoneWaitsForALock } from '../support/postgres.ts';

const AT = '2026-11-25T12:00:00.000Z';

describePostgres('a cancel or refund unit’s locking read of its booking', () => {
  let db: Awaited<ReturnType<typeof freshPostgresDb>>;
  let watcher: pg.Client;
  beforeAll(async () => {
    db = await freshPostgresDb();
    watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
  });
  afterAll(() => watcher?.end());

  const refunded = async () => {
    const brand = await createBrand(db);
    const { experience } = await createExperience(db, brand.id);
    const session = await createSession(db, experience, { capacity: 10 });
    const paid = await createPaidBooking(db, { brandId: brand.id, session, status: 'confirmed', amountMinor: 5000 });
    const effect = { cancel: false, participantIds: null, also: null };
    for (const id of ['refund-1-' + paid.booking.id, 'refund-2-' + paid.booking.id])
      expect(
        await db.database.cancellation.reservePendingRefund({ id, bookingId: paid.booking.id, amountMinor: 1000, effect, at: AT }),
      ).toBe(true);
    return paid.booking.id;
  };

  it('reads the booking and its pending refunds as they are when nothing waits', async () => {
    const bookingId = await refunded();
    const found = await db.database.transaction((tx) => tx.cancellation.findBookingToCancel(bookingId));
    expect([found!.booking.id, found!.booking.amountRefundedMinor, found!.pendingRefunds]).toStrictEqual([bookingId, 2000, 2]);
  });

  it('counts the refund another unit settled while it waited for that unit’s lock', async () => {
    const bookingId = await refunded();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let settledUnitRead = -1;
    // The settling unit as settleAnswer runs it: the refund settled, then the booking read (locked).
    const settling = db.database.transaction(async (tx) => {
      expect(await tx.refunds.settleRefund('refund-1-' + bookingId, 'succeeded', 're_1', AT)).toBe(true);
      settledUnitRead = (await tx.cancellation.findBookingToCancel(bookingId))!.pendingRefunds;
      await gate;
    });
    while (settledUnitRead < 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const reading = db.database.transaction((tx) => tx.cancellation.findBookingToCancel(bookingId));
    await untilSomeoneWaitsForALock(watcher);
    release();
    await settling;
    const found = await reading;
    expect(settledUnitRead).toBe(1);
    expect([found!.booking.amountRefundedMinor, found!.pendingRefunds]).toStrictEqual([2000, 1]);
  });
});
