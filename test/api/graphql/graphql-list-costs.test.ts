/**
 * Issue 34, item 3: lists without a page size once counted as one item, so 25 aliases of `nodes` over 100
 * forged experience ids, each with 90 days of sessions, passed the cost check and answered megabytes. Every
 * list now counts what it can return, forged variants of a global id are refused, `node` never answers an
 * object under another id, and an answer above GRAPHQL_MAX_RESPONSE_BYTES is refused rather than sent.
 * Demo data: Lisbon's Tram 28 walk runs twice a day on each of the next 60 days.
 */
import { DateTime } from 'luxon';
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
const TRAM = demoIds.experiences.tram28PhotoWalk;
const PUBLISHABLE = 'pk_test_lisbon_demo';
const SECRET = 'sk_test_lisbon_demo';

const experienceId = (language: string) => Buffer.from(`Experience:${LISBON}:${TRAM}:${language}`).toString('base64url');
const lisbonDay = (offset: number) => DateTime.now().setZone('Europe/Lisbon').plus({ days: offset }).toISODate()!;

describe('the cost of lists without a page size', () => {
  // The request, as sent: 25 aliases, each of 100 ids of one experience under made-up language tokens.
  const attack = `query($ids: [ID!]!, $from: LocalDate!, $to: LocalDate!) { ${Array.from(
    { length: 25 },
    (_, i) => `a${i}: nodes(ids: $ids) { ... on Experience { sessions(from: $from, to: $to) { remaining } } }`,
  ).join(' ')} }`;
  const forged = Array.from({ length: 100 }, (_, i) => experienceId(`x${i}`));

  it('refuses 25 aliases of nodes over 100 forged experiences with 90 days of sessions, before running anything', async () => {
    const send = (key: string) => t.gql(attack, { ids: forged, from: lisbonDay(1), to: lisbonDay(90) }, { key });
    // The first parses and validates the document; Apollo keeps it, so the second only costs it again.
    const [first, res] = [await send(PUBLISHABLE), await send(PUBLISHABLE)];
    expect(first.body).toEqual(res.body);
    expect(res.status).toBe(400);
    // 25 aliases x 100 ids x (the experience + 90 days x 24 sessions a day).
    expect(res.body).toEqual({
      errors: [
        {
          message: 'This operation costs 5402500, above the budget of 5000: ask for smaller pages (first) or fewer nested objects.',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_COST', limit: 5000, cost: 5_402_500 },
        },
      ],
    });
    // A secret key's budget is larger, and still a hundredth of this.
    expect((await send(SECRET)).body.errors[0].extensions).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      reason: 'MAX_COST',
      limit: 500_000,
      cost: 5_402_500,
    });
  });

  it('gives a secret key a larger budget than the publishable key: three experiences’ 90 days of sessions', async () => {
    const query = attack.replace(/ a[1-9]\d?: nodes[^}]*\} \} \}/g, '');
    const variables = { ids: [experienceId('en'), experienceId('pt'), experienceId('en')], from: lisbonDay(1), to: lisbonDay(90) };
    // 3 x (the experience + 90 days x 24 sessions a day) = 6483.
    const refused = await t.gql(query, variables, { key: PUBLISHABLE });
    expect(refused.body.errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_COST', limit: 5000, cost: 6483 });
    const answered = await t.gql(query, variables, { key: SECRET });
    expect(answered.body.errors).toBeUndefined();
    // The walk runs twice a day from today for 60 days: the 90 days from tomorrow hold 59 of them, 118 sessions.
    expect(answered.body.data.a0.map((e: { sessions: unknown[] }) => e.sessions.length)).toEqual([118, 118, 118]);
  });

  it('still answers a week of an experience’s sessions, and a few experiences’ weeks through nodes', async () => {
    const week = `query($b: UUID!, $id: UUID!, $from: LocalDate!, $to: LocalDate!) {
      experience(brandId: $b, id: $id) { sessions(from: $from, to: $to) { startDateTime remaining } } }`;
    const res = await t.gql(week, { b: LISBON, id: TRAM, from: lisbonDay(1), to: lisbonDay(7) }, { key: PUBLISHABLE });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.experience.sessions.map((s: { startDateTime: string }) => s.startDateTime)).toEqual(
      Array.from({ length: 7 }, (_, i) => [`${lisbonDay(i + 1)}T09:30:00`, `${lisbonDay(i + 1)}T15:00:00`]).flat(),
    );
    // One alias of the attack over the experience's real id: 1 + 7 x 24 = 169, well within the budget.
    const nodes = await t.gql(
      attack.replace(/ a[1-9]\d?: nodes[^}]*\} \} \}/g, ''),
      {
        ids: [experienceId('en')],
        from: lisbonDay(1),
        to: lisbonDay(7),
      },
      { key: PUBLISHABLE },
    );
    expect(nodes.body.errors).toBeUndefined();
    expect(nodes.body.data.a0).toHaveLength(1);
    expect(nodes.body.data.a0[0].sessions).toHaveLength(14);
  });
});

describe('forged variants of a global id', () => {
  it('are VALIDATION_FAILED naming id or ids.N, never read', async () => {
    const one = await t.gql(`query($id: ID!) { node(id: $id) { id } }`, { id: experienceId('x0') }, { key: PUBLISHABLE });
    expect(one.body.data).toEqual({ node: null });
    expect(one.body.errors).toEqual([
      expect.objectContaining({
        message: `"${experienceId('x0').slice(0, 100)}" is not a global id of type Experience: pass an object's \`id\` as it was answered`,
        extensions: { code: 'VALIDATION_FAILED', field: 'id' },
      }),
    ]);
    const listing = Buffer.from(`Listing:${LISBON}:${TRAM}:stale:listed:en`).toString('base64url');
    const many = await t.gql(
      `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
      { ids: [experienceId('en'), experienceId('forged'), listing] },
      { key: PUBLISHABLE },
    );
    expect(many.body.data).toEqual({ nodes: [{ id: experienceId('en') }, null, null] });
    expect(many.body.errors.map((e: { extensions: unknown }) => e.extensions)).toEqual([
      { code: 'VALIDATION_FAILED', field: 'ids.1' },
      { code: 'VALIDATION_FAILED', field: 'ids.2' },
    ]);
  });

  it('are VALIDATION_FAILED naming the reference’s id in _entities', async () => {
    const res = await t.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Experience { id } } }`,
      {
        r: [
          { __typename: 'Experience', id: experienceId('en') },
          { __typename: 'Experience', id: experienceId('zz') },
        ],
      },
      { key: SECRET },
    );
    expect(res.body.data._entities).toEqual([{ id: experienceId('en') }, null]);
    expect(res.body.errors.map((e: { path: unknown; extensions: unknown }) => [e.path, e.extensions])).toEqual([
      [['_entities', 1], { code: 'VALIDATION_FAILED', field: 'id' }],
    ]);
  });

  it('node never answers an object under another id: a language the experience has no text in is null', async () => {
    // French is a language, but the walk has no French text: reading it shows English, another object.
    const res = await t.gql(
      `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Experience { contentLanguage } } }`,
      { ids: [experienceId('fr'), experienceId('pt-PT'), experienceId('pt')] },
      { key: PUBLISHABLE },
    );
    expect(res.body).toEqual({ data: { nodes: [null, null, { id: experienceId('pt'), contentLanguage: 'pt' }] } });
  });
});

describe('the answer’s size', () => {
  it('refuses a query whose answer is above GRAPHQL_MAX_RESPONSE_BYTES, with its size, and sends smaller ones', async () => {
    const small = await startApp(db, { graphql: { maxResponseBytes: 2_000 } });
    const sessions = `query($b: UUID!, $id: UUID!, $from: LocalDate!, $to: LocalDate!) {
      availability(brandId: $b, experienceId: $id, from: $from, to: $to) { id startDateTime remaining } }`;
    const day = await small.gql(sessions, { b: LISBON, id: TRAM, from: lisbonDay(1), to: lisbonDay(1) }, { key: PUBLISHABLE });
    expect(day.status).toBe(200);
    expect(day.body.data.availability).toHaveLength(2);
    const month = await small.gql(sessions, { b: LISBON, id: TRAM, from: lisbonDay(1), to: lisbonDay(30) }, { key: PUBLISHABLE });
    expect(month.status).toBe(400);
    expect(month.headers['cache-control']).toBe('no-store');
    const { size } = month.body.errors[0].extensions;
    expect(month.body).toEqual({
      errors: [
        {
          message: `The answer is ${size} bytes, above the limit of 2000: ask for less (smaller pages, shorter date ranges, fewer aliases).`,
          extensions: { code: 'RESPONSE_TOO_LARGE', limit: 2000, size },
        },
      ],
    });
    // 60 sessions of about 120 bytes each.
    expect(size).toBeGreaterThan(6_000);
    // A catalogue answer (which the response cache keeps) is refused every time: a refusal is never kept.
    const listings = `{ featuredListings { uuid title summary medias { links { url } } } }`;
    for (let i = 0; i < 2; i++) {
      const res = await small.gql(listings, {}, { key: PUBLISHABLE });
      expect([res.status, res.body.errors[0].extensions.code]).toEqual([400, 'RESPONSE_TOO_LARGE']);
    }
  });
});
