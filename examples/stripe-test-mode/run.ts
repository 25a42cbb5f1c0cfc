/**
 * The whole card flow against a real Stripe test-mode account, as a partner would see it: a checkout on a
 * running gateway, the payment confirmed at Stripe with a test card, the booking confirmed by Stripe's
 * webhook, then cancelled and refunded in full, the refund checked at Stripe. Not part of `npm test`: it
 * needs network access to Stripe and a test-mode account (it refuses live keys).
 *
 * What it needs:
 * - a gateway running with STRIPE_SECRET_KEY (the same test-mode key), STRIPE_WEBHOOK_SECRET, and Stripe's
 *   webhooks reaching its POST /v1/webhooks/stripe (a dashboard endpoint, or `stripe listen --forward-to
 *   http://127.0.0.1:4000/v1/webhooks/stripe`, whose printed secret is STRIPE_WEBHOOK_SECRET);
 * - STRIPE_SECRET_KEY=sk_test_... here too (to pay as Stripe.js would, and to read the refund back);
 * - GATEWAY (default http://127.0.0.1:4000), TESSERA_KEY (a brand's secret API key), BRAND_ID,
 *   EXPERIENCE_ID, SESSION_TIME (`YYYY-MM-DDTHH:MM`, a session with a free place), PRICE_TIER (default Adult).
 *
 *   STRIPE_SECRET_KEY=sk_test_... TESSERA_KEY=sk_test_... BRAND_ID=... EXPERIENCE_ID=... \
 *     SESSION_TIME=2027-01-15T10:00 npx tsx examples/stripe-test-mode/run.ts
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (!value) throw new Error(`${name} is required (see the header of examples/stripe-test-mode/run.ts)`);
  return value;
};

const secretKey = env('STRIPE_SECRET_KEY');
if (!/^(sk|rk)_test_/.test(secretKey))
  throw new Error('STRIPE_SECRET_KEY must be a test-mode key (sk_test_...): this script never runs in live mode');
const gateway = env('GATEWAY', 'http://127.0.0.1:4000').replace(/\/$/, '');
const key = env('TESSERA_KEY');
const stripe = new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000 });

async function tessera(method: 'GET' | 'POST', path: string, body?: object): Promise<any> {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Polls the booking until `status` (Stripe's webhook reaching the gateway), 60 s at most. */
async function waitFor(bookingId: string, status: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if ((await tessera('GET', `/v1/bookings/${bookingId}`)).status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`Booking ${bookingId} is not ${status} after 60 s: is Stripe's webhook reaching ${gateway}/v1/webhooks/stripe?`);
}

const step = (line: string) => process.stdout.write(`${line}\n`);

const settings = await tessera('GET', '/v1/payments/settings');
if (settings.processor !== 'stripe') throw new Error(`The gateway at ${gateway} runs with ${settings.processor}, not Stripe`);

const cartId = randomUUID();
const checkout = await tessera('POST', `/v1/brands/${env('BRAND_ID')}/carts/${cartId}/payment_intents`, {
  data: [
    {
      experienceId: env('EXPERIENCE_ID'),
      sessionTime: env('SESSION_TIME'),
      participants: [{ firstName: 'Test', lastName: 'Guest', priceTierName: env('PRICE_TIER', 'Adult') }],
    },
  ],
});
const bookingId: string = checkout.bookings[0].id;
const intentId = String(checkout.paymentIntentSecret).split('_secret_')[0]!;
step(`checkout: cart ${cartId}, booking ${bookingId}, ${checkout.totalNetAmount}, Stripe intent ${intentId}`);

// What Stripe.js does in the browser, with Stripe's test card.
const paid = await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa', return_url: 'https://example.com/return' });
step(`paid at Stripe: ${paid.status}`);
await waitFor(bookingId, 'confirmed');
step('confirmed by the webhook');

await tessera('POST', '/v1/bookings/cancel', { bookings: [{ bookingId, cancel: true, refundAmount: checkout.totalNetAmount }] });
await waitFor(bookingId, 'refunded');
const refunds = await stripe.refunds.list({ payment_intent: intentId });
if (refunds.data.length !== 1 || refunds.data[0]!.amount !== paid.amount) {
  throw new Error(`Expected one refund of ${paid.amount} at Stripe, found ${JSON.stringify(refunds.data.map((r) => r.amount))}`);
}
step(`refunded once at Stripe: ${refunds.data[0]!.id} (${refunds.data[0]!.status})`);
step('The whole flow went through.');
