import { randomUUID } from 'node:crypto';
import { beforeAll } from 'vitest';
import { startApp, type TestApp } from './app.ts';
import { CheckoutTestProcessor, CREATE_PAYMENT_INTENT, checkoutRows } from './checkout.ts';
import { freshDb } from './db.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrandFamily } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createAddOn } from '../../fixtures/factories/checkout.ts';
import { CHECKOUT_NOW } from './clock.ts';

export { CHECKOUT_NOW };

/**
 * What the checkout API tests share, on a fresh database: a EUR brand and a JPY sister brand of one
 * organization (plus an outsider), their keys, one experience each with an add-on, an app with a
 * settable clock (`clock.now`) and a hold TTL of 900 s, and call helpers for both faces.
 */
export async function checkoutWorld() {
  const clock = { now: new Date(CHECKOUT_NOW) };
  const db = await freshDb();
  const { org, brand, sister, outsider, keys } = await createBrandFamily(db);
  // Adult 45.50, Child 20.00, VAT 23 %.
  const sail = (await createExperience(db, brand.id, { title: 'Sunset Sail' })).experience;
  const photos = await createAddOn(db, sail.id, { name: 'Photo pack', priceMinor: 1000 });
  // Adult 8000 JPY, Child 4000 JPY, consumption tax 10 %.
  const foodWalk = (
    await createExperience(
      db,
      sister.id,
      { title: 'Night Food Walk', timezoneId: 'Asia/Tokyo' },
      {
        priceTiers: [
          { name: 'Adult', priceMinor: 8000 },
          { name: 'Child', priceMinor: 4000 },
        ],
        taxes: [{ name: 'Consumption tax', rateBasisPoints: 1000 }],
      },
    )
  ).experience;
  const sake = await createAddOn(db, foodWalk.id, { name: 'Sake tasting', priceMinor: 1500 });

  const payments = new CheckoutTestProcessor({ now: () => clock.now });
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startApp(db, { now: () => clock.now, payments, holdTtlSeconds: 900 });
  });
  const t = () => {
    if (!app) throw new Error('the app starts in beforeAll');
    return app;
  };

  let day = 0;
  return {
    db,
    rows: checkoutRows(db),
    clock,
    payments,
    org,
    brand,
    sister,
    outsider,
    keys,
    sail,
    photos,
    foodWalk,
    sake,
    t,
    /** A fresh session of `experience` (capacity 10 unless told) so each test reads its own places. */
    session(experience: { id: string; timezoneId: string } = sail, capacity = 10) {
      day += 1;
      return createSession(db, experience, { startLocal: `2027-01-${String(day).padStart(2, '0')}T18:00:00`, capacity });
    },
    /** The session's `sessionTime` as partners send it, `YYYY-MM-DDTHH:MM`. */
    at: (s: { startLocal: string }) => s.startLocal.slice(0, 16),
    checkout: (body: object, cartId: string = randomUUID(), key: string = keys.brand, brandId: string = brand.id) =>
      t().rest('POST', `/v1/brands/${brandId}/carts/${cartId}/payment_intents`, { key, body }),
    gqlCheckout: (input: object, cartId: string = randomUUID(), key: string = keys.brand, brandId: string = brand.id) =>
      t().gql(CREATE_PAYMENT_INTENT, { brandId, cartId, input }, { key }),
  };
}
