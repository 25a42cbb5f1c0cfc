import { describe, expect, it } from 'vitest';
import { freshSqliteDb } from '../support/db.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';

/** The database itself refuses states that would oversell a session or over-refund a booking. */
const db = freshSqliteDb();
const brand = await createBrand(db);
const { experience } = await createExperience(db, brand.id);
const session = await createSession(db, experience, { capacity: 2 });

describe('database guards', () => {
  it('refuses more reserved places than capacity', async () => {
    await createBooking(db, { brandId: brand.id, session, participants: [{}, {}] });
    await expect(createBooking(db, { brandId: brand.id, session, participants: [{}] })).rejects.toThrow(
      /CHECK constraint failed: sessions_reserved_within_capacity/,
    );
    expect(db.connection.$client.prepare('SELECT reserved FROM sessions WHERE id = ?').get(session.id)).toEqual({ reserved: 2 });
  });

  it('refuses a refunded total above the amount', async () => {
    const other = await createSession(db, experience, { startLocal: '2026-12-02T09:00:00' });
    const { booking } = await createBooking(db, { brandId: brand.id, session: other, participants: [{ priceMinor: 1000 }] });
    expect(() => db.connection.$client.prepare('UPDATE bookings SET amount_refunded_minor = 1001 WHERE id = ?').run(booking.id)).toThrow(
      /CHECK constraint failed: bookings_refund_within_amount/,
    );
  });
});
