/**
 * Demo data for people trying Tessera and for acceptance checks (never for tests to lean on): the
 * Harbor Collection organization with Harbor Lisbon (EUR) and Harbor Tokyo (JPY), and the independent
 * Sunset Kayak Co (USD). Ids are stable across runs; see ids.ts.
 */
import { count } from 'drizzle-orm';
import type { Database } from '../../domain/shared/database.ts';
import type { Db } from '../sqlite/client.ts';
import { brands } from '../sqlite/schema/index.ts';
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
export async function seedDemoDataIfEmpty(database: Database, db: Db, now: Date = new Date()): Promise<boolean> {
  // `db` is the connection under `database`: inside the transaction, its writes are the transaction's.
  // The write lock is taken before the emptiness check, so two processes starting together load once.
  return database.transaction(async (tx) => {
    const existing = db.select({ n: count() }).from(brands).get()?.n ?? 0;
    if (existing > 0) return false;
    seedBrands(db);
    for (const catalog of catalogs) {
      seedCatalog(db, catalog);
      seedQuestions(db, catalog);
      seedReviews(db, catalog);
      seedSessions(db, catalog, now);
      seedCommerce(db, catalog);
    }
    await seedDemoBookings(db, tx, now);
    await seedDemoWaitlist(db, tx, now);
    return true;
  });
}
