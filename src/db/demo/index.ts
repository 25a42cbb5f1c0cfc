/**
 * Demo data for people trying Tessera and for acceptance checks (never for tests to lean on): the
 * Harbor Collection organization with Harbor Lisbon (EUR) and Harbor Tokyo (JPY), and the independent
 * Sunset Kayak Co (USD). Ids are stable across runs; see ids.ts.
 */
import { count } from 'drizzle-orm';
import type { Db } from '../sqlite/client.ts';
import { brands } from '../sqlite/schema.ts';
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
 * Loads the demo data, all of it in one transaction, when the database has no brands yet (a database
 * holding anything else is left alone). Returns whether it loaded. `now` is "today" for the sessions
 * (the next 60 days), the demo bookings and the waitlist entries, and their events, only; every other row
 * is the same on every run.
 */
export function seedDemoDataIfEmpty(db: Db, now: Date = new Date()): boolean {
  return db.transaction((tx) => {
    // Immediate: the write lock is taken before the emptiness check, so two processes starting together load once.
    const existing = tx.select({ n: count() }).from(brands).get()?.n ?? 0;
    if (existing > 0) return false;
    const txDb = tx as unknown as Db;
    seedBrands(txDb);
    for (const catalog of catalogs) {
      seedCatalog(txDb, catalog);
      seedQuestions(txDb, catalog);
      seedReviews(txDb, catalog);
      seedSessions(txDb, catalog, now);
      seedCommerce(txDb, catalog);
    }
    seedDemoBookings(txDb, now);
    seedDemoWaitlist(txDb, now);
    return true;
  }, { behavior: 'immediate' });
}
