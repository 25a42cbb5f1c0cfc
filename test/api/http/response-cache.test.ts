import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../../src/db/connect.ts';
import { readiness } from '../../../src/domain/operations/operations.ts';
import { ResponseCache } from '../../../src/http/response-cache.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshSharedDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createListing } from '../../../fixtures/factories/listings.ts';
import { sample, scrape } from '../../support/metrics.ts';
import { recordStatements } from '../../support/statements.ts';
import { cancel, cartBookings, checkout, pay, type Send } from '../../support/booking-traffic.ts';
import { createShop } from '../../support/shop-world.ts';

// A database other connections can open too: `elsewhere` is a second gateway on it, opened from its
// DATABASE_URL as the server opens it (on SQLite a second connection to the file, on PostgreSQL a pool
// of its own), whose writes this app learns of only through the database.
const { db, url } = await freshSharedDb();
const elsewhere = await connect(url);
const organization = await createOrganization(db);
const harbor = await createBrand(db, { organizationId: organization.id, name: 'Harbor' });
const kayak = await createBrand(db, { organizationId: organization.id, name: 'Kayak' });
const harborKey = await createApiKey(db, { brandId: harbor.id });
const kayakKey = (await createApiKey(db, { brandId: kayak.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: organization.id })).secret;
const { experience } = await createExperience(db, harbor.id);
const { content } = await createListing(db, harbor.id, {
  kind: 'experience',
  experienceId: experience.id,
  content: { title: 'Sunset sail' },
});
await createListing(db, kayak.id, { content: { title: 'Kayak rental' } });

/**
 * Runs `fn` and returns how many SQL statements the process executed meanwhile, with their text: the
 * drivers' own executions (better-sqlite3's statements run, node-postgres's client queries), so a
 * statement counts every time it runs, prepared once or not, on either engine.
 */
async function countStatements<T>(fn: () => Promise<T>): Promise<{ count: number; sql: string[]; result: T }> {
  const sql: string[] = [];
  const restore = recordStatements(db, (statement) => sql.push(statement));
  try {
    const result = await fn();
    return { count: sql.length, sql, result };
  } finally {
    restore();
  }
}

/**
 * What a cached answer costs: on SQLite one statement, the data generation (its change counters); on
 * PostgreSQL none, the data version being kept in memory while the gateway listens
 * (src/db/postgres/data-version.ts).
 */
const cachedStatements = { sqlite: 1, postgresql: 0 }[db.engine];

/**
 * `countStatements(send)`, each in a turn of its own, until the answer comes from the cache, 50 times at
 * most. The first does, unless (PostgreSQL) the gateway is not listening yet and reads the snapshot,
 * which a transaction ending anywhere on the server moves.
 */
async function untilCached<T>(send: () => Promise<T>): Promise<{ count: number; sql: string[]; result: T }> {
  for (let attempt = 1; ; attempt++) {
    // A new turn of the event loop: on SQLite, requests of one turn share one read of the generation. On
    // PostgreSQL a pause, for the listening connection to open and the notifications of the writes before
    // to arrive.
    await new Promise((resolve) => (db.engine === 'sqlite' ? setImmediate(resolve) : setTimeout(resolve, 20)));
    const run = await countStatements(send);
    if (run.count === cachedStatements || attempt === 50) return run;
  }
}

/**
 * `read()` until `seen` holds of its answer: at once on SQLite, whose data generation reads the file;
 * on PostgreSQL a write of another gateway is heard when its notification arrives (docs/operations.md),
 * so within a second here. Returns the last answer.
 */
async function heardWithin<T>(read: () => Promise<T>, seen: (answer: T) => boolean): Promise<T> {
  const deadline = performance.now() + (db.engine === 'postgresql' ? 1000 : 0);
  for (;;) {
    const answer = await read();
    if (seen(answer) || performance.now() >= deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const FEATURED = `query Featured($brandId: UUID) { featuredListings(brandId: $brandId) { id title } }`;
const titles = (body: any) => (body.data.featuredListings ?? body.data).map((listing: { title: string }) => listing.title);
/** A write of this app's own database connection (on SQLite the app's connection itself). */
const rename = async (title: string) => {
  await db.update('listingContents', { id: content!.id }, { title });
};
/** The same write by the other gateway. */
const renameElsewhere = async (title: string) => {
  await elsewhere.seeder.update('listingContents', { id: content!.id }, { title });
};

const lookups = (outcome: 'hit' | 'miss') => async (api: 'rest' | 'graphql') =>
  sample(await scrape(t), 'response_cache_lookups_total', { api, outcome }) ?? 0;
const hits = lookups('hit');
const misses = lookups('miss');

let t: TestApp;
let logs: Array<Record<string, any>> = [];
beforeAll(async () => {
  t = await startApp(db, { logStream: { write: (line) => logs.push(JSON.parse(line)) } });
});
afterAll(() => elsewhere.database.close());

describe('REST catalogue reads', () => {
  it("answer a repeated request from the cache: the same body, for the data version's statement at most", async () => {
    const first = await countStatements(() => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret }));
    const again = await untilCached(() => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret }));
    expect(titles(first.result.body)).toEqual(['Sunset sail']);
    expect(first.count).toBeGreaterThan(3);
    expect(again.result.status).toBe(200);
    expect(again.result.body).toEqual(first.result.body);
    expect(again.result.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.count).toBe(cachedStatements);
    if (db.engine === 'sqlite') expect(again.sql[0]).toBe('SELECT version FROM data_generation');
  });

  it('never answer from before a write of this process', async () => {
    await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret });
    await rename('Sunset sail, now with dinner');
    expect(titles((await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })).body)).toEqual([
      'Sunset sail, now with dinner',
    ]);
    await rename('Sunset sail');
    expect(titles((await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })).body)).toEqual(['Sunset sail']);
  });

  it('never answer from before a write of another gateway on the same database', async () => {
    await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret });
    const featured = async () => titles((await t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })).body);
    await renameElsewhere('Renamed elsewhere');
    expect(await heardWithin(featured, (seen) => seen[0] === 'Renamed elsewhere')).toEqual(['Renamed elsewhere']);
    await renameElsewhere('Sunset sail');
    expect(await heardWithin(featured, (seen) => seen[0] === 'Sunset sail')).toEqual(['Sunset sail']);
  });

  it('keep their answers through bookings, refunds, readiness checks and events of either gateway, which write only what no cached answer reads', async () => {
    const { shop, sessionTimes } = await createShop(db, { sessions: 1, capacity: 10 });
    const send: Send = (method, path, options) => t.rest(method, path, options);
    const featured = () => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret });
    const heartbeat = async () => String(await db.value('SELECT written_at FROM readiness_heartbeat WHERE id = 1'));
    /** The next answer, and whether the cache gave it; after a pause on PostgreSQL, for any notification sent to arrive. */
    const answered = async () => {
      if (db.engine === 'postgresql') await new Promise((resolve) => setTimeout(resolve, 200));
      const before = await hits('rest');
      const run = await countStatements(featured);
      return { body: run.result.body, cached: run.count === cachedStatements && (await hits('rest')) === before + 1 };
    };
    const cached = await untilCached(featured);
    expect(cached.count).toBe(cachedStatements);

    // A booking through the API: hold 3 places, pay, cancel one guest with a refund.
    const held = await checkout(send, shop, sessionTimes[0]!, 3);
    expect(held.status).toBe(201);
    expect((await pay(send, held.secret!, 'succeeded')).status).toBe(200);
    const [booking] = await cartBookings(send, shop, held.cartId);
    expect(booking!.status).toBe('CONFIRMED');
    const cancelled = await cancel(send, shop, [
      { bookingId: booking!.id, participants: [booking!.participants[0]!.id], refundAmount: 10 },
    ]);
    expect([cancelled.status, cancelled.body.errors]).toEqual([200, []]);
    expect(await answered()).toEqual({ body: cached.result.body, cached: true });

    // This gateway's readiness check: a committed write of the heartbeat's row (READINESS_CACHE_MS apart).
    const beat = await heartbeat();
    expect((await t.rest('GET', '/readyz')).body).toEqual({ status: 'ready' });
    expect(await heartbeat()).not.toBe(beat);
    expect(await answered()).toEqual({ body: cached.result.body, cached: true });

    // Another gateway's check and an event it records: on either engine no trigger of those tables moves the version.
    const other = await heartbeat();
    expect(await readiness(elsewhere.database, new Date())).toEqual({ ready: true });
    expect(await heartbeat()).not.toBe(other);
    await elsewhere.database.events.insertEvent({
      id: randomUUID(),
      brandId: harbor.id,
      type: 'booking.created',
      resourceId: randomUUID(),
      payload: {},
      createdAt: new Date().toISOString(),
    });
    expect(await answered()).toEqual({ body: cached.result.body, cached: true });

    // A write to what it reads, by the other gateway: the next answer is computed again.
    await renameElsewhere('Renamed elsewhere');
    expect(titles((await heardWithin(featured, (seen) => titles(seen.body)[0] === 'Renamed elsewhere')).body)).toEqual([
      'Renamed elsewhere',
    ]);
    await renameElsewhere('Sunset sail');
    await heardWithin(featured, (seen) => titles(seen.body)[0] === 'Sunset sail');
  });

  it('never answer from before a write, with reads racing writes of both gateways', async () => {
    for (let version = 0; version < 40; version++) {
      const title = `Sail v${version}`;
      const reads = Array.from({ length: 4 }, () => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret }));
      // Writes land while the reads above are in flight, alternately from this gateway's connection and the other's.
      if (version % 2 === 0) await rename(title);
      else {
        await renameElsewhere(title);
        await heardWithin(
          () => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret }),
          (answer) => titles(answer.body)[0] === title,
        );
      }
      await Promise.all(reads);
      const after = await Promise.all(Array.from({ length: 4 }, () => t.rest('GET', '/v3/listings/featured', { key: harborKey.secret })));
      for (const answer of after) expect(titles(answer.body)).toEqual([title]);
    }
    await rename('Sunset sail');
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

  it('refuse a key revoked by another gateway at once, even for an answer it had cached', async () => {
    const doomed = await createApiKey(db, { brandId: kayak.id });
    const url = `/v1/brands/${kayak.id}/settings`;
    await t.rest('GET', url, { key: doomed.secret });
    expect((await t.rest('GET', url, { key: doomed.secret })).status).toBe(200);
    await elsewhere.seeder.update('apiKeys', { id: doomed.id }, { revokedAt: new Date().toISOString() });
    const refused = await heardWithin(
      () => t.rest('GET', url, { key: doomed.secret }),
      (answer) => answer.status === 401,
    );
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('GraphQL catalogue queries', () => {
  it('answer a repeated query with the same variables from the cache, and logs name its operation', async () => {
    const first = await countStatements(() => t.gql(FEATURED, { brandId: harbor.id }, { key: orgKey }));
    logs = [];
    const again = await untilCached(() => t.gql(FEATURED, { brandId: harbor.id }, { key: orgKey }));
    expect(again.count).toBe(cachedStatements);
    expect(again.result.body).toEqual(first.result.body);
    expect(titles(again.result.body)).toEqual(['Sunset sail']);
    // Answers depend on the caller's key: no browser or proxy may keep one, replayed or not.
    expect([first.result.headers['cache-control'], again.result.headers['cache-control']]).toEqual(['no-store', 'no-store']);
    expect(logs.find((l) => l.msg === 'request completed')).toMatchObject({
      operationName: 'Featured',
      operationType: 'query',
      statusCode: 200,
    });
    const other = await countStatements(() => t.gql(FEATURED, { brandId: kayak.id }, { key: orgKey }));
    expect(titles(other.result.body)).toEqual(['Kayak rental']);
    expect(other.count).toBeGreaterThan(1);
  });

  it('never answer from before a write', async () => {
    await t.gql(FEATURED, { brandId: harbor.id }, { key: orgKey });
    await rename('Sunset sail for two');
    expect(titles((await t.gql(FEATURED, { brandId: harbor.id }, { key: orgKey })).body)).toEqual(['Sunset sail for two']);
    await rename('Sunset sail');
  });

  it('keep no answer with errors, of mutations, or of a query reaching beyond the catalogue', async () => {
    const hitsBefore = await hits('graphql');
    const missesBefore = await misses('graphql');
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
    // Nor are sessions reached through an experience, even from a fragment.
    const sessions = `query Sessions($brandId: UUID!, $id: UUID!) { experience(brandId: $brandId, id: $id) { title ...Places } } fragment Places on Experience { sessions(from: "2027-01-01", to: "2027-01-02") { remaining } }`;
    expect((await twice(sessions, { brandId: harbor.id, id: experience.id })).data.experience.sessions).toEqual([]);
    const quote = `query { __typename }`;
    await twice(quote);
    // Its second ask was a hit, unless (PostgreSQL) a commit elsewhere on the server moved the snapshot
    // in between (see untilCached): then it is asked until one is.
    for (let attempt = 1; (await hits('graphql')) === hitsBefore && attempt < 20; attempt++) await t.gql(quote, {}, { key: orgKey });
    expect(await hits('graphql')).toBe(hitsBefore + 1);
    const cartId = '0a4f0c1e-5b7a-4a36-9f0e-0c2a8f6b1d01';
    const mutation = `mutation { createPaymentIntent(brandId: "${harbor.id}", cartId: "${cartId}", input: { data: [], getOnlyTotalNetAmount: true }) { __typename } }`;
    await t.gql(mutation, {}, { key: orgKey });
    await t.gql(mutation, {}, { key: orgKey });
    expect(await hits('graphql')).toBe(hitsBefore + 1);
    // Errors, queries beyond the catalogue and mutations are not reads the cache could answer: none is a
    // miss, which a hit ratio would count. The catalogue query's first ask was one.
    expect(await misses('graphql')).toBeGreaterThan(missesBefore);
    const missesThen = await misses('graphql');
    await t.gql(mutation, {}, { key: orgKey });
    await twice(FEATURED);
    await twice(mixed, { brandId: harbor.id, id: experience.id });
    expect(await misses('graphql')).toBe(missesThen);
  });
});

describe('the cache itself', () => {
  const answer = {
    body: Buffer.from('{"data":1}'),
    contentType: 'application/json',
    cacheControl: undefined,
    contentLanguage: undefined,
    operation: undefined,
  };

  it('keeps nothing computed while a write landed, and serves an answer only to requests of its generation', async () => {
    let generation = 'g1';
    const cache = new ResponseCache(async () => generation, 1024 * 1024);
    generation = 'g2';
    await cache.set('k', 'g1', answer);
    await cache.set('k', 'g1', answer);
    expect(cache.size).toBe(0);
    await cache.set('k', 'g2', answer);
    expect(cache.get('k', 'g2')).toBeUndefined();
    await cache.set('k', 'g2', answer);
    expect(cache.get('k', 'g2')?.body.toString()).toBe('{"data":1}');
    expect(cache.get('k', 'g1')).toBeUndefined();
    generation = 'g3';
    await cache.set('other', 'g3', answer);
    await cache.set('other', 'g3', answer);
    expect(cache.size).toBe(1);
    expect(cache.get('k', 'g3')).toBeUndefined();
    // What was kept before the write is kept again at its first answer after it.
    await cache.set('k', 'g3', answer);
    expect(cache.get('k', 'g3')?.body.toString()).toBe('{"data":1}');
  });

  it('keeps an answer the second time it is computed, never a request asked once: a flood of distinct requests evicts nothing', async () => {
    const cache = new ResponseCache(async () => 'g', 64 * 1024);
    await cache.set('hot', 'g', answer);
    expect(cache.get('hot', 'g')).toBeUndefined();
    await cache.set('hot', 'g', answer);
    expect(cache.get('hot', 'g')?.body.toString()).toBe('{"data":1}');
    for (let i = 0; i < 10_000; i++) await cache.set(`flood-${i}`, 'g', { ...answer, body: Buffer.alloc(2000) });
    expect(cache.size).toBe(1);
    expect(cache.get('hot', 'g')?.body.toString()).toBe('{"data":1}');
    // A flooding request asked again soon after is kept, as any repeated one.
    await cache.set('flood-9999', 'g', answer);
    expect(cache.get('flood-9999', 'g')).toBeDefined();
  });

  it('stays within its memory budget', async () => {
    const cache = new ResponseCache(async () => 'g', 64 * 1024);
    for (let i = 0; i < 100; i++) {
      for (let ask = 0; ask < 2; ask++) await cache.set(`key-${i}`, 'g', { ...answer, body: Buffer.alloc(2000) });
    }
    expect(cache.size).toBeLessThan(100);
    expect(cache.size * 2000).toBeLessThanOrEqual(64 * 1024);
    expect(cache.get('key-99', 'g')).toBeDefined();
  });

  it('is off with RESPONSE_CACHE_MAX_BYTES=0', async () => {
    const off = await startApp(db, { http: { RESPONSE_CACHE_MAX_BYTES: 0 } });
    await off.rest('GET', '/v3/listings/featured', { key: kayakKey });
    const again = await countStatements(() => off.rest('GET', '/v3/listings/featured', { key: kayakKey }));
    // The listings are read again (the brand and key are kept per data version, as with the cache on).
    expect(again.sql.filter((statement) => statement.includes('from "listings"'))).toHaveLength(1);
  });
});
