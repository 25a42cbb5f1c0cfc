/**
 * Tessera as a Federation 2 subgraph, asked directly as a router asks it: `_service { sdl }` carries the
 * entities' keys; `_entities` reads each entity by each of its keys under the caller's key (brand scope,
 * key kind), in batches whose SQL statements do not grow with the number of references, and costs what
 * it reads; a router's own operations run beside a trusted documents manifest only with its token.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { toGlobalId } from '../../../src/graphql/global-ids.ts';
import { sha256 } from '../../../src/graphql/protections/trusted-documents.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { statementsSent, untilDataVersionSteady } from '../../support/statements.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

const LISBON = demoIds.brands.lisbon;
const SECRET = 'sk_test_lisbon_demo';
const TOKYO_SECRET = 'sk_test_tokyo_demo';
const PUBLISHABLE = 'pk_test_lisbon_demo';
const TRAM = demoIds.experiences.tram28PhotoWalk;
const lisbonExperiences = Object.values(demoIds.experiences).slice(0, 7);
const ROUTER_TOKEN = 'router-token-0123456789abcdef0123456789abcdef';

type Representation = Record<string, string>;

const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) { __typename
  ... on Booking { uuid confirmationCode }
  ... on Experience { uuid title contentLanguage }
  ... on Review { uuid rating }
  ... on Session { uuid startDateTime }
  ... on BrandSettings { uuid name }
  ... on Listing { uuid title }
} }`;

const entities = (representations: Representation[], key = SECRET, app = t) => app.gql(ENTITIES, { r: representations }, { key });

/** What Lisbon's secret key reads through the root fields: the answers references must match. */
async function lisbon() {
  const res = await t.gql(
    `query($b: UUID!, $tram: UUID!) {
      bookings(brandId: $b, first: 100) { edges { node { id uuid confirmationCode session { id uuid startDateTime } } } }
      experience(brandId: $b, id: $tram) { id uuid title contentLanguage reviews(first: 100) { edges { node { id uuid rating } } } }
      ${lisbonExperiences.map((id, i) => `r${i}: experience(brandId: $b, id: "${id}") { reviews(first: 100) { edges { node { uuid } } } }`).join('\n')}
      pt: experience(brandId: $b, id: $tram, language: "pt") { id title contentLanguage }
      brandSettings(brandId: $b) { id uuid name }
      featuredListings(brandId: $b) { id uuid title }
    }`,
    { b: LISBON, tram: TRAM },
    { key: SECRET },
  );
  expect(res.body.errors).toBeUndefined();
  const { bookings, experience, pt, brandSettings, featuredListings } = res.body.data;
  const everyReview = lisbonExperiences.flatMap((_, i) =>
    res.body.data[`r${i}`].reviews.edges.map((e: { node: { uuid: string } }) => e.node.uuid),
  );
  return {
    bookings: bookings.edges.map((e: { node: unknown }) => e.node) as Array<{
      id: string;
      uuid: string;
      confirmationCode: string;
      session: { id: string; uuid: string; startDateTime: string };
    }>,
    experience,
    pt,
    reviews: experience.reviews.edges.map((e: { node: unknown }) => e.node) as Array<{ id: string; uuid: string; rating: number }>,
    everyReview: everyReview as string[],
    brandSettings,
    listing: featuredListings[0] as { id: string; uuid: string; title: string },
  };
}

describe('_service', () => {
  it('publishes the subgraph SDL with the federation link and every entity’s keys', async () => {
    const res = await t.gql('{ _service { sdl } }');
    expect(res.body.errors).toBeUndefined();
    const sdl: string = res.body.data._service.sdl;
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "FieldSet"])');
    const keys = [...sdl.matchAll(/^type (\w+)(?: implements \w+)?\s*((?:\s*@key\(fields: "[^"]+"\))+)/gm)].map(([, type, directives]) => [
      type,
      [...directives!.matchAll(/@key\(fields: "([^"]+)"\)/g)].map((m) => m[1]),
    ]);
    expect(Object.fromEntries(keys)).toEqual({
      Booking: ['id', 'uuid'],
      BrandSettings: ['id', 'uuid'],
      Experience: ['id', 'uuid contentLanguage', 'uuid'],
      Listing: ['id'],
      Review: ['id', 'uuid'],
      Session: ['id', 'uuid'],
    });
  });
});

describe('_entities', () => {
  it('reads every entity by each of its keys, as the root fields show it', async () => {
    const l = await lisbon();
    const [booking] = l.bookings;
    const [review] = l.reviews;
    const res = await entities([
      { __typename: 'Booking', id: booking!.id },
      { __typename: 'Booking', uuid: booking!.uuid },
      { __typename: 'Session', id: booking!.session.id },
      { __typename: 'Session', uuid: booking!.session.uuid },
      { __typename: 'Experience', id: l.pt.id },
      { __typename: 'Experience', uuid: TRAM, contentLanguage: 'pt' },
      { __typename: 'Experience', uuid: TRAM },
      { __typename: 'Review', id: review!.id },
      { __typename: 'Review', uuid: review!.uuid },
      { __typename: 'BrandSettings', id: l.brandSettings.id },
      { __typename: 'BrandSettings', uuid: LISBON },
      { __typename: 'Listing', id: l.listing.id },
    ]);
    expect(res.body.errors).toBeUndefined();
    const bookingAnswer = { __typename: 'Booking', uuid: booking!.uuid, confirmationCode: booking!.confirmationCode };
    const sessionAnswer = { __typename: 'Session', uuid: booking!.session.uuid, startDateTime: booking!.session.startDateTime };
    const reviewAnswer = { __typename: 'Review', uuid: review!.uuid, rating: review!.rating };
    const brandAnswer = { __typename: 'BrandSettings', uuid: LISBON, name: l.brandSettings.name };
    expect(res.body.data._entities).toEqual([
      bookingAnswer,
      bookingAnswer,
      sessionAnswer,
      sessionAnswer,
      { __typename: 'Experience', uuid: TRAM, title: 'Passeio fotográfico no elétrico 28', contentLanguage: 'pt' },
      { __typename: 'Experience', uuid: TRAM, title: 'Passeio fotográfico no elétrico 28', contentLanguage: 'pt' },
      { __typename: 'Experience', uuid: TRAM, title: 'Tram 28 Photo Walk', contentLanguage: 'en' },
      reviewAnswer,
      reviewAnswer,
      brandAnswer,
      brandAnswer,
      { __typename: 'Listing', uuid: l.listing.uuid, title: l.listing.title },
    ]);
  });

  it('answers null with NOT_FOUND for another brand’s entity, the same as for one that does not exist', async () => {
    const l = await lisbon();
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await entities(
      [
        { __typename: 'Booking', uuid: l.bookings[0]!.uuid },
        { __typename: 'Booking', uuid: unknown },
        { __typename: 'Experience', id: l.experience.id },
        { __typename: 'Experience', uuid: TRAM },
        { __typename: 'Review', uuid: l.reviews[0]!.uuid },
        { __typename: 'Session', uuid: l.bookings[0]!.session.uuid },
        { __typename: 'BrandSettings', uuid: LISBON },
        { __typename: 'Listing', id: l.listing.id },
        { __typename: 'Experience', uuid: demoIds.experiences.tsukijiBreakfastWalk },
      ],
      TOKYO_SECRET,
    );
    expect(res.body.data._entities.slice(0, 8)).toEqual([null, null, null, null, null, null, null, null]);
    expect(res.body.data._entities[8]).toMatchObject({ __typename: 'Experience', uuid: demoIds.experiences.tsukijiBreakfastWalk });
    const errors = res.body.errors.sort((a: { path: number[] }, b: { path: number[] }) => a.path[1]! - b.path[1]!);
    expect(errors.map((e: { path: unknown; extensions: unknown }) => [e.path, e.extensions])).toEqual([
      [['_entities', 0], { field: 'uuid', code: 'NOT_FOUND' }],
      [['_entities', 1], { field: 'uuid', code: 'NOT_FOUND' }],
      [['_entities', 2], { field: 'id', code: 'NOT_FOUND' }],
      [['_entities', 3], { field: 'uuid', code: 'NOT_FOUND' }],
      [['_entities', 4], { field: 'uuid', code: 'NOT_FOUND' }],
      [['_entities', 5], { field: 'uuid', code: 'NOT_FOUND' }],
      [['_entities', 6], { field: 'uuid', code: 'NOT_FOUND' }],
      [['_entities', 7], { field: 'id', code: 'NOT_FOUND' }],
    ]);
    expect(errors[0].message).toBe(`Booking "${l.bookings[0]!.uuid}" was not found`);
    expect(errors[1].message).toBe(`Booking "${unknown}" was not found`);
    expect(JSON.stringify(res.body)).not.toContain(l.bookings[0]!.confirmationCode);
  });

  it('lets a publishable key read catalogue entities only, as node(id:)', async () => {
    const l = await lisbon();
    const res = await entities(
      [
        { __typename: 'Booking', uuid: l.bookings[0]!.uuid },
        { __typename: 'Experience', uuid: TRAM },
        { __typename: 'Session', uuid: l.bookings[0]!.session.uuid },
      ],
      PUBLISHABLE,
    );
    expect(res.body.data._entities).toEqual([
      null,
      { __typename: 'Experience', uuid: TRAM, title: 'Tram 28 Photo Walk', contentLanguage: 'en' },
      { __typename: 'Session', uuid: l.bookings[0]!.session.uuid, startDateTime: l.bookings[0]!.session.startDateTime },
    ]);
    expect(res.body.errors).toEqual([
      {
        message: 'A publishable key may not read a Booking by reference: use a secret key (sk_...) from a server',
        locations: [{ line: 1, column: 23 }],
        path: ['_entities', 0],
        extensions: { keyKind: 'publishable', code: 'FORBIDDEN' },
      },
    ]);
  });

  it('refuses a key that is not one of the type’s, naming its field', async () => {
    const res = await entities([
      { __typename: 'Booking', id: 'not a global id' },
      { __typename: 'Booking', uuid: 'not-a-uuid' },
      { __typename: 'Experience', uuid: TRAM, contentLanguage: 'pt:' },
      { __typename: 'Booking', id: toGlobalId('Experience', `${LISBON}:${TRAM}:en`) },
    ]);
    expect(res.body.data._entities).toEqual([null, null, null, null]);
    const errors = res.body.errors.sort((a: { path: number[] }, b: { path: number[] }) => a.path[1]! - b.path[1]!);
    expect(errors.map((e: { extensions: unknown }) => e.extensions)).toEqual([
      { field: 'id', code: 'VALIDATION_FAILED' },
      { field: 'uuid', code: 'VALIDATION_FAILED' },
      { field: 'contentLanguage', code: 'VALIDATION_FAILED' },
      { field: 'id', code: 'NOT_FOUND' },
    ]);
  });

  it('reads 100 references with as many SQL statements as 8 of the same types', async () => {
    const l = await lisbon();
    // Lisbon's seven experiences, its bookings and their sessions, and as many reviews as make 100.
    const representations = (per: number, total: number) => {
      const others = [
        ...lisbonExperiences.slice(0, per).map((uuid) => ({ __typename: 'Experience', uuid })),
        ...l.bookings.slice(0, per).map((b) => ({ __typename: 'Booking', uuid: b.uuid })),
        ...l.bookings.slice(0, per).map((b) => ({ __typename: 'Session', uuid: b.session.uuid })),
      ];
      return [...others, ...l.everyReview.slice(0, total - others.length).map((uuid) => ({ __typename: 'Review', uuid }))];
    };
    const few = representations(2, 8);
    const many = representations(100, 100);
    expect([few.length, many.length]).toEqual([8, 100]);
    expect(new Set(many.map((r) => r.uuid)).size).toBeGreaterThan(90);
    await untilDataVersionSteady(db);
    await entities(few);
    const small = await statementsSent(db, () => entities(few));
    const large = await statementsSent(db, () => entities(many));
    expect(small.result.body.errors).toBeUndefined();
    expect(large.result.body.errors).toBeUndefined();
    expect(large.result.body.data._entities.filter((e: unknown) => e !== null)).toHaveLength(100);
    expect(large.count).toBe(small.count);
    // The data version (SQLite; PostgreSQL keeps it in memory), then one batch per type: the bookings (SQLite:
    // with their participants and answers), the sessions, the reviews, the experiences' records (SQLite: the
    // rows and seven parts, between a BEGIN and a COMMIT), the ratings. The brand was read by an earlier
    // request under the same data version (readingEachBrandOnce): one statement more when each request read it.
    expect(large.count).toBe({ sqlite: 17, postgresql: 5 }[db.engine]);
  });
});

describe('protections', () => {
  it('count each reference of _entities against the cost budget', async () => {
    const tight = await startApp(db, { graphql: { secretKeyMaxCost: 150 } });
    const l = await lisbon();
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Booking { uuid session { uuid } } } }`;
    const refs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ __typename: 'Booking', uuid: l.bookings[i % l.bookings.length]!.uuid }));
    const fits = await tight.gql(query, { r: refs(75) }, { key: SECRET });
    expect(fits.body.errors).toBeUndefined();
    const refused = await tight.gql(query, { r: refs(76) }, { key: SECRET });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      {
        message: 'This operation costs 152, above the budget of 150: ask for smaller pages (first) or fewer nested objects.',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_COST', limit: 150, cost: 152 },
      },
    ]);
  });

  it('run a router’s operations beside a trusted documents manifest only with its token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-router-'));
    const typename = 'query Typename { __typename }';
    const manifest = join(dir, 'manifest.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id: sha256(typename), name: 'Typename', type: 'query', body: typename }],
      }),
    );
    const trusted = await startApp(db, { graphql: { trustedDocumentsFile: manifest, routerToken: ROUTER_TOKEN } });
    const refs = [{ __typename: 'Experience', uuid: TRAM }];
    const notTrusted = [
      {
        message: 'This server runs only the operations of its trusted documents manifest.',
        extensions: { code: 'PERSISTED_QUERY_NOT_TRUSTED' },
      },
    ];
    const without = await trusted.gql(ENTITIES, { r: refs }, { key: SECRET });
    expect([without.status, without.body.errors]).toEqual([400, notTrusted]);
    const wrong = await trusted.gql(ENTITIES, { r: refs }, { key: SECRET, headers: { 'tessera-router-token': `${ROUTER_TOKEN}x` } });
    expect([wrong.status, wrong.body.errors]).toEqual([400, notTrusted]);
    const router = await trusted.gql(ENTITIES, { r: refs }, { key: SECRET, headers: { 'tessera-router-token': ROUTER_TOKEN } });
    expect(router.body).toEqual({
      data: { _entities: [{ __typename: 'Experience', uuid: TRAM, title: 'Tram 28 Photo Walk', contentLanguage: 'en' }] },
    });
    // The caller's key still decides what the router's operations read.
    const tokyo = await trusted.gql(ENTITIES, { r: refs }, { key: TOKYO_SECRET, headers: { 'tessera-router-token': ROUTER_TOKEN } });
    expect(tokyo.body.data._entities).toEqual([null]);
  });

  it('answer _service with introspection off to the router only', async () => {
    const closed = await startApp(db, { graphql: { introspection: false, routerToken: ROUTER_TOKEN } });
    const refused = await closed.gql('{ _service { sdl } }');
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        errors: [
          {
            message: 'Introspection is disabled on this server.',
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'INTROSPECTION_DISABLED' },
          },
        ],
      },
    ]);
    const router = await closed.gql('{ _service { sdl } }', {}, { headers: { 'tessera-router-token': ROUTER_TOKEN } });
    expect(router.body.data._service.sdl).toMatch(/^type Booking implements Node\s+@key\(fields: "id"\)\s+@key\(fields: "uuid"\)/m);
  });
});
