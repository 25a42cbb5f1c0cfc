import { randomUUID } from 'node:crypto';
import { beforeAll } from 'vitest';
import { ProcessorError } from '../../src/domain/payments/processor.ts';
import { startApp, type TestApp } from './app.ts';
import { CheckoutTestProcessor, guest } from './checkout.ts';
import { freshDb } from './db.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';

export const EVENTS_NOW = '2026-11-25T12:00:00.000Z';
export const HOLD_TTL = 900;

/** The checkout test processor whose refunds can be declined. */
class EventsProcessor extends CheckoutTestProcessor {
  declineRefunds = false;

  override async refund(input: { intentReference: string; amountMinor: number; idempotencyKey: string }) {
    if (this.declineRefunds) throw new ProcessorError('card_declined');
    return super.refund(input);
  }
}

export interface StoredEventRow {
  sequence: number;
  id: string;
  type: string;
  resourceId: string;
  createdAt: string;
  payload: any;
}

/**
 * What the booking-event API tests share: a EUR brand with a paid experience (Adult 45.50 + 23 % VAT
 * = 55.97) and a free one, an app on a settable clock with a 900 s hold, and helpers that drive
 * bookings through checkout, the sandbox's payment confirmation and cancellation, then read the events.
 */
export async function eventsWorld() {
  const clock = { now: new Date(EVENTS_NOW) };
  const db = await freshDb();
  const brand = await createBrand(db, { currency: 'EUR' });
  const key = (await createApiKey(db, { brandId: brand.id })).secret;
  const sail = (await createExperience(db, brand.id, { title: 'Sunset Sail' })).experience;
  const walk = (await createExperience(db, brand.id, { title: 'Free Walk' }, { priceTiers: [{ name: 'Adult', priceMinor: 0 }], taxes: [] }))
    .experience;
  const payments = new EventsProcessor({ now: () => clock.now });
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startApp(db, { now: () => clock.now, payments, holdTtlSeconds: HOLD_TTL });
  });
  const t = () => {
    if (!app) throw new Error('the app starts in beforeAll');
    return app;
  };

  let day = 0;
  const session = (capacity = 10, experience: { id: string; timezoneId: string } = sail) => {
    day += 1;
    return createSession(db, experience, { startLocal: `2027-01-${String(day).padStart(2, '0')}T18:00:00`, capacity });
  };
  const item = (s: { startLocal: string; experienceId: string }, people = 1) => ({
    experienceId: s.experienceId,
    sessionTime: s.startLocal.slice(0, 16),
    participants: Array.from({ length: people }, (_, i) => guest(`Guest${i + 1}`)),
  });
  const bookingIdsOfCart = (cartId: string) =>
    db.values<string>('SELECT id FROM bookings WHERE cart_id = ? ORDER BY created_at, cart_position', cartId);

  /** Checks out `items`; the new bookings' ids in cart order, and the intent's secret (absent when free). */
  async function checkout(items: object[], cartId: string = randomUUID()) {
    const before = new Set(await bookingIdsOfCart(cartId));
    const res = await t().rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, { key, body: { data: items } });
    return {
      res,
      cartId,
      secret: res.body?.paymentIntentSecret as string | undefined,
      ids: (await bookingIdsOfCart(cartId)).filter((id) => !before.has(id)),
    };
  }

  const confirm = (paymentIntentSecret: string | undefined, outcome: 'succeeded' | 'failed' = 'succeeded') =>
    t().rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret, outcome } });

  /** A paid, confirmed booking of `people` guests on a fresh session. */
  async function confirmedBooking(people = 2) {
    const { secret, ids } = await checkout([item(await session(), people)]);
    await confirm(secret);
    return ids[0]!;
  }

  const cancel = (bookings: object[]) => t().rest('POST', '/v1/bookings/cancel', { key, body: { bookings } });
  const view = async (bookingId: string) => (await t().rest('GET', `/v1/bookings/${bookingId}`, { key })).body;

  /** The events about one resource, oldest first, payloads parsed. */
  const eventsOf = async (resourceId: string) =>
    (
      (await db.all(
        'SELECT sequence, id, type, resource_id AS "resourceId", created_at AS "createdAt", payload FROM events WHERE resource_id = ? ORDER BY sequence',
        resourceId,
      )) as Array<StoredEventRow & { payload: string }>
    ).map((row) => ({ ...row, payload: JSON.parse(row.payload) }));
  const typesOf = async (resourceId: string) => (await eventsOf(resourceId)).map((e) => e.type);
  const eventCount = () => db.value<number>('SELECT count(*) FROM events');

  return {
    db,
    clock,
    brand,
    key,
    sail,
    walk,
    payments,
    t,
    session,
    item,
    checkout,
    confirm,
    confirmedBooking,
    cancel,
    view,
    eventsOf,
    typesOf,
    eventCount,
  };
}
