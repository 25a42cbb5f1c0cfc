/**
 * The compiled executor answers as graphql-js does: the same request sent to the gateway as it runs
 * (graphql-jit, src/graphql/compiled-executor.ts) and to one where Apollo Server executes with graphql-js
 * itself gets the same status, data and errors (message, path, code), over a corpus of documents: every
 * query of the test suite, the example clients and the bench (test/support/graphql-corpus.ts) with each
 * kind of key, federation `_entities` with refused, missing and valid references mixed, request errors a
 * client can provoke, and mutations whose fields fail in several positions (there, what each left behind
 * must be the same too). Both gateways read the demo data, so the documents find real objects.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { demoPublishableKey } from '../../../src/db/demo/brands.ts';
import { buildTesseraSchema } from '../../../src/graphql/schema.ts';
import { startApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { corpusVariables, graphqlCorpus, type CorpusWorld } from '../../support/graphql-corpus.ts';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const db = await freshDb();
await seedDemoDataIfEmpty(db, NOW);
const schema = buildTesseraSchema();

const LISBON = 'sk_test_lisbon_demo';
const TOKYO = 'sk_test_tokyo_demo';
const keys: Record<string, Record<string, string>> = {
  secret: { authorization: `Bearer ${LISBON}` },
  publishable: { authorization: `Bearer ${demoPublishableKey.secret}`, origin: demoPublishableKey.origins[0] },
  organization: { authorization: 'Bearer sk_test_harbor_org_demo' },
  none: {},
};

let compiled: FastifyInstance;
let reference: FastifyInstance;
let world: CorpusWorld;

interface Answer {
  status: number;
  body: { data?: unknown; errors?: Array<{ message: string; path?: unknown; extensions?: Record<string, unknown> }> };
}

async function post(app: FastifyInstance, payload: object, headers: Record<string, string>): Promise<Answer> {
  const res = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload });
  return { status: res.statusCode, body: res.json() };
}

/** An answer as compared: errors in a stable order (graphql-js and graphql-jit meet them in different orders), no request ids. */
function comparable(answer: Answer) {
  const errors = answer.body.errors?.map(({ extensions, ...error }) => {
    const { requestId: _, ...rest } = extensions ?? {};
    return { ...error, extensions: rest };
  });
  errors?.sort((a, b) => JSON.stringify([a.path, a.message]).localeCompare(JSON.stringify([b.path, b.message])));
  return { status: answer.status, data: answer.body.data, errors };
}

/** Sends the request to both gateways; returns the compiled executor's answer once it is the reference's. */
async function same(payload: object, headers: Record<string, string> = keys.secret!): Promise<Answer> {
  const [fromCompiled, fromReference] = await Promise.all([post(compiled, payload, headers), post(reference, payload, headers)]);
  expect(comparable(fromCompiled), JSON.stringify(payload).slice(0, 300)).toEqual(comparable(fromReference));
  return fromCompiled;
}

async function read<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const answer = await post(reference, { query, variables }, keys.secret!);
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
  return answer.body.data as T;
}

const sail = demoIds.experiences.tagusSunsetSail;
const lisbon = demoIds.brands.lisbon;
const missing = '00000000-0000-4000-8000-00000000dead';

beforeAll(async () => {
  compiled = (await startApp(db, { now: () => NOW })).app;
  reference = (await startApp(db, { now: () => NOW, graphql: { executor: 'graphql-js' } })).app;
  const from = '2026-11-20';
  const to = '2026-12-20';
  const { bookings } = await read<{ bookings: { edges: Array<{ node: { id: string; uuid: string; cartId: string } }> } }>(
    `query($b: UUID!) { bookings(brandId: $b, first: 3) { edges { node { id uuid cartId } } } }`,
    { b: lisbon },
  );
  const { availability } = await read<{ availability: Array<{ id: string; uuid: string; waitlistId: string | null }> }>(
    `query($b: UUID!, $e: UUID!, $from: LocalDate!, $to: LocalDate!) { availability(brandId: $b, experienceId: $e, from: $from, to: $to) { id uuid waitlistId } }`,
    { b: lisbon, e: sail, from, to },
  );
  const { experience, experienceReviews } = await read<{
    experience: { id: string };
    experienceReviews: { edges: Array<{ node: { id: string; uuid: string } }> };
  }>(
    `query($b: UUID!, $e: UUID!, $t: UUID!) { experience(brandId: $b, id: $e) { id } experienceReviews(experienceId: $t, first: 2) { edges { node { id uuid } } } }`,
    { b: lisbon, e: sail, t: demoIds.experiences.tram28PhotoWalk },
  );
  const booking = bookings.edges[0]!.node;
  const session = availability[0]!;
  const review = experienceReviews.edges[0]!.node;
  world = {
    brandId: lisbon,
    organizationId: demoIds.organization,
    experienceId: sail,
    bookingId: booking.uuid,
    cartId: booking.cartId,
    waitlistId: availability.find((s) => s.waitlistId)?.waitlistId ?? missing,
    endpointId: missing,
    from,
    to,
    globalIds: [experience.id, session.id, booking.id, review.id, 'RXhwZXJpZW5jZTpub3BlOmVu'],
    representations: [
      { __typename: 'Experience', uuid: sail },
      { __typename: 'Booking', uuid: booking.uuid },
      { __typename: 'Session', uuid: missing },
      { __typename: 'Review', uuid: review.uuid },
      { __typename: 'Session', id: session.id },
    ],
  };
});

describe('the corpus of queries', () => {
  const corpus = graphqlCorpus(schema, 'query');

  it('holds the documents clients and tests send', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    const sources = new Set(corpus.map((entry) => entry.source.split('/')[0]));
    expect([...sources].sort()).toEqual(['examples', 'fixtures', 'test']);
  });

  for (const kind of Object.keys(keys)) {
    it(`answers each as graphql-js does, with ${kind === 'none' ? 'no' : `the ${kind}`} key`, async () => {
      for (const entry of corpus) {
        await same({ query: entry.text, variables: corpusVariables(schema, entry, world) }, keys[kind]);
      }
    });
  }
});

describe('federation references', () => {
  const entities = `query($r: [_Any!]!) { _entities(representations: $r) { __typename
    ... on Experience { uuid title } ... on Booking { uuid status } ... on Session { uuid remaining } ... on Review { uuid rating } } }`;

  const mixes = (): Array<[string, unknown[]]> => {
    const experience = { __typename: 'Experience', uuid: sail };
    const booking = { __typename: 'Booking', uuid: world.bookingId };
    const gone = { __typename: 'Booking', uuid: missing };
    const noSession = { __typename: 'Session', uuid: missing };
    const otherLanguage = { __typename: 'Experience', uuid: sail, contentLanguage: 'xx' };
    const badUuid = { __typename: 'Experience', uuid: 'not-a-uuid' };
    const listing = { __typename: 'Listing', uuid: demoIds.listings.tagusSunsetSail };
    return [
      ['refused last', [experience, experience, experience, booking, booking]],
      ['refused first', [booking, experience, experience, experience, booking]],
      ['missing between valid ones', [experience, gone, experience, noSession, experience]],
      ['missing after valid ones', [experience, experience, experience, gone, noSession, gone, otherLanguage]],
      ['malformed and keyless', [badUuid, experience, listing, experience, { __typename: 'Experience' }]],
      ['all of them', [...world.representations, booking, gone, experience, noSession, otherLanguage, badUuid, listing]],
    ];
  };

  for (const kind of ['secret', 'publishable']) {
    it(`answers each mix as graphql-js does, one entry per representation in its order, with the ${kind} key`, async () => {
      for (const [what, representations] of mixes()) {
        const answer = await same({ query: entities, variables: { r: representations } }, keys[kind]);
        const data = answer.body.data as { _entities: unknown[] };
        expect(data._entities, what).toHaveLength(representations.length);
      }
    });
  }

  it('answers a reference to a type it does not have as graphql-js does', async () => {
    await same({
      query: entities,
      variables: {
        r: [
          { __typename: 'Experience', uuid: sail },
          { __typename: 'Nope', id: 'x' },
        ],
      },
    });
  });
});

describe('request errors', () => {
  const one = 'query A { __typename }';
  const two = 'query A { __typename } query B { brandSettings(brandId: "6f1c0a52-3d4e-4c1a-9b7e-0b0000000001") { name } }';
  const typed = 'query T($b: UUID!, $n: Int) { brandSettings(brandId: $b) { name } hosts(brandId: $b) { id } }';
  const cases: Array<[string, object]> = [
    ['an operationName the document does not have', { query: one, operationName: 'B' }],
    ['an operationName of another document', { query: two, operationName: 'C' }],
    ['several operations and no operationName', { query: two }],
    ['the named one of several', { query: two, operationName: 'B' }],
    ['an empty operationName', { query: one, operationName: '' }],
    ['a variable of the wrong type', { query: typed, variables: { b: 5 } }],
    ['a required variable missing', { query: typed, variables: {} }],
    ['a variable that is not an Int', { query: typed, variables: { b: lisbon, n: 'five' } }],
    ['a document of fragments only', { query: 'fragment F on Query { __typename }' }],
    [
      'a subscription',
      {
        query: `subscription { sessionAvailability(brandId: "${lisbon}", experienceId: "${sail}", from: "2026-12-01", to: "2026-12-02") { uuid } }`,
      },
    ],
  ];
  for (const [what, payload] of cases) {
    it(`answers ${what} as graphql-js does, with a 4xx and a code`, async () => {
      const answer = await same(payload);
      if (answer.body.data === undefined) {
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        for (const error of answer.body.errors ?? []) expect(error.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
      }
    });
  }
});

/**
 * Mutations change what they act on, so each gateway acts on a brand of its own (Lisbon for the compiled
 * executor, Tokyo for graphql-js), with the same documents; the answers must be the same, and so must
 * each brand's endpoints afterwards.
 */
describe('mutations whose fields fail', () => {
  const tokyo = demoIds.brands.tokyo;
  const create = (alias: string, url: string) =>
    `${alias}: createWebhookEndpoint(brandId: $b, url: "${url}", events: [BOOKING_CONFIRMED]) { endpoint { url events status } }`;
  const remove = (alias: string) => `${alias}: deleteWebhookEndpoint(brandId: $b, id: "${missing}") { __typename }`;
  const leave = (alias: string) => `${alias}: leaveWaitlist(brandId: $b, entryId: "${missing}") { __typename }`;
  const cancel = (alias: string) =>
    `${alias}: cancelBookings(input: { bookings: [{ bookingId: "${missing}", cancel: true }] }) { items { uuid } errors { index code } }`;

  const documents = (run: string): Array<[string, string]> => [
    ['first fails, second creates', `mutation($b: UUID!) { ${remove('a')} ${create('b', `https://hooks.example/${run}/1`)} }`],
    [
      'middle fails',
      `mutation($b: UUID!) { ${create('a', `https://hooks.example/${run}/2`)} ${remove('b')} ${create('c', `https://hooks.example/${run}/3`)} }`,
    ],
    ['last fails', `mutation($b: UUID!) { ${create('a', `https://hooks.example/${run}/4`)} ${remove('b')} }`],
    [
      'a refused input first',
      `mutation($b: UUID!) { ${create('a', 'ftp://hooks.example/x')} ${create('b', `https://hooks.example/${run}/5`)} }`,
    ],
    ['an item error is no field error', `mutation($b: UUID!) { ${cancel('a')} ${create('b', `https://hooks.example/${run}/6`)} }`],
    ['two fail', `mutation($b: UUID!) { ${leave('a')} ${remove('b')} ${create('c', `https://hooks.example/${run}/7`)} }`],
  ];

  const endpoints = async (app: FastifyInstance, brandId: string, key: string) => {
    const answer = await post(
      app,
      { query: `query($b: UUID!) { webhookEndpoints(brandId: $b) { url events } }`, variables: { b: brandId } },
      {
        authorization: `Bearer ${key}`,
      },
    );
    return (answer.body.data as { webhookEndpoints: Array<{ url: string }> }).webhookEndpoints.map((e) => e.url).sort();
  };

  it('answers each as graphql-js does and leaves the same endpoints behind', async () => {
    const run = randomUUID().slice(0, 8);
    for (const [what, query] of documents(run)) {
      const [fromCompiled, fromReference] = await Promise.all([
        post(compiled, { query, variables: { b: lisbon } }, { authorization: `Bearer ${LISBON}` }),
        post(reference, { query, variables: { b: tokyo } }, { authorization: `Bearer ${TOKYO}` }),
      ]);
      expect(comparable(fromCompiled), what).toEqual(comparable(fromReference));
      expect(await endpoints(compiled, lisbon, LISBON), what).toEqual(await endpoints(reference, tokyo, TOKYO));
    }
    // graphql-js stops at a field that fails: only the endpoints created before the first failure exist.
    expect(await endpoints(compiled, lisbon, LISBON)).toEqual([
      `https://hooks.example/${run}/2`,
      `https://hooks.example/${run}/4`,
      `https://hooks.example/${run}/6`,
    ]);
  });
});
