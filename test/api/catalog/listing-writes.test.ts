/**
 * Managing listings through the API (issue 35): create a listing as a draft, edit the draft with a merge
 * patch under If-Match, publish it, unlist and feature it; both faces, secret keys only, events recorded
 * and response caches showing each change on the next request.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBrandFamily, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createCategory, createExperience, createHost, createVibe } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const { brand, sister, keys } = await createBrandFamily(db);
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const { experience } = await createExperience(db, brand.id, { maxParticipantsCount: 8 });
const { experience: sisterExperience } = await createExperience(db, sister.id);
const category = await createCategory(db, brand.id, 'Sailing');
const host = await createHost(db, brand.id, { firstName: 'Ana', lastName: 'Lopes' });
const calm = await createVibe(db, brand.id, 'Calm');
const wild = await createVibe(db, brand.id, 'Wild');
const sisterVibe = await createVibe(db, sister.id, 'Elsewhere');
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

const base = `/v1/brands/${brand.id}/listings`;
const sail = { experienceId: experience.id, title: 'Sunset Sail', summary: 'Two hours at dusk', advertisedPrice: 45.5, startingPrice: 39 };

async function create(body: Record<string, unknown> = sail) {
  const res = await t.rest('POST', base, { key: keys.brand, body });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as string, etag: res.headers.etag as string, data: res.body.data };
}

const patch = (id: string, body: unknown, etag?: string, key = keys.brand) =>
  t.rest('PATCH', `${base}/${id}`, { key, body, headers: etag ? { 'if-match': etag } : {} });

const featured = async (query = '') =>
  (await t.rest('GET', `/v3/listings/featured${query}`, { key: keys.brand })).body.data.map((l: { title: string }) => l.title);

describe('POST /v1/brands/{brandId}/listings', () => {
  it('creates a draft: seen with version=latest, left out of published reads', async () => {
    const { id, etag, data } = await create();
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(data).toMatchObject({
      id,
      kind: 'experience',
      title: 'Sunset Sail',
      summary: 'Two hours at dusk',
      advertisedPrice: 45.5,
      startingPrice: 39,
      maxParticipants: 8,
      isUnlisted: false,
      isFeatured: true,
      experienceId: experience.id,
      medias: [],
      vibes: [],
    });
    expect(await featured()).not.toContain('Sunset Sail');
    expect(await featured('?version=latest')).toContain('Sunset Sail');
    const read = await t.rest('GET', `${base}/${id}?version=latest`, { key: keys.brand });
    expect(read.body.data.title).toBe('Sunset Sail');
    expect(read.headers.etag).toBe(etag);
    expect((await t.rest('GET', `${base}/${id}`, { key: keys.brand })).status).toBe(404);
  });

  it('takes the brand’s category, host and vibes by id, in order', async () => {
    const { data } = await create({
      ...sail,
      title: 'Night Sail',
      category: { id: category.id },
      hostedBy: { id: host.id },
      vibes: [{ id: wild.id }, { id: calm.id }],
    });
    expect(data.category).toEqual({ id: category.id, name: 'Sailing' });
    expect(data.hostedBy).toMatchObject({ id: host.id, firstName: 'Ana', lastName: 'Lopes' });
    expect(data.vibes).toEqual([
      { id: wild.id, name: 'Wild' },
      { id: calm.id, name: 'Calm' },
    ]);
  });

  it.each([
    [{ ...sail, advertisedPrice: 12.345 }, 400, 'VALIDATION_FAILED', 'advertisedPrice'],
    [{ ...sail, startingPrice: -1 }, 400, 'VALIDATION_FAILED', 'startingPrice'],
    [{ ...sail, title: undefined }, 400, 'VALIDATION_FAILED', 'title'],
    [{ ...sail, maxParticipants: 0 }, 400, 'VALIDATION_FAILED', 'maxParticipants'],
    [{ ...sail, kind: 'boat' }, 400, 'VALIDATION_FAILED', 'kind'],
    [{ ...sail, colour: 'blue' }, 400, 'VALIDATION_FAILED', 'colour'],
    [{ ...sail, id: '00000000-0000-4000-8000-000000000000' }, 400, 'VALIDATION_FAILED', 'id'],
    [{ ...sail, eventDates: { startDate: '2027-01-01', endDate: '2027-01-02' } }, 400, 'VALIDATION_FAILED', 'eventDates'],
    [{ ...sail, experienceId: sisterExperience.id }, 404, 'NOT_FOUND', 'experienceId'],
    [{ ...sail, vibes: [{ id: calm.id }, { id: sisterVibe.id }] }, 404, 'NOT_FOUND', 'vibes.1.id'],
  ])('refuses %j naming the field', async (body, status, code, field) => {
    const before = await featured('?version=latest');
    const res = await t.rest('POST', base, { key: keys.brand, body });
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, details: { field } });
    expect(await featured('?version=latest')).toEqual(before);
  });

  it('is for secret keys of the brand: publishable FORBIDDEN, another brand’s key FORBIDDEN, the organization’s key allowed', async () => {
    const byPublishable = await t.rest('POST', base, { key: publishable, body: sail });
    expect([byPublishable.status, byPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const bySister = await t.rest('POST', base, { key: keys.sister, body: sail });
    expect([bySister.status, bySister.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const byOrg = await t.rest('POST', base, { key: keys.org, body: { ...sail, title: 'Org Sail' } });
    expect(byOrg.status).toBe(201);
  });
});

describe('PATCH /v1/brands/{brandId}/listings/{listingId}', () => {
  it('edits the draft under If-Match; a stale ETag is 412 and changes nothing', async () => {
    const { id, etag } = await create({ ...sail, title: 'Harbour Tour' });
    const ok = await patch(id, { title: 'Harbour Tour at Noon', advertisedPrice: 50 }, etag);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ title: 'Harbour Tour at Noon', advertisedPrice: 50, summary: 'Two hours at dusk' });
    expect(ok.headers.etag).not.toBe(etag);
    const stale = await patch(id, { title: 'Lost update' }, etag);
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { field: 'If-Match', etag: ok.headers.etag } });
    const listed = await patch(id, { summary: 'Listed' }, `${etag}, ${ok.headers.etag}`);
    expect(listed.status).toBe(200);
    const garbage = await patch(id, { title: 'Garbage' }, `*, ${etag}`);
    expect([garbage.status, garbage.body.error.code, garbage.body.error.details.field]).toEqual([400, 'VALIDATION_FAILED', 'If-Match']);
    const read = await t.rest('GET', `${base}/${id}?version=latest`, { key: keys.brand });
    expect(read.body.data.title).toBe('Harbour Tour at Noon');
    expect(read.headers.etag).toBe(listed.headers.etag);
  });

  it('lets one of several writes racing with the same If-Match through, the others 412', async () => {
    const { id, etag } = await create({ ...sail, title: 'Race' });
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => patch(id, { title: `Race ${n}` }, etag)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!.body.data.title;
    expect((await t.rest('GET', `${base}/${id}?version=latest`, { key: keys.brand })).body.data.title).toBe(winner);
  });

  it('replaces arrays whole, removes a nullable field with null, and refuses read-only fields changed', async () => {
    const { id } = await create({ ...sail, title: 'Dolphin Watch', slug: 'dolphins', vibes: [{ id: calm.id }, { id: wild.id }] });
    const res = await patch(id, { vibes: [{ id: wild.id }], slug: null });
    expect(res.body.data.vibes).toEqual([{ id: wild.id, name: 'Wild' }]);
    expect(res.body.data.slug).toBeNull();
    const rating = await patch(id, { rating: { rating: 5, total: 100 } });
    expect([rating.status, rating.body.error.details.field]).toEqual([400, 'rating']);
    const moved = await patch(id, { experienceId: sisterExperience.id });
    expect([moved.status, moved.body.error.details.field]).toEqual([400, 'experienceId']);
    const sameBack = await patch(id, { ...res.body.data, title: 'Dolphin Watch II' });
    expect(sameBack.status).toBe(200);
    expect(sameBack.body.data.title).toBe('Dolphin Watch II');
  });

  it('answers another brand’s listing NOT_FOUND, and a publishable key FORBIDDEN', async () => {
    const { id } = await create({ ...sail, title: 'Private Charter' });
    const viaSister = await t.rest('PATCH', `/v1/brands/${sister.id}/listings/${id}`, { key: keys.sister, body: { title: 'Taken' } });
    expect([viaSister.status, viaSister.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const byPublishable = await patch(id, { title: 'Taken' }, undefined, publishable);
    expect([byPublishable.status, byPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('POST /v1/brands/{brandId}/listings/{listingId}/publish', () => {
  it('makes the draft the published version, replacing the old one, and reads show it at once (through the cache)', async () => {
    const { id } = await create({ ...sail, title: 'Kayak Trip', advertisedPrice: 30 });
    expect(await featured()).not.toContain('Kayak Trip');
    const published = await t.rest('POST', `${base}/${id}/publish`, { key: keys.brand });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ title: 'Kayak Trip', advertisedPrice: 30 });
    expect(await featured()).toContain('Kayak Trip');

    const edited = await patch(id, { title: 'Kayak Trip at Dawn', advertisedPrice: 35 });
    expect(edited.body.data.title).toBe('Kayak Trip at Dawn');
    expect(await featured()).toContain('Kayak Trip');
    expect(await featured()).not.toContain('Kayak Trip at Dawn');
    expect((await t.rest('GET', `${base}/${id}`, { key: keys.brand })).body.data.title).toBe('Kayak Trip');

    await t.rest('POST', `${base}/${id}/publish`, { key: keys.brand, headers: { 'if-match': edited.headers.etag as string } });
    const titles = await featured();
    expect(titles).toContain('Kayak Trip at Dawn');
    expect(titles).not.toContain('Kayak Trip');
    const now = await t.rest('GET', `${base}/${id}`, { key: keys.brand });
    expect(now.body.data).toMatchObject({ title: 'Kayak Trip at Dawn', advertisedPrice: 35 });
    const again = await t.rest('POST', `${base}/${id}/publish`, { key: keys.brand });
    expect(again.body.data.title).toBe('Kayak Trip at Dawn');
    expect(again.headers.etag).toBe(now.headers.etag);
  });

  it('refuses a stale If-Match with 412 and leaves the draft unpublished', async () => {
    const { id, etag } = await create({ ...sail, title: 'Fishing Trip' });
    await patch(id, { summary: 'Rods included' });
    const res = await t.rest('POST', `${base}/${id}/publish`, { key: keys.brand, headers: { 'if-match': etag } });
    expect([res.status, res.body.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect(await featured()).not.toContain('Fishing Trip');
  });

  it('unlists and features through fields, applied at once', async () => {
    const { id } = await create({ ...sail, title: 'Island Hop' });
    await t.rest('POST', `${base}/${id}/publish`, { key: keys.brand });
    expect(await featured()).toContain('Island Hop');
    await patch(id, { isUnlisted: true });
    expect(await featured()).not.toContain('Island Hop');
    expect(await featured('?unlisted=true')).toContain('Island Hop');
    await patch(id, { isUnlisted: false, isFeatured: false });
    expect(await featured()).not.toContain('Island Hop');
    expect((await t.rest('GET', `${base}/${id}`, { key: keys.brand })).body.data).toMatchObject({ isFeatured: false, isUnlisted: false });
    await patch(id, { isFeatured: true });
    expect(await featured()).toContain('Island Hop');
  });
});

describe('events', () => {
  it('records listing.created, listing.updated and listing.published with the listing', async () => {
    const { id } = await create({ ...sail, title: 'Whale Watch' });
    await patch(id, { title: 'Whale Watch XL' });
    await patch(id, { title: 'Whale Watch XL' });
    await t.rest('POST', `${base}/${id}/publish`, { key: keys.brand });
    const feed = await t.rest('GET', `/v1/brands/${brand.id}/events?types=listing.created,listing.updated,listing.published&limit=100`, {
      key: keys.brand,
    });
    const mine = feed.body.data.filter((e: { data: { id: string } }) => e.data.id === id);
    expect(mine.map((e: { type: string; data: { title: string } }) => [e.type, e.data.title])).toEqual([
      ['listing.created', 'Whale Watch'],
      ['listing.updated', 'Whale Watch XL'],
      ['listing.published', 'Whale Watch XL'],
    ]);
  });
});

describe('GraphQL', () => {
  const fields = 'listing { uuid title advertisedPrice isFeatured category { key name } vibes { key } } etag';
  const createMutation = `mutation($b: UUID!, $i: ListingInput!) { createListing(brandId: $b, input: $i) { ${fields} } }`;
  const updateMutation = `mutation($b: UUID!, $id: UUID!, $i: ListingInput!, $m: String) { updateListingDraft(brandId: $b, id: $id, input: $i, ifMatch: $m) { ${fields} } }`;
  const publishMutation = `mutation($b: UUID!, $id: UUID!) { publishListing(brandId: $b, id: $id) { ${fields} } }`;

  it('creates, updates with ifMatch and publishes, as REST does', async () => {
    const created = await t.gql(
      createMutation,
      {
        b: brand.id,
        i: {
          experienceId: experience.id,
          title: 'Surf Lesson',
          advertisedPrice: 60,
          startingPrice: 55,
          categoryId: category.id,
          vibeIds: [calm.id],
        },
      },
      { key: keys.brand },
    );
    const { listing, etag } = created.body.data.createListing;
    expect(listing).toMatchObject({
      title: 'Surf Lesson',
      advertisedPrice: 60,
      isFeatured: true,
      category: { key: category.id, name: 'Sailing' },
      vibes: [{ key: calm.id }],
    });
    const updated = await t.gql(
      updateMutation,
      { b: brand.id, id: listing.uuid, i: { title: 'Surf Lesson (2h)' }, m: etag },
      { key: keys.brand },
    );
    expect(updated.body.data.updateListingDraft.listing.title).toBe('Surf Lesson (2h)');
    const stale = await t.gql(updateMutation, { b: brand.id, id: listing.uuid, i: { title: 'Lost' }, m: etag }, { key: keys.brand });
    expect(stale.body.errors[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'ifMatch' });
    const published = await t.gql(publishMutation, { b: brand.id, id: listing.uuid }, { key: keys.brand });
    expect(published.body.data.publishListing.listing.title).toBe('Surf Lesson (2h)');
    expect(await featured()).toContain('Surf Lesson (2h)');
  });

  it('names the input’s fields in errors, and refuses publishable keys', async () => {
    const sisterCategory = await createCategory(db, sister.id, 'Theirs');
    const input = { experienceId: experience.id, title: 'Bad', advertisedPrice: 1, startingPrice: 1 };
    const foreign = await t.gql(createMutation, { b: brand.id, i: { ...input, categoryId: sisterCategory.id } }, { key: keys.brand });
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', field: 'categoryId' });
    const fraction = await t.gql(createMutation, { b: brand.id, i: { ...input, advertisedPrice: 1.001 } }, { key: keys.brand });
    expect(fraction.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'advertisedPrice' });
    const byPublishable = await t.gql(createMutation, { b: brand.id, i: input }, { key: publishable });
    expect(byPublishable.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
