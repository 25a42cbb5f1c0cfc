import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createExperience, createHost } from '../../../fixtures/factories/catalog.ts';
import { createReviewer, createReviews, reviewRow } from '../../../fixtures/factories/reviews.ts';
import { statementsSent, untilDataVersionSteady } from '../../support/statements.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db);
const brand = await createBrand(db, { name: 'Coast Lisbon', organizationId: org.id });
const sister = await createBrand(db, { name: 'Coast Porto', organizationId: org.id });
const outsider = await createBrand(db, { name: 'Elsewhere' });

const sail = await createExperience(db, brand.id, { title: 'Sunset Sail' });
const sailReviews = await createReviews(db, { brandId: brand.id, experienceId: sail.experience.id, hostId: sail.host.id }, 47);
const sailIds = sailReviews.map((r) => r.id);
const empty = await createExperience(db, brand.id, { title: 'Quiet Walk' });
const marta = await createHost(db, sister.id, {
  firstName: 'Marta',
  lastName: 'Sousa',
  emailAddress: 'marta@host.test',
  phoneNumber: '+351 910 000 001',
});
const porto = await createExperience(db, sister.id, { title: 'Port Cellars' }, { host: marta });
const foreign = await createExperience(db, outsider.id);
await createReviews(db, { brandId: outsider.id, experienceId: foreign.experience.id, hostId: foreign.host.id }, 2);

const guest = await createReviewer(db, sister.id, {
  firstName: 'Inês',
  lastName: 'Costa',
  emailAddress: 'ines@guest.test',
  phoneNumber: '+351 930 000 003',
});
const portoReview = reviewRow({
  experienceId: porto.experience.id,
  reviewerId: guest.id,
  hostId: porto.host.id,
  rating: 4,
  recommendability: 8,
  text: 'Great tasting',
  reviewedAt: '2026-04-02T18:30:00.000Z',
  experiencedDate: '2026-04-01T16:00:00.000Z',
});
await db.database.reviews.insertReviews([portoReview]);

const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;

beforeAll(async () => {
  // These tests count what computing an answer costs: the response cache (a hit costs one statement) is off.
  t = await startApp(db, { http: { RESPONSE_CACHE_MAX_BYTES: 0 } });
});

const path = (experienceId: string) => `/v1/experiences/${experienceId}/reviews`;
const pageUrl = (experienceId: string, page: number, limit: number) => `${path(experienceId)}?page=${page}&limit=${limit}`;
const linksOf = (experienceId: string, limit: number, [first, previous, next, last]: number[]) => ({
  first: pageUrl(experienceId, first!, limit),
  previous: pageUrl(experienceId, previous!, limit),
  next: pageUrl(experienceId, next!, limit),
  last: pageUrl(experienceId, last!, limit),
});

async function page(url: string, key = brandKey) {
  const res = await t.rest('GET', url, { key });
  expect(res.status).toBe(200);
  expect(res.body).toHaveLength(1);
  return res.body[0] as { items: Array<{ id: string }>; links: Record<string, string> };
}

// Raw ids (`uuid`, `key`) under REST's name, so the two faces compare field for field.
const connectionQuery = `query($id: UUID!, $first: Int, $after: String) {
  experienceReviews(experienceId: $id, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node {
      id: uuid rating recommendability text reviewedAt experiencedDate experience { id: uuid title }
      reviewer { id: uuid firstName lastName fullName emailAddress phoneNumber profilePicture { id: key uri } }
      hostedBy { id: uuid firstName lastName fullName emailAddress phoneNumber profilePicture { id: key uri } }
    } }
  }
}`;

async function connection(variables: Record<string, unknown>, key = brandKey) {
  const res = await t.gql(connectionQuery, variables, { key });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.experienceReviews;
}

const gqlError = async (variables: Record<string, unknown>, key = brandKey) =>
  (await t.gql(connectionQuery, variables, { key })).body.errors?.[0]?.extensions;

describe('GET /v1/experiences/{experienceId}/reviews', () => {
  it('walks every page by following links.next until it equals last: each review once, newest first', async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let url = pageUrl(sail.experience.id, 1, 10);
    for (;;) {
      const body = await page(url);
      seen.push(...body.items.map((item) => item.id));
      sizes.push(body.items.length);
      if (url === body.links.last) break;
      url = body.links.next!;
    }
    expect(sizes).toEqual([10, 10, 10, 10, 7]);
    expect(seen).toEqual(sailIds);
  });

  it.each([
    [1, [1, 1, 2, 5], 10],
    [3, [1, 2, 4, 5], 10],
    [5, [1, 4, 5, 5], 7],
    [9, [1, 5, 5, 5], 0],
  ])('page %i has the links %j and %i items', async (n, pages, count) => {
    const body = await page(pageUrl(sail.experience.id, n, 10));
    expect(body.links).toEqual(linksOf(sail.experience.id, 10, pages));
    expect(body.items.map((item) => item.id)).toEqual(sailIds.slice((n - 1) * 10, n * 10));
    expect(body.items).toHaveLength(count);
  });

  it('gives an experience without reviews no items and links all to page 1', async () => {
    const body = await page(path(empty.experience.id));
    expect(body).toEqual({ items: [], links: linksOf(empty.experience.id, 20, [1, 1, 1, 1]) });
  });

  it('defaults to page 1 of 20 and accepts 100', async () => {
    const byDefault = await page(path(sail.experience.id));
    expect(byDefault.items.map((item) => item.id)).toEqual(sailIds.slice(0, 20));
    expect(byDefault.links).toEqual(linksOf(sail.experience.id, 20, [1, 1, 2, 3]));
    const all = await page(`${path(sail.experience.id)}?limit=100`);
    expect(all.items).toHaveLength(47);
    expect(all.links).toEqual(linksOf(sail.experience.id, 100, [1, 1, 1, 1]));
  });

  it('shows a review with its reviewer, host and experience as the spec has them', async () => {
    const body = await page(path(porto.experience.id), orgKey);
    const person = (row: typeof guest | typeof porto.host) => ({
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      fullName: `${row.firstName} ${row.lastName}`,
      emailAddress: row.emailAddress,
      phoneNumber: row.phoneNumber,
      profilePicture: row.profilePicture,
    });
    expect(body.items).toEqual([
      {
        id: portoReview.id,
        rating: 4,
        recommendability: 8,
        text: 'Great tasting',
        reviewer: person(guest),
        reviewedAt: '2026-04-02T18:30:00.000Z',
        experience: { id: porto.experience.id, title: 'Port Cellars' },
        hostedBy: person(porto.host),
        experiencedDate: '2026-04-01T16:00:00.000Z',
      },
    ]);
    expect(body.items[0]).toMatchObject({ reviewer: { fullName: 'Inês Costa' }, hostedBy: { fullName: 'Marta Sousa' } });
  });

  it.each([
    ['limit', 'limit=0'],
    ['limit', 'limit=101'],
    ['limit', 'limit=abc'],
    ['page', 'page=0'],
    ['page', 'page=-1'],
    ['page', 'page=abc'],
  ])('rejects a bad %s (%s) naming it', async (field, query) => {
    const res = await t.rest('GET', `${path(sail.experience.id)}?${query}`, { key: brandKey });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });

  it('rejects a malformed experience id naming experienceId', async () => {
    const res = await t.rest('GET', path('not-a-uuid'), { key: brandKey });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'experienceId' } });
  });

  it("answers 404 for another brand's experience and an unknown one, 401 without a key", async () => {
    for (const id of [foreign.experience.id, porto.experience.id, randomUUID()]) {
      const res = await t.rest('GET', path(id), { key: brandKey });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await t.rest('GET', path(sail.experience.id))).status).toBe(401);
  });

  it('lets an organization key read every brand of its organization, narrowed by Tessera-Brand-Id', async () => {
    expect((await page(path(sail.experience.id), orgKey)).items).toHaveLength(20);
    expect((await page(path(porto.experience.id), orgKey)).items).toHaveLength(1);
    expect((await t.rest('GET', path(foreign.experience.id), { key: orgKey })).status).toBe(404);
    const narrowed = await t.rest('GET', path(porto.experience.id), { key: orgKey, headers: { 'tessera-brand-id': brand.id } });
    expect(narrowed.status).toBe(404);
  });

  it('costs the same number of statements for page 1 and page 5', async () => {
    // Brands and keys read once per data version: both counts without them.
    await untilDataVersionSteady(db);
    await t.rest('GET', pageUrl(sail.experience.id, 1, 10), { key: brandKey });
    const first = await statementsSent(db, () => t.rest('GET', pageUrl(sail.experience.id, 1, 10), { key: brandKey }));
    const fifth = await statementsSent(db, () => t.rest('GET', pageUrl(sail.experience.id, 5, 10), { key: brandKey }));
    expect(fifth.count).toBe(first.count);
    expect(fifth.sql.some((s) => /\boffset\b/i.test(s))).toBe(false);
  });
});

describe('GraphQL experienceReviews', () => {
  it('walks every page with after = endCursor, in the order REST gives', async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let after: string | null = null;
    for (;;) {
      const conn: any = await connection({ id: sail.experience.id, first: 10, after });
      expect(conn.totalCount).toBe(47);
      expect(conn.pageInfo.hasPreviousPage).toBe(after !== null);
      expect(conn.pageInfo.startCursor).toBe(conn.edges[0].cursor);
      expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1).cursor);
      seen.push(...conn.edges.map((edge: any) => edge.node.id));
      sizes.push(conn.edges.length);
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(sizes).toEqual([10, 10, 10, 10, 7]);
    expect(seen).toEqual(sailIds);
  });

  it('agrees with REST on every field of a review', async () => {
    const [conn, rest] = await Promise.all([connection({ id: porto.experience.id }, orgKey), page(path(porto.experience.id), orgKey)]);
    expect(conn.edges.map((edge: any) => edge.node)).toEqual(rest.items);
    expect(conn.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it('defaults to 20 and reports an experience without reviews', async () => {
    expect((await connection({ id: sail.experience.id })).edges).toHaveLength(20);
    expect(await connection({ id: empty.experience.id })).toEqual({
      totalCount: 0,
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      edges: [],
    });
  });

  it('is reachable from Experience.reviews', async () => {
    const res = await t.gql(
      `query($brandId: UUID!, $id: UUID!) { experience(brandId: $brandId, id: $id) { reviews(first: 5) { totalCount edges { node { uuid } } } } }`,
      { brandId: sister.id, id: porto.experience.id },
      { key: orgKey },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.experience.reviews).toEqual({ totalCount: 1, edges: [{ node: { uuid: portoReview.id } }] });
  });

  it.each([
    ['first', { first: 0 }],
    ['first', { first: 101 }],
    ['after', { after: 'garbage!!' }],
    ['after', { after: Buffer.from('{"a":1}').toString('base64url') }],
    ['after', { after: Buffer.from('["yesterday","x"]').toString('base64url') }],
  ])('rejects a bad %s (%j) naming it', async (field, variables) => {
    expect(await gqlError({ id: sail.experience.id, ...variables })).toMatchObject({ code: 'VALIDATION_FAILED', field });
  });

  it("answers NOT_FOUND for another brand's experience, UNAUTHENTICATED without a key", async () => {
    expect(await gqlError({ id: foreign.experience.id })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await gqlError({ id: porto.experience.id })).toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.gql(connectionQuery, { id: sail.experience.id })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await gqlError({ id: 'nope' })).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('costs the same number of statements for the first page and a later one', async () => {
    // Brands and keys read once per data version: both counts without them.
    await untilDataVersionSteady(db);
    await connection({ id: sail.experience.id, first: 10 });
    const first = await statementsSent(db, () => connection({ id: sail.experience.id, first: 10 }));
    const after = first.result.pageInfo.endCursor;
    const later = await statementsSent(db, () => connection({ id: sail.experience.id, first: 10, after }));
    expect(later.count).toBe(first.count);
  });
});

describe("an experience's ratings", () => {
  const ratingsOf = async (experienceId: string) => {
    const res = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experienceId}`, { key: brandKey });
    expect(res.status).toBe(200);
    return res.body.ratings;
  };

  it('average every review written, batch after batch, whatever experiences a batch holds', async () => {
    const tide = await createExperience(db, brand.id, { title: 'Tide Pools' });
    const cliff = await createExperience(db, brand.id, { title: 'Cliff Walk' });
    const of = (e: typeof tide) => ({ brandId: brand.id, experienceId: e.experience.id, hostId: e.host.id });
    await createReviews(db, of(tide), [
      { rating: 5, recommendability: 10 },
      { rating: 4, recommendability: 7 },
    ]);
    expect(await ratingsOf(tide.experience.id)).toEqual({ rating: 4.5, recommendability: 8.5, total: 2 });
    const reviewer = await createReviewer(db, brand.id);
    await db.database.reviews.insertReviews([
      reviewRow({ ...of(tide), reviewerId: reviewer.id, rating: 1, recommendability: 2 }),
      reviewRow({ ...of(cliff), reviewerId: reviewer.id, rating: 3, recommendability: 6 }),
    ]);
    // (5 + 4 + 1) / 3 and (10 + 7 + 2) / 3, to one decimal.
    expect(await ratingsOf(tide.experience.id)).toEqual({ rating: 3.3, recommendability: 6.3, total: 3 });
    expect(await ratingsOf(cliff.experience.id)).toEqual({ rating: 3, recommendability: 6, total: 1 });
    // 47 reviews rated 1 to 5 in turn: (9 * 15 + 1 + 2) / 47.
    expect(await ratingsOf(sail.experience.id)).toEqual({ rating: 2.9, recommendability: 9, total: 47 });
  });
});
