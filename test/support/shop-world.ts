import type { Seeder } from '../../src/db/tables.ts';
import { times } from '../../fixtures/factories/in-turn.ts';
import type { Shop } from './booking-traffic.ts';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';

/**
 * A EUR brand with its key and one experience (Adult 45.50, Child 20.00, VAT 23 %, waitlist) with
 * `sessions` (at most 20) sessions of `capacity` places, between 09:00 and 18:30 (Lisbon) on a day `daysAhead` from today:
 * in the future whenever the test runs, as servers in child processes use the real clock.
 */
export async function createShop(db: Seeder, options: { sessions: number; capacity: number; daysAhead?: number }) {
  const brand = await createBrand(db, { name: 'Durable Tours', currency: 'EUR' });
  const key = (await createApiKey(db, { brandId: brand.id })).secret;
  const { experience } = await createExperience(db, brand.id, { minimumRequiredToBook: 1, maximumAllowedToBook: 6 });
  const waitlist = await createWaitlist(db, experience.id);
  const day = new Date(Date.now() + (options.daysAhead ?? 30) * 86_400_000).toISOString().slice(0, 10);
  const sessions = await times(options.sessions, (i) =>
    createSession(db, experience, {
      startLocal: `${day}T${String(9 + (i % 10)).padStart(2, '0')}:${i < 10 ? '00' : '30'}:00`,
      capacity: options.capacity,
    }),
  );
  const shop: Shop = { brandId: brand.id, key, experienceId: experience.id, waitlistId: waitlist.id, sessionMinutes: 120 };
  return { shop, brand, experience, sessions, sessionTimes: sessions.map((s) => s.startLocal.slice(0, 16)) };
}
