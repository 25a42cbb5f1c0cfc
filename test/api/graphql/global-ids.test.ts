/**
 * Global object identification on the demo data: ids unique across types and stable, one id per variant
 * (language, content version), `node`/`nodes` fetching every fetchable type again under the key's rules,
 * failures that stay in their own field, and the links a normalized cache follows (a booking's session).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

const LISBON = demoIds.brands.lisbon;
const TOKYO = demoIds.brands.tokyo;
const SECRET = 'sk_test_lisbon_demo';
const PUBLISHABLE = 'pk_test_lisbon_demo';
const TRAM = demoIds.experiences.tram28PhotoWalk;

async function data(query: string, variables: Record<string, unknown> = {}, key = SECRET) {
  const res = await t.gql(query, variables, { key });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data;
}

const experienceIn = `query($b: UUID!, $id: UUID!, $l: Locale) { experience(brandId: $b, id: $id, language: $l) { id uuid title contentLanguage } }`;

describe('global ids', () => {
  it('are opaque, unique across types and the same on every read', async () => {
    const query = `query($b: UUID!, $id: UUID!) {
      brandSettings(brandId: $b) { id uuid }
      viewer { brands { id uuid } }
      experience(brandId: $b, id: $id) { id uuid hostedBy { id uuid } reviews(first: 50) { edges { node { id hostedBy { id uuid } } } } }
    }`;
    const first = await data(query, { b: LISBON, id: TRAM });
    expect(await data(query, { b: LISBON, id: TRAM })).toEqual(first);
    // The same brand as settings and as a summary, the same host as a Host and as a review's Person: one uuid, two ids.
    expect(first.viewer.brands.map((b: { uuid: string }) => b.uuid)).toEqual([LISBON]);
    expect(first.brandSettings.uuid).toBe(LISBON);
    expect(first.viewer.brands[0].id).not.toBe(first.brandSettings.id);
    const host = first.experience.hostedBy;
    const asPerson = first.experience.reviews.edges.map((e: { node: { hostedBy: { id: string; uuid: string } } }) => e.node.hostedBy);
    expect(asPerson.find((p: { uuid: string }) => p.uuid === host.uuid)?.id).not.toBe(host.id);
    const ids = [first.brandSettings.id, first.viewer.brands[0].id, first.experience.id, host.id];
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(ids).not.toContain(LISBON);
  });

  it('give each language of an experience its own id, and node reads each back in its language', async () => {
    const en = (await data(experienceIn, { b: LISBON, id: TRAM, l: 'en' })).experience;
    const pt = (await data(experienceIn, { b: LISBON, id: TRAM, l: 'pt' })).experience;
    const ptPT = (await data(experienceIn, { b: LISBON, id: TRAM, l: 'pt-PT' })).experience;
    const byDefault = (await data(experienceIn, { b: LISBON, id: TRAM })).experience;
    expect([en.title, pt.title]).toEqual(['Tram 28 Photo Walk', 'Passeio fotográfico no elétrico 28']);
    expect(en.uuid).toBe(pt.uuid);
    expect(en.id).not.toBe(pt.id);
    // The same text is the same object, however it was asked for.
    expect(ptPT.id).toBe(pt.id);
    expect(byDefault.id).toBe(en.id);
    const nodes = await data(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Experience { title contentLanguage } } }`, {
      ids: [pt.id, en.id],
    });
    expect(nodes.nodes).toEqual([
      { __typename: 'Experience', id: pt.id, title: 'Passeio fotográfico no elétrico 28', contentLanguage: 'pt' },
      { __typename: 'Experience', id: en.id, title: 'Tram 28 Photo Walk', contentLanguage: 'en' },
    ]);
  });

  it('give a listing’s draft and each locale its own id, and node reads each back', async () => {
    const listings = `query($v: ContentVersion, $l: Locale) { featuredListings(brandId: "${LISBON}", contentVersion: $v, locale: $l) { id uuid title } }`;
    const published = (await data(listings, { v: 'PUBLISHED' })).featuredListings;
    const latest = (await data(listings, { v: 'LATEST' })).featuredListings;
    const portuguese = (await data(listings, { v: 'PUBLISHED', l: 'pt' })).featuredListings;
    const sintra = (list: Array<{ title: string; uuid: string; id: string }>) =>
      list.find((l) => l.uuid === demoIds.listings.sintraDayTrip)!;
    expect([sintra(published).title, sintra(latest).title]).toEqual(['Sintra Day Trip', 'Sintra and Cascais Day Trip']);
    expect(sintra(published).uuid).toBe(sintra(latest).uuid);
    expect(sintra(published).id).not.toBe(sintra(latest).id);
    const tram = (list: Array<{ title: string; uuid: string; id: string }>) =>
      list.find((l) => l.uuid === demoIds.listings.tram28PhotoWalk)!;
    // A listing without a draft shows its published content under LATEST too: the same object.
    const withoutDraft = published.filter((l: { uuid: string }) => l.uuid !== sintra(published).uuid);
    for (const listing of withoutDraft) expect(latest.find((l: { uuid: string }) => l.uuid === listing.uuid)?.id).toBe(listing.id);
    expect(portuguese.map((l: { id: string }) => l.id)).not.toContain(tram(published).id);
    const node = `query($id: ID!) { node(id: $id) { __typename id ... on Listing { title } } }`;
    expect((await data(node, { id: sintra(latest).id })).node).toEqual({
      __typename: 'Listing',
      id: sintra(latest).id,
      title: 'Sintra and Cascais Day Trip',
    });
    expect((await data(node, { id: sintra(published).id })).node.title).toBe('Sintra Day Trip');
    const tramPt = portuguese.find((l: { title: string }) => l.title === 'Passeio fotográfico no elétrico 28');
    expect((await data(node, { id: tramPt.id })).node.title).toBe('Passeio fotográfico no elétrico 28');
  });
});

describe('node and nodes', () => {
  it('fetch every fetchable type again, as the root fields show them', async () => {
    const read = await data(
      `query($b: UUID!, $id: UUID!) {
        brandSettings(brandId: $b) { id name }
        bookings(brandId: $b, first: 1) { edges { node { id confirmationCode session { id startDateTime } } } }
        experience(brandId: $b, id: $id) { id title }
      }`,
      { b: LISBON, id: demoIds.experiences.tagusSunsetSail },
    );
    const booking = read.bookings.edges[0].node;
    const res = await data(
      `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id
        ... on BrandSettings { name } ... on Booking { confirmationCode } ... on Session { startDateTime } ... on Experience { title } } }`,
      { ids: [read.brandSettings.id, booking.id, booking.session.id, read.experience.id] },
    );
    expect(res.nodes).toEqual([
      { __typename: 'BrandSettings', id: read.brandSettings.id, name: read.brandSettings.name },
      { __typename: 'Booking', id: booking.id, confirmationCode: booking.confirmationCode },
      { __typename: 'Session', id: booking.session.id, startDateTime: booking.session.startDateTime },
      { __typename: 'Experience', id: read.experience.id, title: read.experience.title },
    ]);
  });

  it('answer null for another brand’s object, and FORBIDDEN when a publishable key asks for more than the catalogue', async () => {
    const tokyo = await data(`{ brandSettings(brandId: "${TOKYO}") { id } }`, {}, 'sk_test_tokyo_demo');
    const booking = (await data(`{ bookings(brandId: "${LISBON}", first: 1) { edges { node { id } } } }`)).bookings.edges[0].node;
    expect((await data(`query($id: ID!) { node(id: $id) { id } }`, { id: tokyo.brandSettings.id })).node).toBeNull();
    const experience = (await data(experienceIn, { b: LISBON, id: TRAM })).experience;
    const res = await t.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [experience.id, booking.id] }, { key: PUBLISHABLE });
    expect(res.body.data).toEqual({ nodes: [{ id: experience.id }, null] });
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        path: ['nodes', 1],
        message: 'A publishable key may not read a Booking by node(id:): use a secret key (sk_...) from a server',
        extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
      }),
    ]);
  });

  it('refuse what is not a global id, and more than 100 ids, naming the argument', async () => {
    const bad = await t.gql(`{ node(id: "${TRAM}") { id } }`, {}, { key: SECRET });
    expect(bad.body).toMatchObject({ data: { node: null }, errors: [{ extensions: { code: 'VALIDATION_FAILED', field: 'id' } }] });
    const many = await t.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: Array(101).fill('x') }, { key: SECRET });
    expect(many.body.errors).toEqual([
      expect.objectContaining({
        message: 'ids takes at most 100 ids',
        extensions: expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'ids' }),
      }),
    ]);
    // A well-formed id of a type node does not fetch, or of nothing: null, no error.
    const person = Buffer.from(`Person:${randomUUID()}`).toString('base64url');
    const nothing = Buffer.from(`Booking:${randomUUID()}`).toString('base64url');
    expect(await data(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [person, nothing] })).toEqual({ nodes: [null, null] });
  });
});

describe('failures stay in their own field', () => {
  it('a publishable key asking for bookings gets viewer, and bookings null with its error', async () => {
    const res = await t.gql(`{ viewer { kind } bookings(brandId: "${LISBON}") { totalCount } }`, {}, { key: PUBLISHABLE });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ viewer: { kind: 'PUBLISHABLE' }, bookings: null });
    expect(res.body.errors).toEqual([
      expect.objectContaining({ path: ['bookings'], extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
    ]);
  });

  it('experienceReviews of an unknown experience is null with NOT_FOUND, beside what answered', async () => {
    const res = await t.gql(
      `{ experienceReviews(experienceId: "${randomUUID()}") { totalCount } experience(brandId: "${LISBON}", id: "${TRAM}") { title } }`,
      {},
      {
        key: SECRET,
      },
    );
    expect(res.body.data).toEqual({ experienceReviews: null, experience: { title: 'Tram 28 Photo Walk' } });
    expect(res.body.errors).toEqual([
      expect.objectContaining({ path: ['experienceReviews'], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) }),
    ]);
  });
});

describe('links a cache follows', () => {
  it('a hold and a cancellation answer the session with its places, as availability showed it', async () => {
    const availability = `query($from: LocalDate!, $to: LocalDate!) {
      availability(brandId: "${LISBON}", experienceId: "${TRAM}", from: $from, to: $to) { id uuid startDateTime remaining } }`;
    const [session] = (await data(availability, { from: today(), to: inDays(60) })).availability;
    const hold = await data(
      `mutation($input: CreatePaymentIntentInput!) { createPaymentIntent(brandId: "${LISBON}", cartId: "${randomUUID()}", input: $input) {
        cart { bookings { uuid experience { id title } session { id remaining } } } } }`,
      {
        input: {
          data: [
            {
              experienceId: TRAM,
              sessionTime: session.startDateTime,
              participants: [
                { firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult' },
                { firstName: 'Rui', lastName: 'Silva', priceTierName: 'Adult' },
              ],
            },
          ],
        },
      },
    );
    const [booking] = hold.createPaymentIntent.cart.bookings;
    expect(booking.session).toEqual({ id: session.id, remaining: session.remaining - 2 });
    expect(booking.experience).toEqual({
      id: (await data(experienceIn, { b: LISBON, id: TRAM })).experience.id,
      title: 'Tram 28 Photo Walk',
    });
    const cancelled = await data(
      `mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) { items { session { id remaining } } errors { code } } }`,
      { input: { bookings: [{ bookingId: booking.uuid, cancel: true }] } },
    );
    expect(cancelled.cancelBookings).toEqual({ items: [{ session: { id: session.id, remaining: session.remaining } }], errors: [] });
  });

  it('a custom question’s id is its configuration: the same on every read', async () => {
    const query = `{ experience(brandId: "${LISBON}", id: "${demoIds.experiences.tagusSunsetSail}") { customQuestions { id customQuestionId } } }`;
    const first = (await data(query)).experience.customQuestions;
    expect(first.length).toBeGreaterThan(1);
    expect(new Set(first.map((q: { id: string }) => q.id)).size).toBe(first.length);
    expect((await data(query)).experience.customQuestions).toEqual(first);
  });
});

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
