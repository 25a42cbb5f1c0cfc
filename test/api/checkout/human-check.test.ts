/**
 * The human check (brand feature `requireHumanCheck`): checkouts and waitlist joins made with the brand's
 * publishable key must carry a token in the Tessera-Human-Check header, on both faces; secret keys,
 * quotes and brands without the flag are never asked. The sandbox verifier (`pass`/`fail`) runs the app;
 * one app runs Turnstile against a local fake of Cloudflare, behind a trusted proxy.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { startFakeTurnstile } from '../../support/fake-turnstile.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { TurnstileVerifier } from '../../../src/adapters/human-check/turnstile.ts';

const SHOP = 'https://shop.example';
const db = await freshDb();
const features = ['reviews', 'customQuestions', 'priceTiers', 'shoppingCart', 'unlistedExperience', 'creditCard'];
const brand = await createBrand(db, { featuresActive: [...features, 'requireHumanCheck'] });
const openBrand = await createBrand(db, { featuresActive: features });
const shopKey = (await createPublishableKey(db, brand.id, [SHOP])).secret;
const openShopKey = (await createPublishableKey(db, openBrand.id, [SHOP])).secret;
const secretKey = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const { experience: openExperience } = await createExperience(db, openBrand.id);
await createSession(db, experience, { startLocal: '2027-03-01T10:00:00', capacity: 20 });
await createSession(db, openExperience, { startLocal: '2027-03-01T10:00:00', capacity: 20 });
const soldOut = await createSession(db, experience, { startLocal: '2027-03-02T10:00:00', capacity: 2, reserved: 2 });
const waitlist = await createWaitlist(db, experience.id);
const now = () => new Date('2027-02-01T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now });
});

const cart = (experienceId = experience.id) => ({
  data: [
    { sessionTime: '2027-03-01T10:00:00', experienceId, participants: [{ firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult' }] },
  ],
});
const checkoutUrl = (brandId = brand.id) => `/v1/brands/${brandId}/carts/${randomUUID()}/payment_intents`;
const withToken = (key: string, token?: string) => ({
  authorization: `Bearer ${key}`,
  origin: SHOP,
  ...(token === undefined ? {} : { 'tessera-human-check': token }),
});
const checkoutRest = async (key: string, token?: string, body: object = cart(), url = checkoutUrl()) => {
  const res = await t.rest('POST', url, { headers: withToken(key, token), body });
  return { status: res.status, body: res.body };
};
const missing = {
  code: 'HUMAN_CHECK_FAILED',
  message: `A checkout with a publishable key of brand ${brand.id} needs a human check: send the challenge's token in the Tessera-Human-Check header`,
  details: { field: 'Tessera-Human-Check', reason: 'missing' },
};

const mutation = `mutation ($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
  createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) { cart { bookings { status } } }
}`;
const checkoutGraphql = async (key: string, token?: string) => {
  const res = await t.gql(mutation, { brandId: brand.id, cartId: randomUUID(), input: cart() }, { headers: withToken(key, token) });
  return res.body;
};

describe('a brand that asks for a human check, with its publishable key', () => {
  it('refuses a REST checkout without a token, 403 HUMAN_CHECK_FAILED, holding nothing', async () => {
    const refused = await checkoutRest(shopKey);
    expect(refused).toEqual({ status: 403, body: { error: { ...missing, requestId: expect.any(String) } } });
    const refusedByToken = await checkoutRest(shopKey, 'fail');
    expect(refusedByToken).toEqual({
      status: 403,
      body: {
        error: {
          code: 'HUMAN_CHECK_FAILED',
          message: 'The human check refused the Tessera-Human-Check token (sandbox-refused): solve the challenge again',
          details: { field: 'Tessera-Human-Check', reason: 'sandbox-refused' },
          requestId: expect.any(String),
        },
      },
    });
    const session = await db.one<{ reserved: number }>(
      'SELECT reserved FROM sessions WHERE experience_id = ? AND start_local = ?',
      experience.id,
      '2027-03-01T10:00:00',
    );
    expect(session).toEqual({ reserved: 0 });
  });

  it('holds the places of a REST checkout that carries a passing token', async () => {
    const passed = await checkoutRest(shopKey, 'pass');
    expect(passed.status).toBe(201);
    expect((passed.body.bookings as Array<{ status: string }>).map((b) => b.status)).toEqual(['processing']);
  });

  it('asks the same on GraphQL, from the same header', async () => {
    expect(await checkoutGraphql(shopKey)).toEqual({
      data: null,
      errors: [
        {
          message: missing.message,
          path: ['createPaymentIntent'],
          locations: expect.any(Array),
          extensions: { code: 'HUMAN_CHECK_FAILED', field: 'Tessera-Human-Check', reason: 'missing' },
        },
      ],
    });
    expect(await checkoutGraphql(shopKey, 'pass')).toEqual({
      data: { createPaymentIntent: { cart: { bookings: [{ status: 'PROCESSING' }] } } },
    });
  });

  it('asks it of waitlist joins too', async () => {
    const join = (token?: string) =>
      t.rest('POST', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries`, {
        headers: withToken(shopKey, token),
        body: {
          sessionStartDate: soldOut.startLocal.slice(0, 10),
          sessionStartTime: '10:00',
          sessionDuration: 120,
          purchaser: { firstName: 'Rui', lastName: 'Costa', emailAddress: `rui-${randomUUID()}@example.com` },
          participants: [{ firstName: 'Rui', lastName: 'Costa', priceTierName: 'Adult' }],
        },
      });
    const refused = await join();
    expect({ status: refused.status, code: refused.body.error.code, details: refused.body.error.details }).toEqual({
      status: 403,
      code: 'HUMAN_CHECK_FAILED',
      details: { field: 'Tessera-Human-Check', reason: 'missing' },
    });
    const joined = await join('pass');
    expect({ status: joined.status, entryStatus: joined.body.status }).toEqual({ status: 201, entryStatus: 'waiting' });
  });

  it('never asks for a quote, which holds nothing', async () => {
    const quote = await checkoutRest(shopKey, undefined, { ...cart(), getOnlyTotalNetAmount: true });
    expect(quote.status).toBe(200);
  });
});

describe('who is never asked', () => {
  it("a secret key of the brand (a partner's server)", async () => {
    const res = await t.rest('POST', checkoutUrl(), { key: secretKey, body: cart() });
    expect(res.status).toBe(201);
  });

  it('the publishable key of a brand without the flag', async () => {
    expect((await checkoutRest(openShopKey, undefined, cart(openExperience.id), checkoutUrl(openBrand.id))).status).toBe(201);
  });
});

describe('with Cloudflare Turnstile (a local fake) behind a trusted proxy', () => {
  const SECRET = '0x4AAAAAAAtest-secret';
  let fake: Awaited<ReturnType<typeof startFakeTurnstile>>;
  let turnstile: TestApp;

  beforeAll(async () => {
    fake = await startFakeTurnstile(SECRET);
    turnstile = await startApp(db, {
      now,
      humanCheck: new TurnstileVerifier({ secretKey: SECRET, baseUrl: fake.baseUrl, timeoutMs: 1_000 }),
      http: { TRUST_PROXY: ['127.0.0.1'] },
    });
  });
  afterAll(() => fake.close());

  const checkout = async (token: string, client = '203.0.113.7') => {
    const res = await turnstile.rest('POST', checkoutUrl(), {
      headers: { ...withToken(shopKey, token), 'x-forwarded-for': client },
      body: cart(),
    });
    return { status: res.status, code: res.body.error?.code, details: res.body.error?.details };
  };

  it("passes a genuine token, sending Cloudflare the visitor's address", async () => {
    expect(await checkout('human')).toEqual({ status: 201, code: undefined, details: undefined });
    expect(fake.requests.at(-1)!.body).toEqual({ secret: SECRET, response: 'human', remoteip: '203.0.113.7' });
  });

  it("sends the visitor's address without the port or brackets a proxy wrote, IPv6 whole (not its /64)", async () => {
    expect((await checkout('human', '203.0.113.7:51234')).status).toBe(201);
    expect(fake.requests.at(-1)!.body.remoteip).toBe('203.0.113.7');
    expect((await checkout('human', '[2001:DB8::7]:443')).status).toBe(201);
    expect(fake.requests.at(-1)!.body.remoteip).toBe('2001:db8::7');
    // No address at all: none is sent (the check still runs on the token).
    expect((await checkout('human', 'unknown')).status).toBe(201);
    expect(fake.requests.at(-1)!.body).toEqual({ secret: SECRET, response: 'human' });
  });

  it('refuses a token Cloudflare refuses, 403, and answers 502 HUMAN_CHECK_UNAVAILABLE when Cloudflare gives no verdict', async () => {
    expect(await checkout('used')).toEqual({
      status: 403,
      code: 'HUMAN_CHECK_FAILED',
      details: { field: 'Tessera-Human-Check', reason: 'timeout-or-duplicate' },
    });
    expect(await checkout('cf-internal')).toEqual({ status: 502, code: 'HUMAN_CHECK_UNAVAILABLE', details: { reason: 'internal-error' } });
  });
});
