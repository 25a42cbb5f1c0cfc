/**
 * Drafts are for secret keys (issue 34, item 7): a publishable key ships in a shop's page, so it reads
 * published content only. Asking for the latest content is FORBIDDEN naming the field (`version` in
 * REST, `contentVersion` in GraphQL), and a draft listing's global id names nothing to it through
 * `node`, `nodes` and `_entities`. Secret keys keep reading drafts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createListing, createListingContent } from '../../../fixtures/factories/listings.ts';

const db = await freshDb();
const brand = await createBrand(db, { name: 'Coast Lisbon', currency: 'EUR', language: 'en' });
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const sail = await createListing(db, brand.id, {
  kind: 'resource',
  displayOrder: 1,
  content: { title: 'Sunset Sail', summary: 'Two hours at dusk', advertisedPriceMinor: 4550 },
});
await createListingContent(db, sail.listing.id, { version: 'draft', title: 'Sunset Sail (secret new price)', advertisedPriceMinor: 2000 });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

const listings = `query($v: ContentVersion) { featuredListings(contentVersion: $v) { id title advertisedPrice } }`;
const refusal = (field: string) => ({
  code: 'FORBIDDEN',
  message: `A publishable key reads published content only: the drafts ${field} asks for need a secret key (sk_...)`,
});

describe('REST ?version=latest', () => {
  it('is 403 FORBIDDEN naming version for a publishable key', async () => {
    const res = await t.rest('GET', '/v3/listings/featured?version=latest', { key: publishable });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ ...refusal('version'), details: { field: 'version', keyKind: 'publishable' } });
  });

  it('leaves the published content to a publishable key, and the draft to a secret key', async () => {
    const published = await t.rest('GET', '/v3/listings/featured?version=published', { key: publishable });
    expect(published.body.data.map((l: { title: string; advertisedPrice: number }) => [l.title, l.advertisedPrice])).toEqual([
      ['Sunset Sail', 45.5],
    ]);
    const latest = await t.rest('GET', '/v3/listings/featured?version=latest', { key: secret });
    expect(latest.body.data.map((l: { title: string; advertisedPrice: number }) => [l.title, l.advertisedPrice])).toEqual([
      ['Sunset Sail (secret new price)', 20],
    ]);
  });
});

describe('GraphQL contentVersion: LATEST', () => {
  it('is FORBIDDEN naming contentVersion for a publishable key', async () => {
    const res = await t.gql(listings, { v: 'LATEST' }, { key: publishable });
    expect(res.body.data).toEqual({ featuredListings: null });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ message: refusal('contentVersion').message });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'contentVersion' });
  });

  it('leaves PUBLISHED to a publishable key and LATEST to a secret key', async () => {
    const published = await t.gql(listings, { v: 'PUBLISHED' }, { key: publishable });
    expect(published.body.data.featuredListings.map((l: { title: string }) => l.title)).toEqual(['Sunset Sail']);
    const latest = await t.gql(listings, { v: 'LATEST' }, { key: secret });
    expect(latest.body.data.featuredListings.map((l: { title: string }) => l.title)).toEqual(['Sunset Sail (secret new price)']);
  });

  it('names nothing to a publishable key by a draft listing’s global id (node, nodes, _entities)', async () => {
    const draftId = (await t.gql(listings, { v: 'LATEST' }, { key: secret })).body.data.featuredListings[0].id as string;
    const publishedId = (await t.gql(listings, {}, { key: publishable })).body.data.featuredListings[0].id as string;
    const node = `query($id: ID!) { node(id: $id) { id ... on Listing { title } } }`;
    expect((await t.gql(node, { id: draftId }, { key: secret })).body.data.node).toEqual({
      id: draftId,
      title: 'Sunset Sail (secret new price)',
    });
    expect((await t.gql(node, { id: draftId }, { key: publishable })).body).toEqual({ data: { node: null } });
    const nodes = `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Listing { title } } }`;
    expect((await t.gql(nodes, { ids: [publishedId, draftId] }, { key: publishable })).body).toEqual({
      data: { nodes: [{ id: publishedId, title: 'Sunset Sail' }, null] },
    });
    const entities = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Listing { title } } }`;
    const refs = { r: [{ __typename: 'Listing', id: draftId }] };
    const refused = await t.gql(entities, refs, { key: publishable });
    expect(refused.body.data._entities).toEqual([null]);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
    expect((await t.gql(entities, refs, { key: secret })).body.data._entities).toEqual([{ title: 'Sunset Sail (secret new price)' }]);
  });
});
