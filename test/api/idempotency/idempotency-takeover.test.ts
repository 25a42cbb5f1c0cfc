/**
 * An Idempotency-Key whose request was cut off (a crash) is not stuck for 24 hours: its record is held
 * under a lease (REQUEST_TIMEOUT_MS + 30 s), and a retry after the lease ended takes it over and runs
 * the request again, finishing what the cut-off run started instead of repeating it.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RefundCall } from '../../support/processors.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createCutOffRequest, createReservedRefund } from '../../../fixtures/factories/idempotency.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { paymentState } from '../../support/payment-state.ts';
import { TestProcessor } from '../../support/processors.ts';

/** The lease with the default REQUEST_TIMEOUT_MS (30 s) plus the 30 s margin. */
const LEASE_MS = 60_000;

/** The test processor whose next refund call hangs until `unstick()`: the call of a request cut off mid-way. */
class StickyProcessor extends TestProcessor {
  stickNext = false;
  private unstuck: Array<() => void> = [];
  private arrived: (() => void) | null = null;
  /** Resolves when the stuck call has started. */
  stuck: Promise<void> = Promise.resolve();

  stick(): void {
    this.stickNext = true;
    this.stuck = new Promise((resolve) => (this.arrived = resolve));
  }

  unstick(): void {
    for (const open of this.unstuck.splice(0)) open();
  }

  override async refund(input: RefundCall) {
    if (this.stickNext) {
      this.stickNext = false;
      this.arrived?.();
      await new Promise<void>((resolve) => this.unstuck.push(resolve));
    }
    return super.refund(input);
  }
}

const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const apiKey = await createApiKey(db, { brandId: brand.id });
const { experience } = await createExperience(db, brand.id);
const processor = new StickyProcessor();
const state = paymentState(db);
let clock = new Date('2026-11-25T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => clock, payments: processor });
});
beforeEach(() => {
  processor.refundCalls.length = 0;
});

let day = 0;
async function paidBooking() {
  day += 1;
  const session = await createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00` });
  return (await createPaidBooking(db, { brandId: brand.id, session, participants: [{ priceMinor: 5000 }, { priceMinor: 5000 }] })).booking;
}
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

async function post(url: string, payload: string, key: string) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey.secret}`, 'idempotency-key': key },
  });
  return { status: res.statusCode, body: res.body, replayed: res.headers['idempotent-replayed'] === 'true' };
}
const refundBody = (bookingId: string, amount: number, extra: object = {}) =>
  JSON.stringify({ bookings: [{ bookingId, refundAmount: amount, ...extra }] });
const cancelRefund = (bookingId: string, amount: number, key: string) => post('/v1/bookings/cancel', refundBody(bookingId, amount), key);
const ledger = (bookingId: string) =>
  db.all<{ id: string; amountMinor: number; status: string }>(
    'SELECT id, amount_minor AS "amountMinor", status FROM refunds WHERE booking_id = ?',
    bookingId,
  );
const eventTypes = (bookingId: string) => db.values<string>('SELECT type FROM events WHERE resource_id = ? ORDER BY sequence', bookingId);
const inUse = { code: 'IDEMPOTENCY_KEY_IN_USE', message: 'A request with this Idempotency-Key is still being processed; retry later' };

describe('a running Idempotency-Key whose lease ended', () => {
  it('answers 409 while the lease lasts, then is taken over: the request runs again, and its answer is stored and replayed', async () => {
    const booking = await paidBooking();
    processor.stick();
    const cutOff = cancelRefund(booking.id, 10, 'cut-1');
    await processor.stuck;

    const early = await cancelRefund(booking.id, 10, 'cut-1');
    expect(early.status).toBe(409);
    expect(JSON.parse(early.body).error).toMatchObject(inUse);
    later(LEASE_MS - 1);
    expect((await cancelRefund(booking.id, 10, 'cut-1')).status).toBe(409);

    later(1);
    const retry = await cancelRefund(booking.id, 10, 'cut-1');
    expect(retry.status).toBe(200);
    expect(retry.replayed).toBe(false);
    expect(JSON.parse(retry.body)).toMatchObject({ items: [{ id: booking.id, amountRefunded: 10 }], errors: [] });
    // The re-run found the refund the cut-off run reserved and finished that one: one refund, asked with its own key.
    const [refund] = await ledger(booking.id);
    expect(await ledger(booking.id)).toEqual([{ id: refund!.id, amountMinor: 1000, status: 'succeeded' }]);
    expect(processor.refundCalls.map((c) => c.idempotencyKey)).toEqual([refund!.id]);
    expect(await state.booking(booking.id)).toMatchObject({ refundedMinor: 1000 });

    const replay = await cancelRefund(booking.id, 10, 'cut-1');
    expect(replay).toEqual({ status: 200, body: retry.body, replayed: true });

    // The overtaken run ends too: its settlement finds the refund settled and changes nothing.
    processor.unstick();
    expect((await cutOff).status).toBe(200);
    expect(await ledger(booking.id)).toEqual([{ id: refund!.id, amountMinor: 1000, status: 'succeeded' }]);
    expect(processor.refundCalls.map((c) => c.idempotencyKey)).toEqual([refund!.id, refund!.id]);
    expect(await state.booking(booking.id)).toMatchObject({ refundedMinor: 1000 });
    expect(await eventTypes(booking.id)).toEqual(['booking.refunded']);
    expect(await cancelRefund(booking.id, 10, 'cut-1')).toEqual({ status: 200, body: retry.body, replayed: true });
  });

  it('is taken over by one of two racing retries; the other gets 409', async () => {
    const booking = await paidBooking();
    processor.stick();
    const cutOff = cancelRefund(booking.id, 10, 'cut-2');
    await processor.stuck;
    later(LEASE_MS);
    // The retry that takes over waits at the processor, so the other one meets its fresh lease.
    processor.hold();
    let answered = 0;
    const retries = [cancelRefund(booking.id, 10, 'cut-2'), cancelRefund(booking.id, 10, 'cut-2')].map((retry) =>
      retry.finally(() => (answered += 1)),
    );
    await vi.waitFor(() => expect(processor.refundCalls).toHaveLength(1));
    // The other retry is answered while the first still waits at the processor (on a loaded machine it may
    // arrive late: released before then, the first would finish and the late one be a replay instead).
    await vi.waitFor(() => expect(answered).toBe(1), { timeout: 10_000 });
    processor.release();
    const racing = await Promise.all(retries);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(racing.map((r) => r.replayed)).toEqual([false, false]);
    expect(processor.refundCalls).toHaveLength(1);
    processor.unstick();
    await cutOff;
    expect((await ledger(booking.id)).map((r) => r.status)).toEqual(['succeeded']);
    expect(await state.booking(booking.id)).toMatchObject({ refundedMinor: 1000 });
  });

  it('finishes the refund a crashed run reserved (phase 1 committed) instead of making a second one', async () => {
    const booking = await paidBooking();
    const body = refundBody(booking.id, 30, { cancel: true });
    const started = new Date(clock.getTime() - LEASE_MS);
    const ids = await createCutOffRequest(db, {
      apiKeyId: apiKey.id,
      key: 'crashed-1',
      url: '/v1/bookings/cancel',
      body,
      at: started,
      leaseExpiresAt: clock,
    });
    const refundId = ids();
    await createReservedRefund(db, {
      id: refundId,
      bookingId: booking.id,
      amountMinor: 3000,
      effect: { cancel: true, participantIds: null, also: null },
      at: started,
    });

    const retry = await post('/v1/bookings/cancel', body, 'crashed-1');
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.body)).toMatchObject({ items: [{ id: booking.id, status: 'cancelled', amountRefunded: 30 }], errors: [] });
    expect(await ledger(booking.id)).toEqual([{ id: refundId, amountMinor: 3000, status: 'succeeded' }]);
    expect(processor.refundCalls.map((c: RefundCall) => [c.idempotencyKey, c.amountMinor])).toEqual([[refundId, 3000]]);
    expect(await state.booking(booking.id)).toMatchObject({ status: 'cancelled', refundedMinor: 3000 });
    expect(await eventTypes(booking.id)).toEqual(['booking.cancelled', 'booking.refunded']);
    expect((await post('/v1/bookings/cancel', body, 'crashed-1')).replayed).toBe(true);
  });

  it('through GraphQL too, and for a record written before leases existed (its lease counted from its creation)', async () => {
    const booking = await paidBooking();
    const query =
      'mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) { items { uuid amountRefunded } errors { code } } }';
    const body = JSON.stringify({ query, variables: { input: { bookings: [{ bookingId: booking.id, refundAmount: 20 }] } } });
    const ids = await createCutOffRequest(db, {
      apiKeyId: apiKey.id,
      key: 'crashed-gql',
      url: '/graphql',
      body,
      at: clock,
      leaseExpiresAt: null,
    });
    const refundId = ids();
    await createReservedRefund(db, {
      id: refundId,
      bookingId: booking.id,
      amountMinor: 2000,
      effect: { cancel: false, participantIds: null, also: null },
      at: clock,
    });

    later(LEASE_MS - 1);
    const early = await post('/graphql', body, 'crashed-gql');
    expect([early.status, JSON.parse(early.body).errors[0].extensions.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    later(1);
    const retry = await post('/graphql', body, 'crashed-gql');
    expect(JSON.parse(retry.body).data.cancelBookings).toEqual({ items: [{ uuid: booking.id, amountRefunded: 20 }], errors: [] });
    expect(await ledger(booking.id)).toEqual([{ id: refundId, amountMinor: 2000, status: 'succeeded' }]);
    expect(await state.booking(booking.id)).toMatchObject({ refundedMinor: 2000 });
  });

  it('is never taken over by another request with the same key: 422 as ever', async () => {
    const booking = await paidBooking();
    await createCutOffRequest(db, {
      apiKeyId: apiKey.id,
      key: 'crashed-2',
      url: '/v1/bookings/cancel',
      body: refundBody(booking.id, 10),
      at: clock,
      leaseExpiresAt: clock,
    });
    later(1);
    const other = await cancelRefund(booking.id, 11, 'crashed-2');
    expect(other.status).toBe(422);
    expect(JSON.parse(other.body).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await ledger(booking.id)).toEqual([]);
  });
});
