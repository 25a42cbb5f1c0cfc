/**
 * CORS: which browser origins may call Tessera, what a preflight answers, and what an answer lets a page
 * read. Production allows CORS_ORIGINS and publishable keys' origins; development adds localhost.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const brand = await createBrand(db);
const secretKey = (await createApiKey(db, { brandId: brand.id })).secret;
const shopKey = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
let production: TestApp;
let development: TestApp;

beforeAll(async () => {
  production = await startApp(db, {
    production: true,
    corsOrigins: ['https://admin.example'],
    http: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: 2 },
  });
  development = await startApp(db);
});

const preflight = (t: TestApp, url: string, origin: string, requestHeaders = 'authorization,content-type') =>
  t.app.inject({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
  });

describe('CORS preflight', () => {
  it('answers 204 with the methods and headers Tessera reads, for an allowed origin, before any key or rate limit', async () => {
    for (let i = 0; i < 4; i += 1) {
      const res = await preflight(production, '/graphql', 'https://admin.example');
      expect(res.statusCode).toBe(204);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': 'https://admin.example',
        'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
        'access-control-allow-headers':
          'Authorization, Content-Type, Idempotency-Key, Tessera-Brand-Id, Tessera-Human-Check, Apollo-Require-Preflight, X-Apollo-Operation-Name, ' +
          'Apollographql-Client-Name, Apollographql-Client-Version, Traceparent, Tracestate',
        'access-control-max-age': '600',
      });
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const rest = await preflight(
      production,
      `/v1/brands/${brand.id}/carts/c/payment_intents`,
      'https://shop.example',
      'authorization,idempotency-key',
    );
    expect(rest.statusCode).toBe(204);
    expect(rest.headers['access-control-allow-origin']).toBe('https://shop.example');
  });

  it('gives an origin nobody allowed no CORS headers, so the browser blocks it', async () => {
    const res = await preflight(production, '/graphql', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    // Localhost only outside production.
    expect((await preflight(production, '/graphql', 'http://localhost:5173')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(development, '/graphql', 'http://localhost:5173')).headers['access-control-allow-origin']).toBe(
      'http://localhost:5173',
    );
    expect((await preflight(development, '/graphql', 'http://127.0.0.1:8080')).headers['access-control-allow-origin']).toBe(
      'http://127.0.0.1:8080',
    );
    expect(
      (await preflight(development, '/graphql', 'http://localhost.evil.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });

  it("allows a publishable key's origin from the moment the key is issued", async () => {
    expect((await preflight(production, '/graphql', 'https://new-shop.example')).headers['access-control-allow-origin']).toBeUndefined();
    await createPublishableKey(db, brand.id, ['https://new-shop.example']);
    expect((await preflight(production, '/graphql', 'https://new-shop.example')).headers['access-control-allow-origin']).toBe(
      'https://new-shop.example',
    );
  });
});

describe('CORS on answers', () => {
  it('lets an allowed page read the answer and the headers it needs, errors included', async () => {
    const ok = await production.app.inject({
      method: 'GET',
      url: `/v1/brands/${brand.id}/settings`,
      headers: { origin: 'https://shop.example', authorization: `Bearer ${shopKey}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(ok.headers['access-control-expose-headers']).toBe(
      'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Idempotent-Replayed',
    );
    expect(String(ok.headers.vary)).toContain('Origin');
    const denied = await production.app.inject({
      method: 'GET',
      url: `/v1/brands/${brand.id}/events`,
      headers: { origin: 'https://shop.example', authorization: `Bearer ${shopKey}` },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.headers['access-control-allow-origin']).toBe('https://shop.example');
    const unauthenticated = await production.app.inject({
      method: 'GET',
      url: `/v1/brands/${brand.id}/settings`,
      headers: { origin: 'https://admin.example', authorization: 'Bearer sk_test_nope' },
    });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['access-control-allow-origin']).toBe('https://admin.example');
  });

  it('keeps Apollo CSRF prevention for simple GraphQL requests, and serves preflighted ones', async () => {
    // No header a browser must preflight (a key would be one): a simple request, which any page can send.
    const simple = await production.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      headers: { origin: 'https://admin.example' },
    });
    expect(simple.statusCode).toBe(400);
    expect(simple.body).toContain('CSRF');
    const withKey = await production.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      headers: { origin: 'https://admin.example', authorization: `Bearer ${secretKey}` },
    });
    expect([withKey.statusCode, withKey.json()]).toEqual([200, { data: { __typename: 'Query' } }]);
    const json = await production.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { origin: 'https://admin.example', authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      payload: { query: '{ __typename }' },
    });
    expect(json.statusCode).toBe(200);
    expect(json.headers['access-control-allow-origin']).toBe('https://admin.example');
  });
});
