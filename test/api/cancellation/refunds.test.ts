import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { TestProcessor } from '../../support/processors.ts';

const NOW = '2026-11-25T12:00:00.000Z';
const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const yenBrand = await createBrand(db, { currency: 'JPY', countryCode: 'JP' });
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const yenKey = (await createApiKey(db, { brandId: yenBrand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const { experience: yenExperience } = await createExperience(db, yenBrand.id, { timezoneId: 'Asia/Tokyo' });
const processor = new TestProcessor();
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(NOW), payments: processor });
});
beforeEach(() => {
  processor.refundCalls.length = 0;
  processor.failure = null;
  processor.delay = () => 0;
});

let day = 0;
async function session(exp = experience) {
  day += 1;
  return createSession(db, exp, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00` });
}
/** A paid booking of 100.00 EUR with two participants of 50.00 each (on a fresh session unless given one). */
const paid100 = async (s?: Awaited<ReturnType<typeof session>>, extra: Partial<Parameters<typeof createPaidBooking>[1]> = {}) =>
  createPaidBooking(db, {
    brandId: brand.id,
    session: s ?? (await session()),
    participants: [{ priceMinor: 5000 }, { priceMinor: 5000 }],
    ...extra,
  });

const reserved = (sessionId: string) => db.value<number>('SELECT reserved FROM sessions WHERE id = ?', sessionId);
const ledger = (bookingId: string) =>
  db.all<{ id: string; amountMinor: number; status: string; processorReference: string | null }>(
    'SELECT id, amount_minor AS "amountMinor", status, processor_reference AS "processorReference" FROM refunds WHERE booking_id = ? ORDER BY created_at, id',
    bookingId,
  );
const stored = (id: string) => db.one('SELECT status, amount_refunded_minor AS "refundedMinor" FROM bookings WHERE id = ?', id);
const cancel = (bookings: unknown[], key = brandKey) => t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings } });

describe('refunds through the processor', () => {
  it("refunds part of a booking: running total, a succeeded ledger row, the processor asked with the intent's reference", async () => {
    const s = await session();
    const { booking, intent } = await paid100(s);
    const res = await cancel([{ bookingId: booking.id, refundAmount: 30 }]);
    expect(res.body.errors).toEqual([]);
    expect(res.body.items[0]).toMatchObject({ status: 'confirmed', amount: 100, amountRefunded: 30 });
    const rows = await ledger(booking.id);
    expect(rows).toEqual([
      { id: expect.any(String), amountMinor: 3000, status: 'succeeded', processorReference: expect.stringMatching(/^re_sbx_/) },
    ]);
    expect(processor.refundCalls).toEqual([
      { intentReference: intent.processorReference, amountMinor: 3000, currency: 'EUR', idempotencyKey: rows[0]!.id },
    ]);
    expect(await reserved(s.id)).toBe(2);

    const rest = await cancel([{ bookingId: booking.id, refundAmount: 70 }]);
    expect(rest.body.items[0]).toMatchObject({ status: 'refunded', amountRefunded: 100 });
    // Refunded in full: a cancellation with refund, the places back with the guests who held them.
    expect(rest.body.items[0].participants.map((p: any) => p.cancelledAt)).toEqual([NOW, NOW]);
    expect(await reserved(s.id)).toBe(0);
  });

  it('refuses a refund above the balance, changing nothing and calling no processor', async () => {
    const { booking } = await paid100(await session(), { amountRefundedMinor: 9000 });
    const res = await cancel([{ bookingId: booking.id, refundAmount: 10.01 }]);
    expect(res.body.items).toEqual([]);
    expect(res.body.errors).toEqual([
      { index: 0, bookingId: booking.id, code: 'REFUND_EXCEEDS_BALANCE', message: expect.any(String), field: 'bookings.0.refundAmount' },
    ]);
    expect(await stored(booking.id)).toEqual({ status: 'confirmed', refundedMinor: 9000 });
    expect(await ledger(booking.id)).toEqual([]);
    expect(processor.refundCalls).toEqual([]);
  });

  it('cancels and refunds in one item: a partial refund leaves it cancelled, a full one refunded', async () => {
    const s = await session();
    const partial = (await paid100(s)).booking;
    const full = (await paid100(s)).booking;
    const res = await cancel([
      { bookingId: partial.id, cancel: true, refundAmount: 45.5 },
      { bookingId: full.id, cancel: true, refundAmount: 100 },
    ]);
    expect(res.body.errors).toEqual([]);
    expect(res.body.items.map((b: any) => [b.status, b.amountRefunded, b.participants.map((p: any) => p.cancelledAt)])).toEqual([
      ['cancelled', 45.5, [NOW, NOW]],
      ['refunded', 100, [NOW, NOW]],
    ]);
    expect(await reserved(s.id)).toBe(0);
  });

  it('refunds a cancelled booking that had been paid, up to refunded', async () => {
    const s = await session();
    const { booking } = await paid100(s);
    await cancel([{ bookingId: booking.id, cancel: true }]);
    const res = await cancel([{ bookingId: booking.id, refundAmount: 100 }]);
    expect(res.body.items[0]).toMatchObject({ status: 'refunded', amountRefunded: 100 });
    expect(await reserved(s.id)).toBe(0);
  });

  it('refunds part and cancels one participant in one item', async () => {
    const s = await session();
    const {
      booking,
      participants: [a],
    } = await paid100(s);
    const res = await cancel([{ bookingId: booking.id, participants: [a!.id], refundAmount: 50 }]);
    expect(res.body.items[0]).toMatchObject({ status: 'confirmed', amountRefunded: 50 });
    expect(res.body.items[0].participants.map((p: any) => p.cancelledAt)).toEqual([NOW, null]);
    expect(await reserved(s.id)).toBe(1);
  });

  it('leaves the booking unchanged when the processor declines: the ledger row is failed', async () => {
    processor.decline();
    const s = await session();
    const { booking } = await paid100(s);
    const res = await cancel([{ bookingId: booking.id, cancel: true, refundAmount: 20 }]);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([{ index: 0, bookingId: booking.id, code: 'PAYMENT_PROCESSOR_ERROR', message: expect.any(String) }]);
    expect(await stored(booking.id)).toEqual({ status: 'confirmed', refundedMinor: 0 });
    expect(await ledger(booking.id)).toEqual([{ id: expect.any(String), amountMinor: 2000, status: 'failed', processorReference: null }]);
    expect(await reserved(s.id)).toBe(2);
    const participants = await db.all('SELECT cancelled_at AS c FROM participants WHERE booking_id = ?', booking.id);
    expect(participants).toEqual([{ c: null }, { c: null }]);
  });

  it('keeps the amount reserved and the refund pending when the processor gives no answer', async () => {
    processor.failure = new Error('socket hang up');
    const { booking } = await paid100();
    const res = await cancel([{ bookingId: booking.id, refundAmount: 20 }]);
    expect(res.body.errors[0].code).toBe('PAYMENT_PROCESSOR_ERROR');
    expect((await ledger(booking.id)).map((r) => [r.amountMinor, r.status])).toEqual([[2000, 'pending']]);
    expect(await stored(booking.id)).toEqual({ status: 'confirmed', refundedMinor: 2000 });
    processor.failure = null;
    const over = await cancel([{ bookingId: booking.id, refundAmount: 80.01 }]);
    expect(over.body.errors[0].code).toBe('REFUND_EXCEEDS_BALANCE');
  });

  it('refuses refunds of bookings with nothing paid, and of failed ones', async () => {
    const s = await session();
    const processing = (await paid100(s, { status: 'processing', intentStatus: 'requires_payment' })).booking;
    const free = (await createBooking(db, { brandId: brand.id, session: s, participants: [{ priceMinor: 0 }] })).booking;
    const failed = (await createBooking(db, { brandId: brand.id, session: s, status: 'failed' })).booking;
    const res = await cancel([
      { bookingId: processing.id, refundAmount: 10 },
      { bookingId: free.id, refundAmount: 10 },
      { bookingId: failed.id, refundAmount: 10 },
    ]);
    expect(res.body.errors.map((e: any) => [e.index, e.code])).toEqual([
      [0, 'BOOKING_NOT_PAID'],
      [1, 'BOOKING_NOT_PAID'],
      [2, 'BOOKING_NOT_CANCELLABLE'],
    ]);
    expect(await stored(processing.id)).toEqual({ status: 'processing', refundedMinor: 0 });
    expect(processor.refundCalls).toEqual([]);
  });

  it('converts decimals exactly in the booking currency, refusing extra decimals for the item', async () => {
    const { booking } = await createPaidBooking(db, {
      brandId: yenBrand.id,
      session: await session(yenExperience),
      currency: 'JPY',
      participants: [{ priceMinor: 8000 }],
    });
    const res = await cancel([{ bookingId: booking.id, refundAmount: 1.5 }], yenKey);
    expect(res.body.errors).toEqual([
      { index: 0, bookingId: booking.id, code: 'VALIDATION_FAILED', message: expect.any(String), field: 'bookings.0.refundAmount' },
    ]);
    const ok = await cancel([{ bookingId: booking.id, refundAmount: 1500 }], yenKey);
    expect(ok.body.items[0]).toMatchObject({ currency: 'JPY', amount: 8000, amountRefunded: 1500 });
    expect(processor.refundCalls.map((c) => [c.amountMinor, c.currency])).toEqual([[1500, 'JPY']]);

    const eur = (await paid100()).booking;
    const fine = await cancel([{ bookingId: eur.id, refundAmount: 0.001 }]);
    expect(fine.body.errors[0]).toMatchObject({ code: 'VALIDATION_FAILED', field: 'bookings.0.refundAmount' });
    const cents = await cancel([{ bookingId: eur.id, refundAmount: 0.1 }]);
    expect(cents.body.items[0].amountRefunded).toBe(0.1);
    expect(await stored(eur.id)).toEqual({ status: 'confirmed', refundedMinor: 10 });
  });
});

describe('concurrent refunds of one booking', () => {
  it('never refund more than the amount: 40 racing refunds of 10.00 on 100.00 -> exactly 10 succeed', async () => {
    processor.delay = () => Math.floor(Math.random() * 15);
    const s = await session();
    const { booking } = await paid100(s);
    const responses = await Promise.all(Array.from({ length: 40 }, () => cancel([{ bookingId: booking.id, refundAmount: 10 }])));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses.filter((r) => r.body.items.length === 1)).toHaveLength(10);
    const refused = responses.filter((r) => r.body.errors.length === 1).map((r) => r.body.errors[0].code);
    expect(refused).toEqual(Array(30).fill('REFUND_EXCEEDS_BALANCE'));
    expect(await stored(booking.id)).toEqual({ status: 'refunded', refundedMinor: 10000 });
    const rows = await ledger(booking.id);
    expect(rows.map((r) => r.status)).toEqual(Array(10).fill('succeeded'));
    expect(rows.reduce((sum, r) => sum + r.amountMinor, 0)).toBe(10000);
    expect(processor.refundCalls).toHaveLength(10);
    expect(new Set(processor.refundCalls.map((c) => c.idempotencyKey)).size).toBe(10);
    expect(await reserved(s.id)).toBe(0);
  });
});

describe('GraphQL refunds', () => {
  it('refunds like REST and shows the same running total', async () => {
    const { booking } = await paid100();
    const res = await t.gql(
      `mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) { items { uuid status amountRefunded } errors { code } } }`,
      { input: { bookings: [{ bookingId: booking.id, refundAmount: 25.25 }] } },
      { key: brandKey },
    );
    expect(res.body.data.cancelBookings).toEqual({ items: [{ uuid: booking.id, status: 'CONFIRMED', amountRefunded: 25.25 }], errors: [] });
    expect(await stored(booking.id)).toEqual({ status: 'confirmed', refundedMinor: 2525 });
  });
});
