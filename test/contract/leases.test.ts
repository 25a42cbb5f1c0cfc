import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../support/db.ts';
import { AT, contractFixtures, later, race } from './world.ts';

const db = await freshDb();
const { database } = db;
const fixtures = contractFixtures(db);

describe('store contract: leases and idempotency records', () => {
  it('lets exactly one of racing takeovers have an Idempotency-Key record whose lease it read', async () => {
    const apiKeyId = randomUUID();
    await database.idempotency.insertRunningRecord({ apiKeyId, key: 'k', requestHash: 'h', leaseExpiresAt: AT, createdAt: AT });
    const seen = (await database.idempotency.findIdempotencyRecord(apiKeyId, 'k'))!.leaseExpiresAt;
    expect(await race(database, 6, (tx, i) => tx.idempotency.takeOverRecord(apiKeyId, 'k', seen, later(i + 1)))).toBe(1);
    expect(await database.idempotency.takeOverRecord(apiKeyId, 'k', seen, later(60))).toBe(false);
  });

  it('refuses a second running record for the same key', async () => {
    const row = { apiKeyId: randomUUID(), key: 'k', requestHash: 'h', leaseExpiresAt: AT, createdAt: AT };
    await database.idempotency.insertRunningRecord(row);
    await expect(database.idempotency.insertRunningRecord(row)).rejects.toThrow();
  });

  it('leases a pending refund to exactly one of racing reconcilers', async () => {
    const booking = await fixtures.paidBooking(5_000);
    const id = randomUUID();
    await database.transaction(async (tx) => {
      expect(await tx.cancellation.reserveRefundAmount(booking.id, 1_000, AT)).toBe(true);
      await tx.refunds.insertPendingRefund({
        id,
        bookingId: booking.id,
        amountMinor: 1_000,
        effect: { cancel: false, participantIds: null, also: null },
        at: AT,
      });
    });
    const seen = (await database.refunds.findRefund(id))!.nextAttemptAt!;
    expect(await race(database, 5, (tx, i) => tx.refunds.leaseRefund(id, seen, `2026-11-25T12:0${i}:00.000Z`))).toBe(1);
  });
});
