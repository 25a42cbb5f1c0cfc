/**
 * Demo data for people trying Tessera and for acceptance checks (never for tests to lean on): the
 * Harbor Collection organization with Harbor Lisbon (EUR) and Harbor Tokyo (JPY), and the independent
 * Sunset Kayak Co (USD). Ids are stable across runs; see ids.ts.
 */
import type { Engine } from '../engine.ts';
import { seedBrands } from './brands.ts';
import type { BrandCatalog } from './catalog-types.ts';
import { seedCatalog } from './catalog.ts';
import { seedCommerce } from './commerce.ts';
import { seedDemoBookings } from './demo-bookings.ts';
import { seedDemoWaitlist } from './demo-waitlist.ts';
import { kayakCatalog } from './kayak.ts';
import { lisbonCatalog } from './lisbon.ts';
import { seedQuestions } from './questions.ts';
import { seedReviews } from './reviews.ts';
import { seedSessions } from './sessions.ts';
import { tokyoCatalog } from './tokyo.ts';

export { demoKeys } from './brands.ts';
export { demoIds } from './ids.ts';
export { demoSoldOutSession } from './demo-bookings.ts';

const catalogs: readonly BrandCatalog[] = [lisbonCatalog, tokyoCatalog, kayakCatalog];

/**
 * Loads the demo data, all of it in one unit of work, when the database has no brands yet (a database
 * holding anything else is left alone). Returns whether it loaded. `now` is "today" for the sessions
 * (the next 60 days), the demo bookings and the waitlist entries, and their events, only; every other row
 * is the same on every run.
 */
export async function seedDemoDataIfEmpty(engine: Pick<Engine, 'seed'>, now: Date = new Date()): Promise<boolean> {
  // The emptiness check is inside the unit, isolated as units are: of several processes starting
  // together on an empty database, one loads the data and the others find it there.
  return engine.seed(async (seed, tx) => {
    if ((await seed.count('brands')) > 0) return false;
    await seedBrands(seed);
    for (const catalog of catalogs) {
      await seedCatalog(seed, catalog);
      await seedQuestions(seed, catalog);
      await seedReviews(seed, tx, catalog);
      await seedSessions(seed, catalog, now);
      await seedCommerce(seed, catalog);
    }
    await seedDemoBookings(seed, tx, now);
    await seedDemoWaitlist(seed, tx, now);
    return true;
  });
}
