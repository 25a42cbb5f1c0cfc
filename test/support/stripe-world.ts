/**
 * What the Stripe payment tests share, on a fresh database: the real `stripe` SDK (Tessera's Stripe
 * adapter) against a fake Stripe on 127.0.0.1, a EUR brand on the platform account and a JPY brand with
 * its own connected account, an app with a settable clock and no background intent reconciler (tests run
 * passes themselves), and helpers to check out, deliver signed webhooks and read the rows.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll } from 'vitest';
import { StripeProcessor } from '../../src/adapters/stripe-processor.ts';
import { reconcileIntents, intentCheckDefaults } from '../../src/domain/payments/intent-reconciler.ts';
import { reconcileRefunds, refundReconcilerDefaults } from '../../src/domain/cancellation/refund-reconciler.ts';
import { sweepOnce } from '../../src/domain/checkout/holds.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { startApp, type TestApp } from './app.ts';
import { guest } from './checkout.ts';
import { freshDb } from './db.ts';
import { FakeStripe, SECRET_KEY, WEBHOOK_SECRET } from './fake-stripe.ts';
import { paymentState } from './payment-state.ts';

export const STRIPE_NOW = '2026-11-25T12:00:00.000Z';
export const HOLD_TTL = 900;
export const CONNECTED_ACCOUNT = 'acct_1TesseraJapan';
export const STRIPE_PUBLISHABLE_KEY = 'pk_test_tessera_fake';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

export function stripeProcessor(fake: FakeStripe, now: () => Date) {
  // Short pauses: a test waits for the SDK's retries (0.5 s at least each) but no longer than it must.
  return new StripeProcessor({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: fake.url,
    publishableKey: STRIPE_PUBLISHABLE_KEY,
    now,
    maxNetworkRetries: 2,
    timeoutMs: 5_000,
    rateLimitPauseMs: 10,
  });
}

export async function stripeWorld() {
  const clock = { now: new Date(STRIPE_NOW) };
  const now = () => clock.now;
  const db = await freshDb();
  const fake = await new FakeStripe().start();
  const eur = await createBrand(db, { currency: 'EUR' });
  const jpy = await createBrand(db, { currency: 'JPY', countryCode: 'JP', processorAccount: CONNECTED_ACCOUNT });
  const keys = {
    eur: (await createApiKey(db, { brandId: eur.id })).secret,
    jpy: (await createApiKey(db, { brandId: jpy.id })).secret,
  };
  // Adult 45.50, VAT 23 %: two adults are 91.00 + 20.93 = 111.93 EUR.
  const sail = (await createExperience(db, eur.id)).experience;
  // Adult 8000 JPY, consumption tax 10 %: two adults are 17600 JPY.
  const walk = (
    await createExperience(
      db,
      jpy.id,
      { title: 'Night Food Walk', timezoneId: 'Asia/Tokyo' },
      { priceTiers: [{ name: 'Adult', priceMinor: 8000 }], taxes: [{ name: 'Consumption tax', rateBasisPoints: 1000 }] },
    )
  ).experience;
  const processor = stripeProcessor(fake, now);
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startApp(db, { now, payments: processor, holdTtlSeconds: HOLD_TTL, intentReconciler: null });
  });
  const t = () => {
    if (!app) throw new Error('the app starts in beforeAll');
    return app;
  };
  const deps = { db: db.database, now, payments: processor, holdTtlSeconds: HOLD_TTL, waitlistOfferTtlSeconds: 86_400, log: quiet };
  let day = 0;
  const world = {
    db,
    fake,
    clock,
    processor,
    eur,
    jpy,
    keys,
    sail,
    walk,
    t,
    state: paymentState(db),
    /** A fresh session (capacity 10 unless told) so each test reads its own places. */
    session(experience: { id: string; timezoneId: string } = sail, capacity = 10) {
      day += 1;
      return createSession(db, experience, { startLocal: `2027-02-${String(day).padStart(2, '0')}T18:00:00`, capacity });
    },
    /** A card checkout of `adults` adults in `session`. */
    checkout(
      session: { startLocal: string },
      options: { adults?: number; cartId?: string; brand?: 'eur' | 'jpy'; experienceId?: string } = {},
    ) {
      const brand = options.brand ?? 'eur';
      const experienceId = options.experienceId ?? (brand === 'eur' ? sail.id : walk.id);
      const participants = Array.from({ length: options.adults ?? 2 }, (_, i) => guest(`Guest${i + 1}`));
      const brandId = brand === 'eur' ? eur.id : jpy.id;
      return t().rest('POST', `/v1/brands/${brandId}/carts/${options.cartId ?? randomUUID()}/payment_intents`, {
        key: keys[brand],
        body: { data: [{ experienceId, sessionTime: session.startLocal.slice(0, 16), participants }] },
      });
    },
    /** Delivers a webhook to POST /v1/webhooks/stripe exactly as given (the raw body is what is signed). */
    async deliver(webhook: { body: string; headers: Record<string, string> }, app: TestApp = t()) {
      const res = await app.app.inject({ method: 'POST', url: '/v1/webhooks/stripe', headers: webhook.headers, payload: webhook.body });
      return { status: res.statusCode, body: res.json() };
    },
    /** Stripe announcing that the intent behind `secret` was paid (the shopper confirmed it with Stripe.js). */
    paid(secret: string, options: { at?: Date; eventId?: string } = {}) {
      const intent = fake.pay(fake.intentBySecret(secret).id);
      return fake.webhook('payment_intent.succeeded', intent, { at: options.at ?? clock.now, account: intent.account, ...options });
    },
    bookingIds: async (cartId: string) => db.values<string>('SELECT id FROM bookings WHERE cart_id = ? ORDER BY id', cartId),
    intentOfCart: async (cartId: string) =>
      (await db.one<{ id: string; status: string; reference: string }>(
        'SELECT id, status, processor_reference AS reference FROM payment_intents WHERE cart_id = ? ORDER BY attempt DESC LIMIT 1',
        cartId,
      ))!,
    events: (bookingId: string) => db.values<string>('SELECT type FROM events WHERE resource_id = ? ORDER BY sequence', bookingId),
    later(seconds: number) {
      clock.now = new Date(clock.now.getTime() + seconds * 1000);
    },
    /** One pass of each background job, as a gateway's timers would run them. */
    sweep: () => sweepOnce(deps),
    reconcileIntents: () => reconcileIntents(deps, intentCheckDefaults),
    reconcileRefunds: () => reconcileRefunds(deps, refundReconcilerDefaults),
  };
  return world;
}
