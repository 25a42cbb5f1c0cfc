import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';

const REQUEST_TIMEOUT_MS = 500;
const KEEP_ALIVE_TIMEOUT_MS = 200;
/** Node closes idle keep-alive connections about a second after the timeout announced (a race guard). */
const NODE_KEEP_ALIVE_GRACE_MS = 1_000;

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
let t: TestApp;
let port: number;
let postRoutes: string[];

beforeAll(async () => {
  t = await startApp(db, {
    http: { REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, CONNECTION_TIMEOUT_MS: 5_000, MAX_HEADER_BYTES: 8_192 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  const openapi = (await t.rest('GET', '/openapi.json')).body;
  postRoutes = Object.keys(openapi.paths)
    .filter((path) => openapi.paths[path].post)
    .map((path) => path.replace(/\{[^}]+\}/g, () => randomUUID()));
});

interface Exchange {
  /** Everything the server sent. */
  received: string;
  /** When the server closed the connection, in ms after connecting; null when it was still open at `waitMs`. */
  closedAfterMs: number | null;
}

/** Sends raw bytes on a fresh connection and never finishes the request unless they do. */
function exchange(bytes: string, waitMs = 4_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve({ received, closedAfterMs: null });
    }, waitMs);
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ received, closedAfterMs: Date.now() - started });
    });
  });
}

const bodyOf = (received: string) => JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
const responses = (received: string) => received.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];

describe('timeouts (real port)', () => {
  it('cuts off a slow-loris request that never finishes its body: 408 REQUEST_TIMEOUT, connection closed', async () => {
    const head = `POST /v1/bookings/cancel HTTP/1.1\r\nHost: tessera\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const { received, closedAfterMs } = await exchange(`${head}{"bookings": [`);
    expect(responses(received)).toEqual(['HTTP/1.1 408']);
    expect(received).toMatch(/\r\nConnection: close\r\n/);
    const body = bodyOf(received);
    expect(body).toEqual({
      error: {
        code: 'REQUEST_TIMEOUT',
        message: 'The request did not arrive in time',
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    });
    expect(received).toContain(`X-Request-Id: ${body.error.requestId}`);
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS * 4);
  });

  it('cuts off a request whose headers never end, and a connection that sends nothing', async () => {
    const trickle = await exchange('GET /healthz HTTP/1.1\r\nHost: tessera\r\nX-Slow: 1\r\n');
    expect(responses(trickle.received)).toEqual(['HTTP/1.1 408']);
    expect(trickle.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS * 4);

    const silent = await exchange('');
    expect(responses(silent.received)).toEqual(['HTTP/1.1 408']);
    expect(silent.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS * 4);
  });

  it('answers once when it answered before the body arrived (no key: 401), then closes the unfinished request', async () => {
    const head = 'POST /v1/bookings/cancel HTTP/1.1\r\nHost: tessera\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const { received, closedAfterMs } = await exchange(`${head}{"bookings": [`);
    expect(responses(received)).toEqual(['HTTP/1.1 401']);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS * 4);
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { received, closedAfterMs } = await exchange('GET /healthz HTTP/1.1\r\nHost: tessera\r\n\r\n');
    expect(responses(received)).toEqual(['HTTP/1.1 200']);
    expect(closedAfterMs).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS);
    expect(closedAfterMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + NODE_KEEP_ALIVE_GRACE_MS + 1_000);
  });
});

describe('request size limits', () => {
  it('refuses headers above MAX_HEADER_BYTES with 431 HEADERS_TOO_LARGE', async () => {
    const { received, closedAfterMs } = await exchange(`GET /healthz HTTP/1.1\r\nHost: tessera\r\nX-Padding: ${'a'.repeat(9_000)}\r\n\r\n`);
    expect(responses(received)).toEqual(['HTTP/1.1 431']);
    expect(bodyOf(received).error).toMatchObject({ code: 'HEADERS_TOO_LARGE', message: 'The request line and headers are too large' });
    expect(closedAfterMs).not.toBeNull();
  });

  it('refuses a path segment longer than 100 characters with 414 URI_TOO_LONG, and a malformed URL with 400', async () => {
    const routed = await t.rest('GET', `/v1/bookings/${'a'.repeat(100)}`, { key });
    expect(routed.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'bookingId' } });
    const tooLong = await t.rest('GET', `/v1/bookings/${'a'.repeat(101)}`, { key });
    expect(tooLong.status).toBe(414);
    expect(tooLong.body).toEqual({
      error: { code: 'URI_TOO_LONG', message: 'A path segment is longer than 100 characters', requestId: tooLong.headers['x-request-id'] },
    });
    const malformed = await t.rest('GET', '/v1/bookings/%zz', { key });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The URL is malformed', details: { field: 'url' } });
  });

  it('knows every REST POST route (the checks below cover each)', () => {
    expect(postRoutes.map((route) => route.replace(/[0-9a-f-]{36}/g, '{id}')).sort()).toEqual([
      '/v1/bookings/cancel',
      '/v1/bookings/{id}/reschedule',
      '/v1/brands/{id}/carts/{id}/payment_intents',
      '/v1/brands/{id}/coupons',
      '/v1/brands/{id}/credit-codes',
      '/v1/brands/{id}/experiences',
      '/v1/brands/{id}/experiences/{id}/archive',
      '/v1/brands/{id}/experiences/{id}/sessions',
      '/v1/brands/{id}/experiences/{id}/unarchive',
      '/v1/brands/{id}/hosts',
      '/v1/brands/{id}/listings',
      '/v1/brands/{id}/listings/{id}/publish',
      '/v1/brands/{id}/sessions/{id}/cancel',
      '/v1/brands/{id}/waitlists/{id}/entries',
      '/v1/brands/{id}/webhooks',
      '/v1/sandbox/payment_intents/confirm',
      '/v1/webhooks/payments',
    ]);
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE on every REST POST', async () => {
    const payload = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) });
    for (const url of postRoutes) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload,
      });
      expect({ url, status: res.statusCode, code: res.json().error.code }).toEqual({ url, status: 413, code: 'PAYLOAD_TOO_LARGE' });
    }
  });

  it('answers malformed JSON with 400 VALIDATION_FAILED on every REST POST', async () => {
    for (const url of postRoutes) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: '{"data": [',
      });
      const { error } = res.json();
      expect({ url, status: res.statusCode, code: error.code, requestId: error.requestId }).toEqual({
        url,
        status: 400,
        code: 'VALIDATION_FAILED',
        requestId: res.headers['x-request-id'],
      });
    }
  });
});
