import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expireDueHolds, failProcessingBookings } from '../../../src/domain/checkout/holds.ts';
import { checkoutRows } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../../fixtures/factories/checkout.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';

const db = await freshDb();
const rows = checkoutRows(db);
const brand = await createBrand(db);
const experience = (await createExperience(db, brand.id)).experience;
const NOW = new Date('2026-11-25T12:00:00.000Z');
const LAPSED = '2026-11-25T11:59:59.999Z';
const RUNNING = '2026-11-25T12:10:00.000Z';

let day = 0;
const session = () => createSession(db, experience, { startLocal: `2026-12-${String(++day).padStart(2, '0')}T09:00:00` });
const status = (id: string) => db.value('SELECT status FROM bookings WHERE id = ?', id);
const intentStatus = (id: string) => db.value('SELECT status FROM payment_intents WHERE id = ?', id);

function held(
  s: Awaited<ReturnType<typeof session>>,
  holdExpiresAt: string,
  people = 2,
  status: 'processing' | 'confirmed' = 'processing',
) {
  return createPaidBooking(db, {
    brandId: brand.id,
    session: s,
    status,
    intentStatus: 'requires_payment',
    participants: Array.from({ length: people }, () => ({})),
    overrides: { holdExpiresAt: status === 'processing' ? holdExpiresAt : null },
  });
}

describe('failProcessingBookings', () => {
  it('fails processing bookings only, returning their places and credit, and reports which it failed', async () => {
    const s = await session();
    const processing = await held(s, RUNNING, 3);
    const confirmed = await held(s, RUNNING, 2, 'confirmed');
    const credit = await createCreditCode(db, brand.id, { balanceMinor: 0 });
    await db.run(
      'INSERT INTO credit_redemptions (id, booking_id, credit_code_id, amount_minor) VALUES (?, ?, ?, 700)',
      randomUUID(),
      processing.booking.id,
      credit.id,
    );
    expect(await rows.reserved(s.id)).toBe(5);

    const failed = await db.database.transaction(async (tx) =>
      failProcessingBookings(tx, [processing.booking.id, confirmed.booking.id, randomUUID()], NOW, 86_400),
    );
    expect(failed).toEqual([processing.booking.id]);
    expect([await status(processing.booking.id), await status(confirmed.booking.id)]).toEqual(['failed', 'confirmed']);
    expect(await rows.reserved(s.id)).toBe(2);
    expect(await rows.balance(credit.id)).toBe(700);
    expect(await db.value('SELECT count(*) FROM credit_redemptions WHERE booking_id = ?', processing.booking.id)).toBe(0);
    // Its intent is the caller's business.
    expect(await intentStatus(processing.intent.id)).toBe('requires_payment');

    expect(await db.database.transaction(async (tx) => failProcessingBookings(tx, [processing.booking.id], NOW, 86_400))).toEqual([]);
    expect([await rows.reserved(s.id), await rows.balance(credit.id)]).toEqual([2, 700]);
  });

  it('releases only active participants', async () => {
    const s = await session();
    const booking = await createPaidBooking(db, {
      brandId: brand.id,
      session: s,
      status: 'processing',
      intentStatus: 'requires_payment',
      participants: [{}, { cancelledAt: '2026-11-24T10:00:00.000Z' }, {}],
      overrides: { holdExpiresAt: RUNNING },
    });
    expect(await rows.reserved(s.id)).toBe(2);
    await db.database.transaction(async (tx) => failProcessingBookings(tx, [booking.booking.id], NOW, 86_400));
    expect(await rows.reserved(s.id)).toBe(0);
  });
});

describe('expireDueHolds', () => {
  it('fails lapsed holds only, and cancels an intent only once nothing of it is held', async () => {
    const s = await session();
    const lapsed = await held(s, LAPSED);
    const running = await held(s, RUNNING);
    // A second booking of the lapsed one's intent whose hold still runs keeps that intent open.
    const sibling = await held(s, RUNNING);
    await db.run('UPDATE bookings SET payment_intent_id = ? WHERE id = ?', lapsed.intent.id, sibling.booking.id);
    const alone = await held(s, LAPSED);
    expect(await rows.reserved(s.id)).toBe(8);

    const failed = await db.database.transaction(async (tx) => expireDueHolds(tx, NOW, 86_400));
    expect(failed.sort()).toEqual([lapsed.booking.id, alone.booking.id].sort());
    expect(await Promise.all([lapsed, running, sibling, alone].map((b) => status(b.booking.id)))).toEqual([
      'failed',
      'processing',
      'processing',
      'failed',
    ]);
    expect([await intentStatus(lapsed.intent.id), await intentStatus(alone.intent.id), await intentStatus(running.intent.id)]).toEqual([
      'requires_payment',
      'canceled',
      'requires_payment',
    ]);
    expect(await rows.reserved(s.id)).toBe(4);
  });

  it('leaves an intent that already succeeded alone', async () => {
    const s = await session();
    const paidLate = await createPaidBooking(db, {
      brandId: brand.id,
      session: s,
      status: 'processing',
      intentStatus: 'succeeded',
      overrides: { holdExpiresAt: LAPSED },
    });
    await db.database.transaction(async (tx) => expireDueHolds(tx, NOW, 86_400));
    expect([await status(paidLate.booking.id), await intentStatus(paidLate.intent.id)]).toEqual(['failed', 'succeeded']);
  });
});
