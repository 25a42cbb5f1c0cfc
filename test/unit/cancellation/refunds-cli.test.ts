/** `npm run refunds`: listing the refunds the reconciler gave up on, and settling one by hand as it would have. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRefundsCli } from '../../../src/cli/refunds.ts';
import { freshSharedDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createReservedRefund } from '../../../fixtures/factories/idempotency.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';

// The CLI opens DATABASE_URL itself: a database it can open beside the test's own connection.
const { db, url } = await freshSharedDb();
const NOW = new Date('2026-11-25T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const ids = { old: randomUUID(), declined: randomUUID(), recent: randomUUID() };
const bookings: Record<string, string> = {};

beforeAll(async () => {
  process.env.DATABASE_URL = url;
  const brand = await createBrand(db);
  const { experience } = await createExperience(db, brand.id);
  const session = await createSession(db, experience, { startLocal: '2026-12-10T10:00:00' });
  for (const [name, hours] of [
    ['old', 30],
    ['declined', 26],
    ['recent', 2],
  ] as const) {
    const { booking } = await createPaidBooking(db, { brandId: brand.id, session, participants: [{}, {}] });
    bookings[name] = booking.id;
    await createReservedRefund(db, {
      id: ids[name],
      bookingId: booking.id,
      amountMinor: 9000,
      effect: { cancel: true, participantIds: null, also: null },
      at: hoursAgo(hours),
    });
  }
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

async function run(...argv: string[]) {
  const lines: string[] = [];
  const code = await runRefundsCli(
    argv,
    (line) => lines.push(line),
    () => NOW,
  );
  return { code, lines };
}

describe('npm run refunds', () => {
  it('lists the refunds pending past the reconciler’s age (23 h), or every pending one with --all', async () => {
    const past = await run('pending');
    expect(past.code).toBe(0);
    expect(past.lines).toEqual([
      expect.stringMatching(new RegExp(`^${ids.old}  booking ${bookings.old}  90 EUR  pending 30.0 h  0 attempts  payment pi_`)),
      expect.stringMatching(new RegExp(`^${ids.declined}  booking ${bookings.declined}  90 EUR  pending 26.0 h`)),
    ]);
    expect((await run('pending', '--all')).lines).toHaveLength(3);
  });

  it('settles one as succeeded: the ledger, the cancellation it carried and its events, as the reconciler would', async () => {
    expect(await run('settle', ids.old, '--outcome', 'succeeded', '--reference', 're_123')).toEqual({
      code: 0,
      lines: [`Refund ${ids.old} is now succeeded`],
    });
    expect(await db.all('SELECT status, processor_reference AS reference FROM refunds WHERE id = ?', ids.old)).toEqual([
      { status: 'succeeded', reference: 're_123' },
    ]);
    expect(await db.all('SELECT status, amount_refunded_minor AS refunded FROM bookings WHERE id = ?', bookings.old)).toEqual([
      { status: 'refunded', refunded: 9000 },
    ]);
    expect(await db.values('SELECT type FROM events WHERE resource_id = ? ORDER BY sequence', bookings.old)).toEqual([
      'booking.cancelled',
      'booking.refunded',
    ]);
  });

  it('settles one as failed: its reserved amount goes back and the booking is as it was', async () => {
    expect((await run('settle', ids.declined, '--outcome', 'failed')).code).toBe(0);
    expect(await db.all('SELECT status FROM refunds WHERE id = ?', ids.declined)).toEqual([{ status: 'failed' }]);
    expect(await db.all('SELECT status, amount_refunded_minor AS refunded FROM bookings WHERE id = ?', bookings.declined)).toEqual([
      { status: 'confirmed', refunded: 0 },
    ]);
  });

  it('refuses to settle a refund twice, an unknown one, or without an outcome', async () => {
    expect(await run('settle', ids.old, '--outcome', 'failed')).toEqual({
      code: 1,
      lines: [`Error: Refund ${ids.old} is already succeeded: nothing to settle`],
    });
    const unknown = randomUUID();
    expect(await run('settle', unknown, '--outcome', 'failed')).toEqual({ code: 1, lines: [`Error: Refund ${unknown} was not found`] });
    expect((await run('settle', ids.recent)).code).toBe(2);
    expect((await run('settle', ids.recent, '--outcome', 'maybe')).code).toBe(2);
    expect((await run('pending', '--all')).lines).toEqual([expect.stringMatching(new RegExp(`^${ids.recent} `))]);
  });
});
