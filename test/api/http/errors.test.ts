import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { dropTable, freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

describe('error model', () => {
  it('answers an unknown route with 404 NOT_FOUND and the request id that the header carries', async () => {
    const res = await t.rest('GET', '/v1/nowhere?x=1', { key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(res.body.error.message).toBe('No route for GET /v1/nowhere');
    expect(res.body.error.requestId).toBe(res.headers['x-request-id']);
    expect(res.body.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a method a known path does not take with 405 METHOD_NOT_ALLOWED and an Allow header', async () => {
    const path = '/v1/bookings/00000000-0000-4000-8000-000000000000/reschedule';
    const reschedule = await t.rest('DELETE', path, { key });
    expect([reschedule.status, reschedule.headers.allow, reschedule.body]).toEqual([
      405,
      'POST',
      {
        error: {
          code: 'METHOD_NOT_ALLOWED',
          message: `${path} does not take DELETE; it takes POST`,
          requestId: reschedule.headers['x-request-id'],
        },
      },
    ]);
    const hooks = await t.app.inject({
      method: 'PUT',
      url: `/v1/brands/${brand.id}/webhooks?x=1`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect([hooks.statusCode, hooks.headers.allow, hooks.json().error.code]).toEqual([405, 'GET, HEAD, POST', 'METHOD_NOT_ALLOWED']);
    const graphql = await t.app.inject({ method: 'DELETE', url: '/graphql' });
    expect([graphql.statusCode, graphql.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS, POST']);
  });

  it('answers GET /v1/bookings/cancel with 405 Allow: POST, not as a booking whose id is "cancel"', async () => {
    for (const method of ['GET', 'HEAD', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/v1/bookings/cancel', headers: { authorization: `Bearer ${key}` } });
      expect([res.statusCode, res.headers.allow], method).toEqual([405, 'POST']);
      if (method !== 'HEAD') {
        expect(res.json().error, method).toEqual({
          code: 'METHOD_NOT_ALLOWED',
          message: `/v1/bookings/cancel does not take ${method}; it takes POST`,
          requestId: res.headers['x-request-id'],
        });
      }
    }
    // A booking id in the same place is still a booking.
    const booking = await t.rest('GET', '/v1/bookings/00000000-0000-4000-8000-000000000000', { key });
    expect([booking.status, booking.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE on REST routes', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/bookings/cancel',
        headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
        payload: '{"bookings":[{"bookingId":"00000000-0000-4000-8000-000000000000","cancel":true}]}',
      });
      expect([res.statusCode, res.json().error.code], contentType).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    const sandbox = await t.app.inject({
      method: 'POST',
      url: '/v1/sandbox/payment_intents/confirm',
      headers: { 'content-type': 'text/plain' },
      payload: '{"paymentIntentSecret":"pi_secret","outcome":"succeeded"}',
    });
    expect([sandbox.statusCode, sandbox.json().error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('answers malformed JSON with 400 VALIDATION_FAILED', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: '{"query": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('refuses an unknown body field instead of ignoring it, naming the field', async () => {
    const res = await t.rest('POST', '/v1/bookings/cancel', {
      key,
      body: { bookings: [{ bookingId: '00000000-0000-4000-8000-000000000000', cancel: true }], refundAll: true },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'refundAll is not a known field',
      details: { field: 'refundAll' },
    });
    // In a cancel item, which is judged on its own: an error of that item.
    const item = await t.rest('POST', '/v1/bookings/cancel', {
      key,
      body: { bookings: [{ bookingId: '00000000-0000-4000-8000-000000000000', cancel: true, refundAmmount: 10 }] },
    });
    expect([item.status, item.body.errors[0]]).toEqual([
      200,
      {
        index: 0,
        bookingId: '00000000-0000-4000-8000-000000000000',
        code: 'VALIDATION_FAILED',
        message: 'bookings.0.refundAmmount is not a known field',
        field: 'bookings.0.refundAmmount',
      },
    ]);
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const payload = JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(1024 * 1024) });
    const res = await t.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('unexpected failures are masked', () => {
  it('gives 500 INTERNAL_SERVER_ERROR with a request id and no internals, on both faces', async () => {
    const broken = await freshDb();
    const b = await createBrand(broken);
    const k = (await createApiKey(broken, { brandId: b.id })).secret;
    const app = await startApp(broken);
    await dropTable(broken, 'hosts');

    const rest = await app.rest('GET', `/v1/brands/${b.id}/hosts`, { key: k });
    expect(rest.status).toBe(500);
    expect(rest.body).toEqual({
      error: { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error', requestId: rest.headers['x-request-id'] },
    });

    const gql = await app.gql(`query($b: UUID!) { hosts(brandId: $b) { id } }`, { b: b.id }, { key: k });
    expect(gql.body.errors).toHaveLength(1);
    const [error] = gql.body.errors;
    expect(error.message).toBe('Internal server error');
    expect(error.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // Neither engine's words: SQLite's "no such table: hosts", PostgreSQL's 'relation "hosts" does not exist'.
    expect(JSON.stringify(gql.body)).not.toMatch(/hosts\b.*table|relation|sqlite|postgres|stack/i);
  });
});

describe('operational endpoints', () => {
  it('GET /healthz answers 200 without a key', async () => {
    const res = await t.rest('GET', '/healthz');
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('GET /openapi.json documents the REST paths with the spec’s security schemes, and the publishable key', async () => {
    const res = await t.rest('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.components.securitySchemes)).toEqual(['Brand-API-Key', 'Organization-API-Key', 'Publishable-Key']);
    // The spec's two schemes are the default; operations open to publishable keys list all three.
    expect(res.body.security).toEqual([{ 'Brand-API-Key': [] }, { 'Organization-API-Key': [] }]);
    expect(res.body.paths['/v1/brands/{brandId}/settings'].get.parameters).toContainEqual(
      expect.objectContaining({ name: 'brandId', in: 'path', required: true }),
    );
    expect(res.body.paths).not.toHaveProperty('/healthz');
  });

  it('GET /docs serves the API reference page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('GET /graphql from a browser shows the Sandbox landing page outside production', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('embeddable-sandbox');
  });

  it('hides the landing page and introspection in production', async () => {
    const prod = await startApp(await freshDb(), { production: true });
    const page = await prod.app.inject({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
    expect(page.body).not.toContain('embeddable-sandbox');
    const res = await prod.gql('{ __schema { queryType { name } } }');
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
