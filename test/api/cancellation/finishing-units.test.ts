/**
 * A request's deadline drops a unit of work that has not committed, and the client is told 503 OVERLOADED
 * ("nothing was written": retry). That holds only while the request has written nothing. Once one of its
 * units has committed (a refund reserved and sent to the processor, an earlier item of a cancel request
 * done), the rest of the request is finished whatever the deadline: dropping it would leave the work half
 * done while the client is told to retry, and its retry would do again what was done (a second refund).
 */
import { describe, expect, it } from 'vitest';
import { admissionDefaults } from '../../../src/db/admission.ts';
import { startApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { TestProcessor } from '../../support/processors.ts';
import { holdEveryTurn } from '../../support/turns.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';

const NOW = '2026-11-25T12:00:00.000Z';
/** The smallest REQUEST_TIMEOUT_MS the configuration takes. */
const DEADLINE_MS = 1_000;
const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const processor = new TestProcessor();
const t = await startApp(db, { now: () => new Date(NOW), payments: processor, http: { REQUEST_TIMEOUT_MS: DEADLINE_MS } });

let day = 0;
/** A paid booking of 100.00 EUR, two guests of 50.00, on a session of its own. */
async function paid100() {
  day += 1;
  const session = await createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00` });
  return (await createPaidBooking(db, { brandId: brand.id, session, participants: [{ priceMinor: 5000 }, { priceMinor: 5000 }] })).booking;
}

const cancel = (bookings: unknown[]) => t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings } });
const ledger = (bookingId: string) =>
  db.all<{ amountMinor: number; status: string }>(
    'SELECT amount_minor AS "amountMinor", status FROM refunds WHERE booking_id = ? ORDER BY created_at, id',
    bookingId,
  );
const refunded = (bookingId: string) => db.value<number>('SELECT amount_refunded_minor FROM bookings WHERE id = ?', bookingId);
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('a request that has written finishes, whatever its deadline', () => {
  it(`settles a refund whose settlement waited for its turn longer than WRITE_QUEUE_TIMEOUT_MS (${admissionDefaults.queueTimeoutMs} ms)`, async () => {
    const booking = await paid100();
    processor.hold();
    const answer = cancel([{ bookingId: booking.id, refundAmount: 30 }]);
    // The reservation has committed and the processor is refunding: then every turn is taken.
    await until(() => processor.refundCalls.length === 1);
    const turns = await holdEveryTurn(db);
    processor.release();
    await new Promise((resolve) => setTimeout(resolve, admissionDefaults.queueTimeoutMs + 300));
    await turns.release();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.items.map((b: any) => [b.id, b.amountRefunded])).toEqual([[booking.id, 30]]);
    expect(await ledger(booking.id)).toEqual([{ amountMinor: 3000, status: 'succeeded' }]);
    expect(processor.refundCalls).toHaveLength(1);
  });

  it('finishes the items after one that committed once the deadline has passed: every item done, the 200 says so', async () => {
    processor.refundCalls.length = 0;
    const first = await paid100();
    const second = await paid100();
    processor.hold();
    const answer = cancel([
      { bookingId: first.id, refundAmount: 20 },
      { bookingId: second.id, cancel: true, refundAmount: 100 },
    ]);
    await until(() => processor.refundCalls.length === 1);
    // The first refund is answered after the request's deadline has passed.
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS + 200));
    processor.release();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.items.map((b: any) => [b.id, b.status, b.amountRefunded])).toEqual([
      [first.id, 'confirmed', 20],
      [second.id, 'refunded', 100],
    ]);
    expect([await refunded(first.id), await refunded(second.id)]).toEqual([2000, 10000]);
    expect(processor.refundCalls.map((c) => c.amountMinor)).toEqual([2000, 10000]);
  });

  it('still drops a request that has written nothing when its deadline passes: 503, nothing written', async () => {
    const booking = await paid100();
    const turns = await holdEveryTurn(db);
    const answer = cancel([{ bookingId: booking.id, refundAmount: 30 }]);
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS + 300));
    await turns.release();
    const res = await answer;
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('OVERLOADED');
    expect(res.headers['retry-after']).toBeDefined();
    expect(await ledger(booking.id)).toEqual([]);
    expect(await refunded(booking.id)).toBe(0);
  });
});
