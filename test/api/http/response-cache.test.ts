import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/db/sqlite/client.ts';
import { listingContents } from '../../../src/db/sqlite/schema/index.ts';
import { ResponseCache } from '../../../src/http/response-cache.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createListing } from '../../../fixtures/factories/listings.ts';
import { sample, scrape } from '../../support/metrics.ts';
import { countStatements } from '../../support/statements.ts';

// A database file, so a second connection (another process, an operator's CLI) can write to it too.
const file = join(mkdtempSync(join(tmpdir(), 'tessera-cache-')), 'cache.db');
const db = openDatabase(file);
const other = new Database(file);
const organization = createOrganization(db);
const harbor = createBrand(db, { organizationId: organization.id, name: 'Harbor' });
const kayak = createBrand(db, { organizationId: organization.id, name: 'Kayak' });
const harborKey = createApiKey(db, { brandId: harbor.id });
const kayakKey = createApiKey(db, { brandId: kayak.id }).secret;
const orgKey = createApiKey(db, { organizationId: organization.id }).secret;
const { experience } = createExperience(db, harbor.id);
const { content } = createListing(db, harbor.id, { kind: 'experience', experienceId: experience.id, content: { title: 'Sunset sail' } });
createListing(db, kayak.id, { content: { title: 'Kayak rental' } });

const FEATURED = `query Featured($brandId: UUID) { featuredListings(brandId: $brandId) { id title } }`;
const titles = (body: any) => (body.data.featuredListings ?? body.data).map((listing: { title: string }) => listing.title);
const rename = (title: string) => db.update(listingContents).set({ title }).where(eq(listingContents.id, content!.id)).run();

const hits = async (api: 'rest' | 'graphql') => sample(await scrape(t), 'response_cache_lookups_total', { api, outcome: 'hit' }) ?? 0;

let t: TestApp;
let logs: Array<Record<string, any>> = [];
beforeAll(async () => {
  t = await startApp(db, { logStream: { write: (line) => logs.push(JSON.parse(line)) } });
});
afterAll(() => {
  other.close();
  closeDatabase(db);
});

describe('REST catalogue reads', () => {
  it('answer a repeated request from the cache: the same body for one statement (the data generation)', async () => {
    const first = await countStatements(db, () => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret }));
    const again = await countStatements(db, () => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret }));
    expect(titles(first.result.body)).toEqual(['Sunset sail']);
    expect(first.count).toBeGreaterThan(3);
    expect(again.result.status).toBe(200);
    expect(again.result.body).toEqual(first.result.body);
    expect(again.result.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.count).toBe(1);
    expect(again.sql[0]).toMatch(/total_changes\(\)/);
  });

  it('never answer from before a write of this process', async () => {
    await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret });
    rename('Sunset sail, now with dinner');
    expect(titles((await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })).body)).toEqual([
      'Sunset sail, now with dinner',
    ]);
    rename('Sunset sail');
    expect(titles((await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })).body)).toEqual(['Sunset sail']);
  });

  it('never answer from before a write of another connection to the same file', async () => {
    await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret });
    other.prepare('UPDATE listing_contents SET title = ? WHERE id = ?').run('Renamed elsewhere', content!.id);
    expect(titles((await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })).body)).toEqual(['Renamed elsewhere']);
    other.prepare('UPDATE listing_contents SET title = ? WHERE id = ?').run('Sunset sail', content!.id);
    expect(titles((await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })).body)).toEqual(['Sunset sail']);
  });

  it('never answer from before a write, with reads racing writes of both connections', async () => {
    for (let version = 0; version < 40; version++) {
      const title = `Sail v${version}`;
      const reads = Array.from({ length: 4 }, () => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret }));
      // Writes land while the reads above are in flight, alternately from this connection and the other.
      if (version % 2 === 0) rename(title);
      else other.prepare('UPDATE listing_contents SET title = ? WHERE id = ?').run(title, content!.id);
      await Promise.all(reads);
      const after = await Promise.all(Array.from({ length: 4 }, () => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })));
      for (const answer of after) expect(titles(answer.body)).toEqual([title]);
    }
    rename('Sunset sail');
  });

  it("keep each caller's answer: another brand's key, an organization key with each brand header", async () => {
    const url = '/v3/listings/featured';
    expect(titles((await t.rest('GET', url, { key: harborKey.secret })).body)).toEqual(['Sunset sail']);
    expect(titles((await t.rest('GET', url, { key: kayakKey })).body)).toEqual(['Kayak rental']);
    const asOrg = (brandId: string) => t.rest('GET', url, { headers: { authorization: `Bearer ${orgKey}`, 'tessera-brand-id': brandId } });
    expect(titles((await asOrg(kayak.id)).body)).toEqual(['Kayak rental']);
    expect(titles((await asOrg(harbor.id)).body)).toEqual(['Sunset sail']);
    expect((await t.rest('GET', url, { key: orgKey })).status).toBe(400);
  });

  it('keep no error, and still authenticate, validate and rate-limit every request', async () => {
    const url = `/v1/brands/${kayak.id}/settings`;
    const before = await hits('rest');
    for (let i = 0; i < 2; i++) expect((await t.rest('GET', url, { key: harborKey.secret })).status).toBe(403);
    expect(await hits('rest')).toBe(before);
    await t.rest('GET', url, { key: kayakKey });
    const hit = await t.rest('GET', url, { key: kayakKey });
    expect(hit.status).toBe(200);
    expect(Number(hit.headers['x-ratelimit-remaining'])).toBeLessThan(1_000_000);
    expect((await t.rest('GET', url, {})).status).toBe(401);
    expect((await t.rest('GET', url, { key: `${kayakKey}x` })).status).toBe(401);
    expect((await t.rest('GET', '/v3/listings/featured?version=nope', { key: kayakKey })).status).toBe(400);
  });

  it('refuse a key revoked by another process at once, even for an answer it had cached', async () => {
    const doomed = createApiKey(db, { brandId: kayak.id });
    const url = `/v1/brands/${kayak.id}/settings`;
    await t.rest('GET', url, { key: doomed.secret });
    expect((await t.rest('GET', url, { key: doomed.secret })).status).toBe(200);
    other.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), doomed.id);
    const refused = await t.rest('GET', url, { key: doomed.secret });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('GraphQL catalogue queries', () => {
  it('answer a repeated query with the same variables from the cache, and logs name its operation', async () => {
    const first = await countStatements(db, () => t.gql(FEATURED, { brandId: harbor.id }, { key: orgKey }));
    logs = [];
    const again = await countStatements(db, () => t.gql(FEATURED, { brandId: harbor.id }, { key: orgKey }));
    expect(again.result.body).toEqual(first.result.body);
    expect(titles(again.result.body)).toEqual(['Sunset sail']);
    expect(again.count).toBe(1);
    // Answers depend on the caller's key: no browser or proxy may keep one, replayed or not.
    expect([first.result.headers['cache-control'], again.result.headers['cache-control']]).toEqual(['no-store', 'no-store']);
    expect(logs.find((l) => l.msg === 'request completed')).toMatchObject({
      operationName: 'Featured',
      operationType: 'query',
      statusCode: 200,
    });
    const other = await countStatements(db, () => t.gql(FEATURED, { brandId: kayak.id }, { key: orgKey }));
    expect(titles(other.result.body)).toEqual(['Kayak rental']);
    expect(other.count).toBeGreaterThan(1);
  });

  it('never answer from before a write', async () => {
    await t.gql(FEATURED, { brandId: harbor.id }, { key: orgKey });
    rename('Sunset sail for two');
    expect(titles((await t.gql(FEATURED, { brandId: harbor.id }, { key: orgKey })).body)).toEqual(['Sunset sail for two']);
    rename('Sunset sail');
  });

  it('keep no answer with errors, of mutations, or of a query reaching beyond the catalogue', async () => {
    const hitsBefore = await hits('graphql');
    const twice = async (query: string, variables: Record<string, unknown> = {}) => {
      const first = await t.gql(query, variables, { key: orgKey });
      expect((await t.gql(query, variables, { key: orgKey })).body).toEqual(first.body);
      return first.body;
    };
    // No brand named (an organization key): VALIDATION_FAILED, computed every time.
    expect((await twice(FEATURED)).errors[0].extensions.code).toBe('VALIDATION_FAILED');
    // Availability lapses with time, so a query asking for it is never kept, whatever else it asks.
    const mixed = `query Mixed($brandId: UUID!, $id: UUID!) { hosts(brandId: $brandId) { id } availability(brandId: $brandId, experienceId: $id, from: "2027-01-01", to: "2027-01-02") { id } }`;
    expect((await twice(mixed, { brandId: harbor.id, id: experience.id })).data.availability).toEqual([]);
    const quote = `query { __typename }`;
    await twice(quote);
    expect(await hits('graphql')).toBe(hitsBefore + 1);
    const cartId = '0a4f0c1e-5b7a-4a36-9f0e-0c2a8f6b1d01';
    const mutation = `mutation { createPaymentIntent(brandId: "${harbor.id}", cartId: "${cartId}", input: { data: [], getOnlyTotalNetAmount: true }) { __typename } }`;
    await t.gql(mutation, {}, { key: orgKey });
    await t.gql(mutation, {}, { key: orgKey });
    expect(await hits('graphql')).toBe(hitsBefore + 1);
  });
});

describe('the cache itself', () => {
  it('keeps nothing computed while a write landed, and serves an answer only to requests of its generation', async () => {
    let generation = 'g1';
    const cache = new ResponseCache(async () => generation, 1024 * 1024);
    const answer = { body: Buffer.from('{"data":1}'), contentType: 'application/json', cacheControl: undefined, operation: undefined };
    generation = 'g2';
    await cache.set('k', 'g1', answer);
    expect(cache.size).toBe(0);
    await cache.set('k', 'g2', answer);
    expect(cache.get('k', 'g2')?.body.toString()).toBe('{"data":1}');
    expect(cache.get('k', 'g1')).toBeUndefined();
    generation = 'g3';
    await cache.set('other', 'g3', answer);
    expect(cache.size).toBe(1);
    expect(cache.get('k', 'g3')).toBeUndefined();
  });

  it('stays within its memory budget', async () => {
    const cache = new ResponseCache(async () => 'g', 64 * 1024);
    for (let i = 0; i < 100; i++)
      await cache.set(`key-${i}`, 'g', {
        body: Buffer.alloc(2000),
        contentType: 'application/json',
        cacheControl: undefined,
        operation: undefined,
      });
    expect(cache.size).toBeLessThan(100);
    expect(cache.size * 2000).toBeLessThanOrEqual(64 * 1024);
    expect(cache.get('key-99', 'g')).toBeDefined();
  });

  it('is off with RESPONSE_CACHE_MAX_BYTES=0', async () => {
    const off = await startApp(db, { http: { RESPONSE_CACHE_MAX_BYTES: 0 } });
    await off.rest('GET', '/v3/listings/featured', { key: kayakKey });
    const again = await countStatements(db, () => off.rest('GET', '/v3/listings/featured', { key: kayakKey }));
    expect(again.count).toBeGreaterThan(1);
  });
});
