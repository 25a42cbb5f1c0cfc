/**
 * Refunds left `pending` (the processor gave no answer, or the process died between reserving and
 * settling) are finished by the reconciler: asked again with the same idempotency key, settled exactly
 * as the request would have settled them, once, whoever races.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  reconcileRefunds,
  refundReconcilerDefaults,
  type RefundReconcilerDeps,
} from '../../../src/domain/cancellation/refund-reconciler.ts';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createCheckout } from '../../../fixtures/factories/checkouts.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { sample, scrape } from '../../support/metrics.ts';
import { paymentState } from '../../support/payment-state.ts';
import { TestProcessor } from '../../support/processors.ts';

const START = new Date('2026-11-25T12:00:00.000Z');
const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const processor = new TestProcessor({ now: () => clock });
const state = paymentState(db);
let clock = START;
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => clock, payments: processor });
});

const logs: Array<{ level: string; message: string; details: any }> = [];
const observed: unknown[] = [];
const logAt = (level: string) => (details: object, message: string) => logs.push({ level, message, details });
const deps: RefundReconcilerDeps = {
  db: db.database,
  now: () => clock,
  payments: processor,
  holdTtlSeconds: 900,
  waitlistOfferTtlSeconds: 86_400,
  observer: { refundFinished: (refund) => observed.push(refund) },
  log: { info: logAt('info'), warn: logAt('warn'), error: logAt('error') },
};
const pass = () => reconcileRefunds(deps, refundReconcilerDefaults);
const later = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

beforeEach(() => {
  processor.refundCalls.length = 0;
  processor.failure = null;
  logs.length = 0;
  observed.length = 0;
});

let day = 0;
async function paid100() {
  day += 1;
  const session = await createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00` });
  return {
    session,
    ...(await createPaidBooking(db, { brandId: brand.id, session, participants: [{ priceMinor: 5000 }, { priceMinor: 5000 }] })),
  };
}
const cancel = (bookings: unknown[]) => t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings } });
const refundRows = (bookingId: string) =>
  db.all<{
    id: string;
    amountMinor: number;
    status: string;
    attempts: number;
    nextAttemptAt: string | null;
    lastError: string | null;
  }>(
    'SELECT id, amount_minor AS "amountMinor", status, attempts, next_attempt_at AS "nextAttemptAt", last_error AS "lastError" FROM refunds WHERE booking_id = ?',
    bookingId,
  );
const ledgerSum = (bookingId: string) =>
  db.value<number>(
    "SELECT coalesce(sum(amount_minor), 0) FROM refunds WHERE booking_id = ? AND status IN ('pending', 'succeeded')",
    bookingId,
  );
const eventTypes = (bookingId: string) => db.values<string>('SELECT type FROM events WHERE resource_id = ? ORDER BY sequence', bookingId);
const nothing = { succeeded: 0, failed: 0, unanswered: 0, abandoned: 0 };

/** A refund of `amount` (with `extra`: cancel, participants) that the processor did not answer. */
async function unanswered(bookingId: string, amount: number, extra: object = {}) {
  processor.failure = new Error('socket hang up');
  const res = await cancel([{ bookingId, refundAmount: amount, ...extra }]);
  expect(res.body.errors).toEqual([
    { index: 0, bookingId, code: 'PAYMENT_PROCESSOR_ERROR', message: expect.stringContaining('did not answer') },
  ]);
  processor.failure = null;
  processor.refundCalls.length = 0;
  return (await refundRows(bookingId))[0]!;
}

describe('a refund the processor did not answer', () => {
  it('stays pending with its amount reserved and its cancellation not applied, until a pass settles it once', async () => {
    const whole = await paid100();
    const part = await paid100();
    const [first] = part.participants;
    processor.failure = new Error('socket hang up');
    const res = await cancel([
      { bookingId: whole.booking.id, cancel: true, refundAmount: 100 },
      { bookingId: part.booking.id, participants: [first!.id], refundAmount: 50 },
    ]);
    expect(res.body.errors.map((e: any) => e.code)).toEqual(['PAYMENT_PROCESSOR_ERROR', 'PAYMENT_PROCESSOR_ERROR']);
    processor.failure = null;
    const wholeRefund = (await refundRows(whole.booking.id))[0]!;
    expect(wholeRefund).toEqual({
      id: expect.any(String),
      amountMinor: 10000,
      status: 'pending',
      attempts: 1,
      nextAttemptAt: START.toISOString(),
      lastError: 'Error: socket hang up',
    });
    expect(await state.booking(whole.booking.id)).toMatchObject({ status: 'confirmed', refundedMinor: 10000 });
    expect(await state.cancelledAt(whole.booking.id)).toEqual([null, null]);
    expect(await state.cancelledAt(part.booking.id)).toEqual([null, null]);
    expect([await state.reserved(whole.session.id), await state.reserved(part.session.id)]).toEqual([2, 2]);
    expect([await eventTypes(whole.booking.id), await eventTypes(part.booking.id)]).toEqual([[], []]);
    processor.refundCalls.length = 0;

    later(61);
    expect(await pass()).toEqual({ ...nothing, succeeded: 2 });
    // Asked again with each refund's own id as idempotency key (refunds due at once come in id order).
    expect(processor.refundCalls.map((c) => [c.idempotencyKey, c.amountMinor]).sort()).toEqual(
      [
        [wholeRefund.id, 10000],
        [(await refundRows(part.booking.id))[0]!.id, 5000],
      ].sort(),
    );
    const at = clock.toISOString();
    expect(await state.booking(whole.booking.id)).toMatchObject({ status: 'refunded', refundedMinor: 10000 });
    expect(await state.cancelledAt(whole.booking.id)).toEqual([at, at]);
    expect(await state.booking(part.booking.id)).toMatchObject({ status: 'confirmed', refundedMinor: 5000 });
    expect(await state.cancelledAt(part.booking.id)).toEqual([at, null]);
    expect([await state.reserved(whole.session.id), await state.reserved(part.session.id)]).toEqual([0, 1]);
    expect(await eventTypes(whole.booking.id)).toEqual(['booking.cancelled', 'booking.refunded']);
    expect(await eventTypes(part.booking.id)).toEqual(['booking.participants_cancelled', 'booking.refunded']);
    expect([await ledgerSum(whole.booking.id), await ledgerSum(part.booking.id)]).toEqual([10000, 5000]);
    expect((await refundRows(whole.booking.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2, nextAttemptAt: null });
    expect(observed).toHaveLength(2);
    expect(observed).toEqual(
      expect.arrayContaining([
        { outcome: 'succeeded', amountMinor: 10000, currency: 'EUR' },
        { outcome: 'succeeded', amountMinor: 5000, currency: 'EUR' },
      ]),
    );
    const shown = await t.rest('GET', `/v1/bookings/${whole.booking.id}`, { key });
    expect(shown.body).toMatchObject({ status: 'refunded', amount: 100, amountRefunded: 100 });

    // Settled is settled: a later pass asks nothing and writes nothing.
    later(3600);
    expect(await pass()).toEqual(nothing);
    expect(processor.refundCalls).toHaveLength(2);
    expect(await eventTypes(whole.booking.id)).toEqual(['booking.cancelled', 'booking.refunded']);
  });

  it('is failed and its amount released when the processor declines it on retry; nothing else changes', async () => {
    const { booking, session } = await paid100();
    await unanswered(booking.id, 30, { cancel: true });
    later(61);
    processor.decline();
    expect(await pass()).toEqual({ ...nothing, failed: 1 });
    expect((await refundRows(booking.id))[0]).toMatchObject({ status: 'failed', attempts: 2, nextAttemptAt: null });
    expect(await state.booking(booking.id)).toMatchObject({ status: 'confirmed', refundedMinor: 0 });
    expect(await state.cancelledAt(booking.id)).toEqual([null, null]);
    expect(await state.reserved(session.id)).toBe(2);
    expect(await eventTypes(booking.id)).toEqual([]);
    expect(observed).toEqual([{ outcome: 'declined', amountMinor: 3000, currency: 'EUR' }]);
  });

  it('is left alone inside the grace period, where its own request may still be asking', async () => {
    const { booking } = await paid100();
    await unanswered(booking.id, 10);
    later(59);
    expect(await pass()).toEqual(nothing);
    expect(processor.refundCalls).toEqual([]);
    later(1);
    expect(await pass()).toEqual({ ...nothing, succeeded: 1 });
  });

  it('asks the processor once when two passes race for it', async () => {
    const { booking } = await paid100();
    await unanswered(booking.id, 10);
    later(61);
    processor.hold();
    const racing = [pass(), pass()];
    await vi.waitFor(() => expect(processor.refundCalls).toHaveLength(1));
    processor.release();
    // Either pass may win the lease; the other finds nothing left to do.
    const outcomes = await Promise.all(racing);
    expect([...outcomes].sort((a, b) => b.succeeded - a.succeeded)).toEqual([{ ...nothing, succeeded: 1 }, nothing]);
    expect(processor.refundCalls).toHaveLength(1);
    expect(await state.booking(booking.id)).toMatchObject({ refundedMinor: 1000 });
  });

  it('is leased by one process only: a second lease on what the first read changes nothing', async () => {
    const { booking } = await paid100();
    const refund = await unanswered(booking.id, 10);
    later(61);
    const refunds = db.database.refunds;
    const [seen] = (await refunds.dueRefunds(clock.toISOString(), clock.toISOString(), 10)).filter((r) => r.id === refund.id);
    const until = new Date(clock.getTime() + 300_000).toISOString();
    expect(await refunds.leaseRefund(refund.id, seen!.nextAttemptAt!, until)).toBe(true);
    expect(await refunds.leaseRefund(refund.id, seen!.nextAttemptAt!, until)).toBe(false);
    expect(await pass()).toEqual(nothing);
    later(300);
    expect(await pass()).toEqual({ ...nothing, succeeded: 1 });
  });

  it('stays pending after no answer again, asked again after a doubling wait', async () => {
    const { booking } = await paid100();
    await unanswered(booking.id, 10);
    later(61);
    processor.failure = new Error('ETIMEDOUT');
    expect(await pass()).toEqual({ ...nothing, unanswered: 1 });
    // Its second attempt: 60 s doubled.
    const retryAt = new Date(clock.getTime() + 120_000).toISOString();
    expect((await refundRows(booking.id))[0]).toMatchObject({
      status: 'pending',
      attempts: 2,
      nextAttemptAt: retryAt,
      lastError: 'Error: ETIMEDOUT',
    });
    expect(await state.booking(booking.id)).toMatchObject({ refundedMinor: 1000 });
    expect(logs.map((l) => [l.level, l.details.attempts])).toEqual([['warn', 2]]);
    expect(observed).toEqual([{ outcome: 'unknown', amountMinor: 1000, currency: 'EUR' }]);
    processor.failure = null;
    later(119);
    expect(await pass()).toEqual(nothing);
    later(1);
    expect(await pass()).toEqual({ ...nothing, succeeded: 1 });
    expect((await refundRows(booking.id))[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
  });

  it('is no longer asked about after 23 hours: it stays pending and an error is logged each time it comes due', async () => {
    const { booking } = await paid100();
    const refund = await unanswered(booking.id, 10);
    later(23 * 3600);
    expect(await pass()).toEqual({ ...nothing, abandoned: 1 });
    expect(processor.refundCalls).toEqual([]);
    expect(logs).toEqual([
      {
        level: 'error',
        message: expect.stringContaining('REFUND_RECONCILE_MAX_AGE_SECONDS'),
        details: expect.objectContaining({ refundId: refund.id }),
      },
    ]);
    expect(await pass()).toEqual(nothing);
    later(3600);
    expect(await pass()).toEqual({ ...nothing, abandoned: 1 });
    expect(logs.map((l) => l.level)).toEqual(['error', 'error']);
    expect((await refundRows(booking.id))[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await state.booking(booking.id)).toMatchObject({ refundedMinor: 1000 });
    // Out of the way of the other tests' passes.
    await db.run("UPDATE refunds SET status = 'failed' WHERE id = ?", refund.id);
    await db.run('UPDATE bookings SET amount_refunded_minor = 0 WHERE id = ?', booking.id);
  });
});

describe('a late payment refunded without an answer', () => {
  it('is settled by the reconciler with the bookkeeping its payment event left: the cart becomes paid', async () => {
    day += 1;
    const session = await createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00` });
    // Held from now, as a checkout made now is: the factory's hold (12:15 on the first day) lapsed as earlier
    // tests moved the clock on, and the app's hold sweeper, every 5 s, would fail the bookings under the test.
    const overrides = { holdExpiresAt: new Date(clock.getTime() + 900_000).toISOString() };
    const co = await createCheckout(db, {
      brandId: brand.id,
      items: [
        { session, overrides },
        { session, overrides },
      ],
    });
    const [kept, cancelled] = co.bookings.map((b) => b.booking.id) as [string, string];
    expect((await cancel([{ bookingId: cancelled, cancel: true }])).body.errors).toEqual([]);
    processor.failure = new Error('socket hang up');
    await t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret: co.secret, outcome: 'succeeded' } });
    processor.failure = null;
    expect(await state.booking(kept)).toMatchObject({ status: 'confirmed' });
    expect(await state.booking(cancelled)).toMatchObject({ status: 'cancelled' });
    expect(await state.ledger(cancelled)).toEqual([{ amountMinor: expect.any(Number), status: 'pending' }]);
    expect(await state.cartStatus(co.cart.id)).toBe('open');

    later(61);
    expect(await pass()).toEqual({ ...nothing, succeeded: 1 });
    expect(await state.booking(cancelled)).toMatchObject({ status: 'refunded' });
    expect(await state.cartStatus(co.cart.id)).toBe('paid');
  });
});

describe('the sandbox processor', () => {
  it('answers a repeated refund idempotency key with the first refund, never a second', async () => {
    const sandbox = new SandboxProcessor();
    const input = { intentReference: 'pi_sbx_1', amountMinor: 500, currency: 'EUR' };
    const first = await sandbox.refund({ ...input, idempotencyKey: 'r-1' });
    expect(await sandbox.refund({ ...input, idempotencyKey: 'r-1' })).toEqual(first);
    expect((await sandbox.refund({ ...input, idempotencyKey: 'r-2' })).reference).not.toBe(first.reference);
  });
});

describe('the reconciler job of the server', () => {
  it('runs from start to close, logging as refund-reconciler, and counts what it settles in the metrics', async () => {
    const { booking } = await paid100();
    await unanswered(booking.id, 10);
    later(61);
    const lines: string[] = [];
    const server = await startApp(db, {
      now: () => clock,
      payments: processor,
      refunds: { reconcile: true, intervalMs: 20 },
      logStream: { write: (line: string) => void lines.push(line) },
    });
    await vi.waitFor(async () => {
      expect((await refundRows(booking.id))[0]!.status).toBe('succeeded');
    });
    expect(sample(await scrape(server), 'refunds_total', { outcome: 'succeeded' })).toBe(1);
    const reconciled = lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'pending refund reconciled');
    expect(reconciled).toMatchObject({ job: 'refund-reconciler', bookingId: booking.id, status: 'succeeded' });
    await server.app.close();
  });
});
