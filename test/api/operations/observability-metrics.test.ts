/** GET /metrics: requests by route pattern, GraphQL operations, errors by code, bounded labels. */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { sample, samples, scrape } from '../../support/metrics.ts';

const db = await freshDb();
const brand = await createBrand(db);
const other = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const settings = `/v1/brands/${brand.id}/settings`;
const SETTINGS_QUERY = `query BrandSettings($b: UUID!) { brandSettings(brandId: $b) { name } }`;

describe('REST requests', () => {
  it('counts requests and latency by method, route pattern and status, and errors by code; never a raw id', async () => {
    const t = await startApp(db);
    expect((await t.rest('GET', settings, { key })).status).toBe(200);
    expect((await t.rest('GET', `${settings}?include=cancellationPolicy`, { key })).status).toBe(200);
    expect((await t.rest('GET', `/v1/brands/${other.id}/settings`, { key })).status).toBe(403);
    expect((await t.rest('GET', `/v1/bookings/${randomUUID()}`)).status).toBe(401);
    expect((await t.rest('GET', `/v1/no-such/${randomUUID()}`, { key })).status).toBe(404);
    expect((await t.rest('GET', '/v1/bookings/not-a-uuid', { key })).status).toBe(400);

    const text = await scrape(t);
    const route = '/v1/brands/:brandId/settings';
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status_code: '200' })).toBe(2);
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status_code: '403' })).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/v1/bookings/:bookingId', status_code: '401' })).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/v1/bookings/:bookingId', status_code: '400' })).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status_code: '200' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket', { method: 'GET', route, status_code: '200', le: '+Inf' })).toBe(2);
    expect(
      samples(text)
        .filter((s) => s.name === 'errors_total' && s.value > 0)
        .map((s) => [s.labels.api, s.labels.code, s.value]),
    ).toEqual([
      ['rest', 'FORBIDDEN', 1],
      ['rest', 'UNAUTHENTICATED', 1],
      ['rest', 'NOT_FOUND', 1],
      ['rest', 'VALIDATION_FAILED', 1],
    ]);
    for (const id of [brand.id, other.id]) expect(text).not.toContain(id);
    // The scrape itself is counted once answered.
    expect(sample(await scrape(t), 'http_requests_total', { method: 'GET', route: '/metrics', status_code: '200' })).toBe(1);
  });

  it('serves the Prometheus text format with default process metrics', async () => {
    const t = await startApp(db);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.body).toContain('# TYPE http_requests_total counter');
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(sample(res.body, 'process_cpu_user_seconds_total')).toEqual(expect.any(Number));
    expect(sample(res.body, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

describe('GraphQL operations', () => {
  it('counts operations by name and type, anonymous ones and refused documents, and every error code', async () => {
    const t = await startApp(db);
    for (let i = 0; i < 2; i++)
      expect((await t.gql(SETTINGS_QUERY, { b: brand.id }, { key })).body.data.brandSettings.name).toBe('Test Brand');
    expect((await t.gql(`{ brandSettings(brandId: "${brand.id}") { name } }`, {}, { key })).status).toBe(200);
    const forbidden = await t.gql(`query OtherBrand { brandSettings(brandId: "${other.id}") { name } }`, {}, { key });
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const invalid = await t.gql(`query Broken { noSuchField }`, {}, { key });
    expect(invalid.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const unauthenticated = await t.gql(SETTINGS_QUERY, { b: brand.id });
    expect(unauthenticated.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // Refused before Apollo runs any plugin: too large a document, a request without CSRF protection.
    expect((await t.gql(`{ ${'__typename '.repeat(5000)} }`, {}, { key })).status).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/graphql?query=%7B__typename%7D' })).statusCode).toBe(400);

    const text = await scrape(t);
    const ops = samples(text).filter((s) => s.name === 'graphql_operations_total');
    expect(ops.map((s) => [s.labels.operation_name, s.labels.operation_type, s.value])).toEqual([
      ['BrandSettings', 'query', 3],
      ['anonymous', 'query', 1],
      ['OtherBrand', 'query', 1],
      ['unknown', 'unknown', 1],
    ]);
    expect(sample(text, 'graphql_operation_duration_seconds_count', { operation_name: 'BrandSettings', operation_type: 'query' })).toBe(3);
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/graphql', status_code: '200' })).toBe(5);
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/graphql', status_code: '400' })).toBe(2);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/graphql', status_code: '400' })).toBe(1);
    expect(
      samples(text)
        .filter((s) => s.name === 'errors_total' && s.value > 0)
        .map((s) => [s.labels.api, s.labels.code, s.value]),
    ).toEqual([
      ['graphql', 'FORBIDDEN', 1],
      ['graphql', 'GRAPHQL_VALIDATION_FAILED', 2],
      ['graphql', 'UNAUTHENTICATED', 1],
      ['graphql', 'BAD_REQUEST', 1],
    ]);
  });

  it('never makes a label of a long operation name, nor of names beyond the first 100', async () => {
    const t = await startApp(db);
    const long = `Op${randomBytes(500).toString('hex')}`.slice(0, 1000);
    expect((await t.gql(`query ${long} { __typename }`, {}, { key })).body.data).toEqual({ __typename: 'Query' });
    for (let i = 0; i < 101; i++) await t.gql(`query Name${i} { __typename }`, {}, { key });

    const text = await scrape(t);
    expect(text).not.toContain(long.slice(0, 80));
    const names = samples(text)
      .filter((s) => s.name === 'graphql_operations_total')
      .map((s) => s.labels.operation_name);
    expect(names).toHaveLength(101);
    expect(names).toContain('Name99');
    expect(names).not.toContain('Name100');
    expect(sample(text, 'graphql_operations_total', { operation_name: 'other', operation_type: 'query' })).toBe(2);
  });
});
