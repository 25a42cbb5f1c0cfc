import { describe, expect, it } from 'vitest';
import { freshDb } from '../support/db.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';

/** The database itself refuses states that would oversell a session or over-refund a booking. */
describe('database guards', () => {
  const db = freshDb();
  const brand = createBrand(db);
  const { experience } = createExperience(db, brand.id);
  const session = createSession(db, experience, { capacity: 2 });

  it('refuses more reserved places than capacity', () => {
    createBooking(db, { brandId: brand.id, session, participants: [{}, {}] });
    expect(() => createBooking(db, { brandId: brand.id, session, participants: [{}] })).toThrow(
      /CHECK constraint failed: sessions_reserved_within_capacity/,
    );
    expect(db.$client.prepare('SELECT reserved FROM sessions WHERE id = ?').get(session.id)).toEqual({ reserved: 2 });
  });

  it('refuses a refunded total above the amount', () => {
    const other = createSession(db, experience, { startLocal: '2026-12-02T09:00:00' });
    const { booking } = createBooking(db, { brandId: brand.id, session: other, participants: [{ priceMinor: 1000 }] });
    expect(() => db.$client.prepare('UPDATE bookings SET amount_refunded_minor = 1001 WHERE id = ?').run(booking.id)).toThrow(
      /CHECK constraint failed: bookings_refund_within_amount/,
    );
  });
});
