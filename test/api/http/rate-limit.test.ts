import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { httpDefaults } from '../../../src/http/settings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';

// The limiter's window follows the clock: freezing Date makes Reset exact and lets a test jump a minute.
const start = new Date('2026-06-01T10:00:00.000Z');
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(start);
});
afterAll(() => vi.useRealTimers());

const db = await freshDb();
const brand = await createBrand(db);
const keyA = (await createApiKey(db, { brandId: brand.id })).secret;
const keyB = (await createApiKey(db, { brandId: brand.id })).secret;
const settings = `/v1/brands/${brand.id}/settings`;
const settingsQuery = `query($b: UUID!) { brandSettings(brandId: $b) { name } }`;
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { http: { RATE_LIMIT_PER_MINUTE: 3, RATE_LIMIT_ANONYMOUS_PER_MINUTE: 2 } });
});

const limits = (headers: Record<string, unknown>) => ({
  limit: headers['x-ratelimit-limit'],
  remaining: headers['x-ratelimit-remaining'],
  reset: headers['x-ratelimit-reset'],
  retryAfter: headers['retry-after'],
});

async function graphql(key: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    payload: { query: settingsQuery, variables: { b: brand.id } },
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

describe('per-API-key rate limit', () => {
  it('counts REST and GraphQL against one budget per key, and says so on every answer', async () => {
    const first = await t.rest('GET', settings, { key: keyA });
    expect(first.status).toBe(200);
    expect(limits(first.headers)).toEqual({ limit: '3', remaining: '2', reset: '60', retryAfter: undefined });

    const second = await graphql(keyA);
    expect(second.body.data.brandSettings.name).toBe('Test Brand');
    expect(limits(second.headers)).toEqual({ limit: '3', remaining: '1', reset: '60', retryAfter: undefined });

    const notFound = await t.rest('GET', `/v1/brands/${brand.id}/nowhere`, { key: keyA });
    expect(notFound.status).toBe(404);
    expect(limits(notFound.headers)).toEqual({ limit: '3', remaining: '0', reset: '60', retryAfter: undefined });
  });

  it('refuses the key past its budget with 429 RATE_LIMITED, Retry-After and the error body, on both faces', async () => {
    vi.setSystemTime(new Date(start.getTime() + 15_000));
    const rest = await t.rest('GET', settings, { key: keyA });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'Rate limit exceeded: 3 requests per minute for this API key; retry in 45 s',
        requestId: rest.headers['x-request-id'],
      },
    });
    expect(limits(rest.headers)).toEqual({ limit: '3', remaining: '0', reset: '45', retryAfter: '45' });

    const gql = await graphql(keyA);
    expect(gql.status).toBe(429);
    expect(gql.body).toEqual({
      errors: [
        { message: 'Rate limit exceeded: 3 requests per minute for this API key; retry in 45 s', extensions: { code: 'RATE_LIMITED' } },
      ],
    });
    expect(gql.headers['retry-after']).toBe('45');
  });

  it('leaves another key its own budget', async () => {
    const res = await t.rest('GET', settings, { key: keyB });
    expect(res.status).toBe(200);
    expect(limits(res.headers)).toEqual({ limit: '3', remaining: '2', reset: '60', retryAfter: undefined });
  });

  it('gives the key a full budget again once the minute is over; a refused request ran nothing', async () => {
    const cancel = {
      key: keyA,
      headers: { 'idempotency-key': 'sent-while-limited' },
      body: { bookings: [{ bookingId: '00000000-0000-4000-8000-000000000000', cancel: true }] },
    };
    const refused = await t.rest('POST', '/v1/bookings/cancel', cancel);
    expect(refused.status).toBe(429);

    vi.setSystemTime(new Date(start.getTime() + 60_000));
    const res = await t.rest('GET', settings, { key: keyA });
    expect(res.status).toBe(200);
    expect(limits(res.headers)).toEqual({ limit: '3', remaining: '2', reset: '60', retryAfter: undefined });
    // The Idempotency-Key of the refused request was never claimed: the retry runs, it is not a replay.
    const retried = await t.rest('POST', '/v1/bookings/cancel', cancel);
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.body.errors).toEqual([expect.objectContaining({ index: 0, code: 'NOT_FOUND' })]);
  });
});

describe('requests without a valid key', () => {
  it('spend the budget of their address, much smaller, so keys cannot be guessed quickly', async () => {
    const wrong = await t.rest('GET', settings, { key: 'sk_test_guess_1' });
    expect(wrong.status).toBe(401);
    expect(limits(wrong.headers)).toEqual({ limit: '2', remaining: '1', reset: '60', retryAfter: undefined });
    const none = await t.rest('GET', settings);
    expect(none.status).toBe(401);
    expect(none.headers['x-ratelimit-remaining']).toBe('0');

    const refused = await t.rest('GET', settings, { key: 'sk_test_guess_2' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Rate limit exceeded: 2 requests per minute for requests without a valid API key from this address; retry in 60 s',
      requestId: refused.headers['x-request-id'],
    });
  });

  it('leave the keys used from the same address alone', async () => {
    const res = await t.rest('GET', settings, { key: keyB });
    expect(res.status).toBe(200);
  });

  it("leave the payment processor its own per-address budget, the size of a key's (its webhooks come in bursts)", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks/payments',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-ratelimit-limit']).toBe('3');
  });

  it('never limit the health, readiness and metrics endpoints, which carry no rate headers', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics', '/healthz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode, limit: res.headers['x-ratelimit-limit'] }).toEqual({ url, status: 200, limit: undefined });
    }
  });
});

const shopDb = await freshDb();
const shop = await createBrand(shopDb);
const shopKey = (await createPublishableKey(shopDb, shop.id, ['https://shop.example'])).secret;
const partnerKey = (await createApiKey(shopDb, { brandId: shop.id })).secret;
const shopSettings = `/v1/brands/${shop.id}/settings`;

describe('a publishable key, shared by every browser of its brand', () => {
  // Behind a trusted proxy (inject's own address, 127.0.0.1), X-Forwarded-For names the client.
  let proxied: TestApp;
  let direct: TestApp;

  beforeAll(async () => {
    const http = { RATE_LIMIT_PER_MINUTE: 5, RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: 2 };
    proxied = await startApp(shopDb, { http: { ...http, TRUST_PROXY: ['127.0.0.1'] } });
    direct = await startApp(shopDb, { http });
  });

  const from = async (app: TestApp, client: string, key = shopKey) => {
    const res = await app.rest('GET', shopSettings, { key, headers: { 'x-forwarded-for': client } });
    return { status: res.status, ...limits(res.headers) };
  };

  it('gives each client its own budget, refused alone past it, on both faces', async () => {
    expect(await from(proxied, '203.0.113.7')).toEqual({ status: 200, limit: '2', remaining: '1', reset: '60', retryAfter: undefined });
    expect(await from(proxied, '203.0.113.7')).toEqual({ status: 200, limit: '2', remaining: '0', reset: '60', retryAfter: undefined });
    const refused = await proxied.rest('GET', shopSettings, { key: shopKey, headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Rate limit exceeded: 2 requests per minute for this publishable key from this address; retry in 60 s',
      requestId: refused.headers['x-request-id'],
    });
    expect(limits(refused.headers)).toEqual({ limit: '2', remaining: '0', reset: '60', retryAfter: '60' });
    const gql = await proxied.gql(
      `query($b: UUID!) { brandSettings(brandId: $b) { name } }`,
      { b: shop.id },
      {
        key: shopKey,
        headers: { 'x-forwarded-for': '203.0.113.7' },
      },
    );
    expect({ status: gql.status, body: gql.body, retryAfter: gql.headers['retry-after'] }).toEqual({
      status: 429,
      body: {
        errors: [
          {
            message: 'Rate limit exceeded: 2 requests per minute for this publishable key from this address; retry in 60 s',
            extensions: { code: 'RATE_LIMITED' },
          },
        ],
      },
      retryAfter: '60',
    });

    // Another client of the same key: a budget of its own.
    expect(await from(proxied, '198.51.100.20')).toEqual({ status: 200, limit: '2', remaining: '1', reset: '60', retryAfter: undefined });
    expect(await from(proxied, '198.51.100.20')).toEqual({ status: 200, limit: '2', remaining: '0', reset: '60', retryAfter: undefined });
  });

  it('has no budget of its own that a few clients could spend: five clients at their limit leave a sixth served, on both faces', async () => {
    // Issue 34: 5 addresses x 120 requests spent the key's 600 a minute, and every other visitor got 429.
    // Here the clients alone spend 10 requests (and are refused 5 more), twice the key's setting of 5.
    const clients = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5'];
    for (const client of clients) {
      expect(await from(proxied, client)).toEqual({ status: 200, limit: '2', remaining: '1', reset: '60', retryAfter: undefined });
      expect(await from(proxied, client)).toEqual({ status: 200, limit: '2', remaining: '0', reset: '60', retryAfter: undefined });
      expect(await from(proxied, client)).toEqual({ status: 429, limit: '2', remaining: '0', reset: '60', retryAfter: '60' });
    }
    expect(await from(proxied, '192.0.2.6')).toEqual({ status: 200, limit: '2', remaining: '1', reset: '60', retryAfter: undefined });
    const gql = await proxied.gql(
      `query($b: UUID!) { brandSettings(brandId: $b) { name } }`,
      { b: shop.id },
      { key: shopKey, headers: { 'x-forwarded-for': '192.0.2.6' } },
    );
    expect({ status: gql.status, body: gql.body, ...limits(gql.headers) }).toEqual({
      status: 200,
      body: { data: { brandSettings: { name: 'Test Brand' } } },
      limit: '2',
      remaining: '0',
      reset: '60',
      retryAfter: undefined,
    });
  });

  it("the issue's attack with the default settings: 5 addresses x 120 requests, then a sixth visitor is served", async () => {
    const defaults = await startApp(shopDb, {
      http: {
        RATE_LIMIT_PER_MINUTE: httpDefaults.rateLimitPerMinute,
        RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: httpDefaults.publishableClientRateLimitPerMinute,
        TRUST_PROXY: ['127.0.0.1'],
      },
    });
    const statuses = new Map<number, number>();
    const client = async (address: string) => {
      for (let i = 0; i < 120; i++) {
        const { status } = await from(defaults, address);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all([1, 2, 3, 4, 5].map((n) => client(`198.51.100.${n}`)));
    expect(Object.fromEntries(statuses)).toEqual({ 200: 600 });
    expect((await from(defaults, '198.51.100.1')).status).toBe(429);
    expect(await from(defaults, '198.51.100.6')).toEqual({
      status: 200,
      limit: '120',
      remaining: '119',
      reset: '60',
      retryAfter: undefined,
    });
  });

  it('leaves a secret key of the brand, from the same client, to its own budget alone', async () => {
    for (const remaining of ['4', '3', '2']) {
      expect(await from(proxied, '203.0.113.7', partnerKey)).toEqual({
        status: 200,
        limit: '5',
        remaining,
        reset: '60',
        retryAfter: undefined,
      });
    }
  });

  it('believes X-Forwarded-For only from a trusted proxy: otherwise every client is the proxy', async () => {
    expect(await from(direct, '203.0.113.7')).toEqual({ status: 200, limit: '2', remaining: '1', reset: '60', retryAfter: undefined });
    expect(await from(direct, '198.51.100.20')).toEqual({ status: 200, limit: '2', remaining: '0', reset: '60', retryAfter: undefined });
    expect((await from(direct, '192.0.2.1')).status).toBe(429);
  });
});
