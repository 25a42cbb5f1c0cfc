import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../fixtures/factories/checkout.ts';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { freshDb, portOf } from '../support/db.ts';
import { describeStoreContract } from './store-contract.ts';

describeStoreContract('SQLite', async () => {
  const db = freshDb();
  const sessionOf = (capacity: number) => {
    const brand = createBrand(db);
    const { experience } = createExperience(db, brand.id);
    return { brand, session: createSession(db, experience, { capacity }) };
  };
  return {
    database: portOf(db),
    fixtures: {
      session: async (capacity) => sessionOf(capacity).session,
      paidBooking: async (amountMinor) => {
        const { brand, session } = sessionOf(10);
        const { booking } = createPaidBooking(db, { brandId: brand.id, session, amountMinor });
        return booking;
      },
      creditCode: async (balanceMinor) => {
        const { brand, session } = sessionOf(10);
        const code = createCreditCode(db, brand.id, { code: 'CONTRACT-CREDIT', balanceMinor });
        const { booking } = createBooking(db, { brandId: brand.id, session });
        return { id: code.id, brandId: brand.id, bookingId: booking.id };
      },
      brand: async () => createBrand(db),
    },
  };
});
