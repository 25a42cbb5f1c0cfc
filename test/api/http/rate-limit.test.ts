import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
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

  it("gives a publishable key a key's budget per visitor address, since every visitor of the shop shares it", async () => {
    const shopKey = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
    const from = (remoteAddress: string) =>
      t.app.inject({ method: 'GET', url: settings, remoteAddress, headers: { authorization: `Bearer ${shopKey}` } });
    for (const remaining of ['2', '1', '0']) expect((await from('203.0.113.7')).headers['x-ratelimit-remaining']).toBe(remaining);
    expect((await from('203.0.113.7')).statusCode).toBe(429);
    const neighbour = await from('198.51.100.20');
    expect(neighbour.statusCode).toBe(200);
    expect(neighbour.headers['x-ratelimit-remaining']).toBe('2');
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
