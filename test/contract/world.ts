/**
 * The store contract (src/domain/shared/database.ts and each area's store.ts) as executable
 * specification: every file here runs on each engine (the `sqlite` and `postgresql` vitest projects),
 * against the port alone, on data the factories write. What a store method returns, in which order, and
 * what its guards allow when calls race are asserted with exact values; races are real: N units of work
 * started together, each doing its check and write.
 */
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../fixtures/factories/checkout.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import type { Database, Transaction } from '../../src/domain/shared/database.ts';
import type { TestDb } from '../support/db.ts';

export const AT = '2026-11-24T12:00:00.000Z';

/** An instant `seconds` after AT. */
export const later = (seconds: number) => new Date(Date.parse(AT) + seconds * 1000).toISOString();

/** Runs `count` units of work at once, each calling `work`; how many `work` calls answered true. */
export async function race(database: Database, count: number, work: (tx: Transaction, i: number) => Promise<boolean>): Promise<number> {
  const outcomes = await Promise.all(Array.from({ length: count }, (_, i) => database.transaction((tx) => work(tx, i))));
  return outcomes.filter(Boolean).length;
}

/** Small worlds for the contract, each of a new brand so tests of one file never see each other's rows. */
export function contractFixtures(db: TestDb) {
  const sessionOf = async (capacity: number) => {
    const brand = await createBrand(db);
    const { experience } = await createExperience(db, brand.id);
    return { brand, experience, session: await createSession(db, experience, { capacity }) };
  };
  return {
    /** A session of a new brand's experience with `capacity` places, none taken. */
    session: async (capacity: number) => (await sessionOf(capacity)).session,
    sessionOf,
    /** A confirmed booking of a new brand whose payment of `amountMinor` succeeded. */
    paidBooking: async (amountMinor: number) => {
      const { brand, session } = await sessionOf(10);
      return (await createPaidBooking(db, { brandId: brand.id, session, amountMinor })).booking;
    },
    /** A credit code of a new brand with `balanceMinor` left, and a booking of that brand to redeem it for. */
    creditCode: async (balanceMinor: number) => {
      const { brand, session } = await sessionOf(10);
      const code = await createCreditCode(db, brand.id, { code: 'CONTRACT-CREDIT', balanceMinor });
      const { booking } = await createBooking(db, { brandId: brand.id, session });
      return { id: code.id, brandId: brand.id, bookingId: booking.id };
    },
    brand: () => createBrand(db),
  };
}
