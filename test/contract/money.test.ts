import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../support/db.ts';
import { AT, contractFixtures, race } from './world.ts';

const db = await freshDb();
const { database } = db;
const fixtures = contractFixtures(db);

describe('store contract: money', () => {
  it('reserves refunds only up to the amount paid: 15 racing 10.00 reservations on 100.00, exactly 10 succeed', async () => {
    const booking = await fixtures.paidBooking(10_000);
    expect(await race(database, 15, (tx) => tx.cancellation.reserveRefundAmount(booking.id, 1_000, AT))).toBe(10);
    expect(await database.cancellation.reserveRefundAmount(booking.id, 1, AT)).toBe(false);
    await database.cancellation.releaseRefundAmount(booking.id, 2_500, AT);
    expect(await database.cancellation.reserveRefundAmount(booking.id, 2_501, AT)).toBe(false);
    expect(await database.cancellation.reserveRefundAmount(booking.id, 2_500, AT)).toBe(true);
  });

  it('redeems credit only while the balance covers it: 8 racing redemptions of 20.00 from 50.00, exactly 2 succeed', async () => {
    const credit = await fixtures.creditCode(5_000);
    const redeemed = await race(database, 8, (tx) =>
      tx.checkout.redeemCredit({ id: randomUUID(), bookingId: credit.bookingId, creditCodeId: credit.id, amountMinor: 2_000 }),
    );
    expect(redeemed).toBe(2);
    const [code] = await database.checkout.creditCodesByCode(credit.brandId, ['CONTRACT-CREDIT']);
    expect(code?.balanceMinor).toBe(1_000);
  });
});
