/** Logs: the request id on every line of a request, one access line per request, job names on background lines, no bodies. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { dropTable, freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const org = await createOrganization(db);
const brand = await createBrand(db, { organizationId: org.id });
const sister = await createBrand(db, { organizationId: org.id });
const brandKey = await createApiKey(db, { brandId: brand.id });
const orgKey = await createApiKey(db, { organizationId: org.id });
const lines: Array<Record<string, any>> = [];
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { logStream: { write: (line) => lines.push(JSON.parse(line)) } });
});

/** Runs `send` and returns the lines logged meanwhile (requests are injected one at a time). */
async function logged<T>(send: () => Promise<T>): Promise<{ result: T; lines: Array<Record<string, any>> }> {
  const from = lines.length;
  const result = await send();
  return { result, lines: lines.slice(from) };
}

const gql = (query: string, variables: Record<string, unknown>, key: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    payload: { query, variables },
  });

describe('access lines', () => {
  it('logs one line per REST request: request id, route pattern, path, status, duration, key id and brand, never the key', async () => {
    const { result, lines: mine } = await logged(() =>
      t.rest('GET', `/v1/brands/${brand.id}/settings?include=cancellationPolicy`, { key: brandKey.secret }),
    );
    expect(result.status).toBe(200);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: result.headers['x-request-id'],
      method: 'GET',
      route: '/v1/brands/:brandId/settings',
      path: `/v1/brands/${brand.id}/settings`,
      statusCode: 200,
      keyId: brandKey.id,
      brandId: brand.id,
    });
    expect(mine[0]!.durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(mine)).not.toContain(brandKey.secret);
  });

  it("names the GraphQL operation, its type and the acting brand: the org key's brandId variable", async () => {
    const query = `query SettingsForDashboard($b: UUID!) { brandSettings(brandId: $b) { name } }`;
    const { result, lines: mine } = await logged(() => gql(query, { b: sister.id }, orgKey.secret));
    expect(result.json().data.brandSettings.name).toBe('Test Brand');
    expect(mine).toEqual([
      expect.objectContaining({
        reqId: result.headers['x-request-id'],
        route: '/graphql',
        statusCode: 200,
        keyId: orgKey.id,
        brandId: sister.id,
        operationName: 'SettingsForDashboard',
        operationType: 'query',
      }),
    ]);
  });

  it("logs the brand key's own brand, and a null name for an anonymous operation", async () => {
    const { lines: mine } = await logged(() => gql(`{ hosts(brandId: "${brand.id}") { id } }`, {}, brandKey.secret));
    expect(mine).toEqual([expect.objectContaining({ keyId: brandKey.id, brandId: brand.id, operationName: null, operationType: 'query' })]);
  });

  it('logs the header brand of an org key, no key id for a request without one, and never a body', async () => {
    const marker = `Marker-${randomUUID()}`;
    const { lines: mine } = await logged(() =>
      t.rest('POST', '/v1/bookings/cancel', {
        key: orgKey.secret,
        headers: { 'tessera-brand-id': sister.id },
        body: { bookings: [{ bookingId: randomUUID(), cancel: true }], note: marker },
      }),
    );
    expect(mine).toEqual([
      expect.objectContaining({ route: '/v1/bookings/cancel', statusCode: 400, keyId: orgKey.id, brandId: sister.id }),
    ]);
    const anonymous = await logged(() => t.rest('GET', `/v1/bookings/${randomUUID()}?secretish=${marker}`));
    expect(anonymous.lines).toHaveLength(1);
    expect(anonymous.lines[0]).toMatchObject({ route: '/v1/bookings/:bookingId', statusCode: 401 });
    expect(anonymous.lines[0]).not.toHaveProperty('keyId');
    expect(JSON.stringify([...mine, ...anonymous.lines])).not.toContain(marker);
  });

  it('logs probes at debug only, so they do not flood the access log', async () => {
    const { lines: mine } = await logged(() => t.rest('GET', '/healthz'));
    expect(mine).toEqual([]);
  });
});

describe('lines from inside a request', () => {
  it('carries the request id on every line of a failing REST and GraphQL request (error handler, GraphQL error reporter)', async () => {
    const broken = await freshDb();
    const b = await createBrand(broken);
    const key = (await createApiKey(broken, { brandId: b.id })).secret;
    const captured: Array<Record<string, any>> = [];
    const app = await startApp(broken, { logStream: { write: (line) => captured.push(JSON.parse(line)) } });
    await dropTable(broken, 'hosts');

    const rest = await app.rest('GET', `/v1/brands/${b.id}/hosts`, { key });
    expect(rest.status).toBe(500);
    const restLines = captured.splice(0);
    expect(restLines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'request failed'],
      [30, 'request completed'],
    ]);
    for (const line of restLines) expect(line.reqId).toBe(rest.headers['x-request-id']);

    const graph = await app.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      payload: { query: `query BrandHosts { hosts(brandId: "${b.id}") { id } }` },
    });
    expect(graph.json().errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', requestId: graph.headers['x-request-id'] });
    const gqlLines = captured.splice(0);
    expect(gqlLines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'GraphQL resolver failed'],
      [30, 'request completed'],
    ]);
    for (const line of gqlLines) expect(line.reqId).toBe(graph.headers['x-request-id']);
    expect(gqlLines[1]).toMatchObject({ operationName: 'BrandHosts', statusCode: 200 });
  });

  it('logs a GraphQL request whose context cannot be built (database gone) with its request id', async () => {
    const gone = await freshDb();
    const b = await createBrand(gone);
    const key = (await createApiKey(gone, { brandId: b.id })).secret;
    const captured: Array<Record<string, any>> = [];
    const app = await startApp(gone, { ready: false, logStream: { write: (line) => captured.push(JSON.parse(line)) } });
    await gone.database.close();
    const graph = await app.gql(`{ hosts(brandId: "${b.id}") { id } }`, {}, { key });
    expect(graph.status).toBe(500);
    expect(graph.body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(graph.body)).not.toContain('database');
    const requestLines = captured.filter((l) => l.reqId !== undefined);
    expect(requestLines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'GraphQL context failed'],
      [30, 'request completed'],
    ]);
    expect(new Set(requestLines.map((l) => l.reqId)).size).toBe(1);
  });
});

describe('background jobs', () => {
  it('name their job on every line, having no request', async () => {
    const gone = await freshDb();
    const captured: Array<Record<string, any>> = [];
    const app = await startApp(gone, {
      ready: false,
      logStream: { write: (line) => captured.push(JSON.parse(line)) },
      webhooks: { dispatch: true, tickMs: 10 },
    });
    await gone.database.close();
    await app.app.ready();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const sweeper = captured.filter((l) => l.job === 'hold-sweeper');
    expect(sweeper.map((l) => l.msg)).toEqual(['sweeping lapsed holds failed', 'sweeping lapsed waitlist offers failed']);
    const dispatcher = captured.filter((l) => l.job === 'webhook-dispatcher');
    expect(dispatcher.length).toBeGreaterThan(0);
    expect(new Set(dispatcher.map((l) => l.msg))).toEqual(new Set(['leasing webhook deliveries failed']));
    expect(captured.filter((l) => l.job === undefined && l.reqId === undefined)).toEqual([]);
  });
});
