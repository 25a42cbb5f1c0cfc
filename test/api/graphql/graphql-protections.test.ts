/**
 * GraphQL limits attacked through HTTP: depth (introspection included), aliases, directives, tokens,
 * document size and the per-request cost budget. Each refusal is a 400 before anything runs, with
 * `extensions.code` GRAPHQL_VALIDATION_FAILED, the limit's `reason` and its value.
 */
import { randomUUID } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createReviews } from '../../../fixtures/factories/reviews.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const sail = await createExperience(db, brand.id);
await createReviews(db, { brandId: brand.id, experienceId: sail.experience.id, hostId: sail.host.id }, 3);
const booking = (
  await createBooking(db, {
    brandId: brand.id,
    session: await createSession(db, sail.experience),
    participants: [{ firstName: 'Ana' }, { firstName: 'Rui' }],
  })
).booking;
let t: TestApp;

beforeAll(async () => {
  // The key here is a secret key: its budget as small as the publishable key's, the figures these tests count.
  t = await startApp(db, { graphql: { secretKeyMaxCost: 5_000 } });
});

/** `{ __schema { types { fields { type { fields { type ... { name } } } } } } }`: `levels` fields under __schema. */
function cyclicIntrospection(levels: number): string {
  const names = Array.from({ length: levels }, (_, i) => (i === 0 ? 'types' : i % 2 === 1 ? 'fields' : 'type'));
  return `{ __schema { ${names.join(' { ')} { name ${'} '.repeat(levels)}} }`;
}

async function refusal(query: string, variables?: Record<string, unknown>, app = t) {
  const res = await app.gql(query, variables, { key });
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors).toHaveLength(1);
  return res.body.errors[0];
}

describe('depth', () => {
  it('refuses a 30-level cyclic introspection query, naming the limits it breaks', async () => {
    const res = await t.gql(cyclicIntrospection(30));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        message: 'Query depth limit of 15 exceeded, found 32.',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_DEPTH', limit: 15 },
      },
      {
        message: 'Introspection nests fields, inputFields, interfaces or possibleTypes three levels deep; two is the limit.',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_INTROSPECTION_DEPTH' },
      },
    ]);
  });

  it('refuses cyclic introspection within the depth limit too: three nested fields lists', async () => {
    const error = await refusal(cyclicIntrospection(6));
    expect(error.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_INTROSPECTION_DEPTH' });
    expect(error.message).toBe('Introspection nests fields, inputFields, interfaces or possibleTypes three levels deep; two is the limit.');
  });

  it('answers the standard introspection query (the Sandbox’s) outside production', async () => {
    for (const query of [
      getIntrospectionQuery(),
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }),
    ]) {
      const res = await t.gql(query);
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.__schema.queryType).toEqual({ name: 'Query', kind: 'OBJECT' });
    }
  });

  it('follows GRAPHQL_MAX_DEPTH, counting fields rather than fragment spreads', async () => {
    const shallow = await startApp(db, { graphql: { maxDepth: 4 } });
    const query = `query($b: UUID!) { brandSettings(brandId: $b) { ...Logo } } fragment Logo on BrandSettings { designElement { logo { uri { original } } } }`;
    const error = await refusal(query, { b: brand.id }, shallow);
    expect(error).toMatchObject({ message: 'Query depth limit of 4 exceeded, found 5.', extensions: { reason: 'MAX_DEPTH', limit: 4 } });
    const fits = await shallow.gql(
      `query($b: UUID!) { brandSettings(brandId: $b) { ...Logo } } fragment Logo on BrandSettings { designElement { logo { id } } }`,
      { b: brand.id },
      { key },
    );
    expect(fits.body.errors).toBeUndefined();
  });
});

describe('aliases and directives', () => {
  const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: featuredListings { id }`).join(' ')} }`;

  it('runs 30 aliases and refuses 31', async () => {
    const ok = await t.gql(aliased(30), {}, { key });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body.data)).toHaveLength(30);
    const error = await refusal(aliased(31));
    expect(error).toEqual({
      message: 'Aliases limit of 30 exceeded, found 31.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_ALIASES', limit: 30 },
    });
  });

  it('runs 50 directives and refuses 51', async () => {
    const directed = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename @include(if: true)`).join(' ')} }`;
    const ok = await t.gql(directed(50));
    expect(ok.body.data.t49).toBe('Query');
    const error = await refusal(directed(51));
    expect(error).toEqual({
      message: 'Directives limit of 50 exceeded, found 51.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_DIRECTIVES', limit: 50 },
    });
  });

  it('answers a directive flood on one field with the refusal alone, not a hundred duplicate errors', async () => {
    const error = await refusal(`{ __typename ${'@skip(if: false) '.repeat(250)}}`);
    expect(error.message).toBe('Directives limit of 50 exceeded, found 250.');
  });
});

describe('document size', () => {
  const typenames = (tokens: number) => `{ ${'__typename '.repeat(tokens - 2)}}`;
  // `t0: __typename` is three tokens; distinct names, so graphql's overlapping-fields check has nothing to compare.
  const aliasedTypenames = (aliases: number) => `{ ${Array.from({ length: aliases }, (_, i) => `t${i}: __typename`).join(' ')} }`;

  it('runs 2000 tokens and refuses 2001 before parsing', async () => {
    const ok = await t.gql(aliasedTypenames(666));
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body.data)).toHaveLength(666);
    const error = await refusal(aliasedTypenames(666).replace(/ }$/, ' __typename }'));
    expect(error).toEqual({
      message: 'The GraphQL document has more than 2000 tokens.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_TOKENS', limit: 2000 },
    });
  });

  it('gives graphql’s own cap on validation work a reason: one field repeated 1998 times', async () => {
    const error = await refusal(typenames(2000));
    expect(error).toEqual({
      message: 'This document repeats the same fields too often to be checked; send a smaller one.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_VALIDATION_WORK' },
    });
  });

  it('refuses a document above 32768 bytes, comments and all', async () => {
    const padded = (bytes: number) => {
      const head = '{ __typename }\n#';
      return head + 'x'.repeat(bytes - head.length);
    };
    expect((await t.gql(padded(32_768))).body).toEqual({ data: { __typename: 'Query' } });
    const error = await refusal(padded(32_769));
    expect(error).toEqual({
      message: 'The GraphQL document is 32769 bytes, above the limit of 32768.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_DOCUMENT_SIZE', limit: 32_768 },
    });
  });

  it('follows GRAPHQL_MAX_TOKENS and GRAPHQL_MAX_DOCUMENT_BYTES', async () => {
    const small = await startApp(db, { graphql: { maxTokens: 100, maxDocumentBytes: 2048 } });
    expect((await refusal(typenames(101), undefined, small)).extensions).toMatchObject({ reason: 'MAX_TOKENS', limit: 100 });
    expect((await refusal(`{ __typename } # ${'x'.repeat(2048)}`, undefined, small)).extensions).toMatchObject({
      reason: 'MAX_DOCUMENT_SIZE',
      limit: 2048,
    });
  });
});

describe('cost budget', () => {
  // Each alias: the connection (1) + `first` edges, each an edge (1), its node (1) and the reviewer (1).
  const reviewPages = (aliases: number) =>
    `query($id: UUID!, $first: Int) { ${Array.from(
      { length: aliases },
      (_, i) => `p${i}: experienceReviews(experienceId: $id, first: $first) { edges { node { id reviewer { firstName } } } }`,
    ).join(' ')} }`;

  it('weighs lists by the page size in the variables, on every request of a cached document', async () => {
    const query = reviewPages(17);
    const small = await t.gql(query, { id: sail.experience.id, first: 10 }, { key });
    expect(small.status).toBe(200);
    expect(small.body.data.p16.edges).toHaveLength(3);
    // The same document, validated and cached by Apollo a moment ago: only the page size differs.
    const error = await refusal(query, { id: sail.experience.id, first: 100 });
    expect(error).toEqual({
      message: 'This operation costs 5117, above the budget of 5000: ask for smaller pages (first) or fewer nested objects.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_COST', limit: 5000, cost: 5117 },
    });
    const fits = await t.gql(reviewPages(16), { id: sail.experience.id, first: 100 }, { key });
    expect(fits.body.errors).toBeUndefined();
  });

  it('weighs nodes(ids:) by the number of ids it names', async () => {
    const budget = await startApp(db, { graphql: { secretKeyMaxCost: 60 } });
    const nodes = `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Experience { reviews(first: 2) { edges { node { id } } } } } }`;
    // Well-formed ids of experiences that do not exist: each answers null.
    const ids = (count: number) =>
      Array.from({ length: count }, () => Buffer.from(`Experience:${brand.id}:${randomUUID()}:en`).toString('base64url'));
    // Each id: the node (1), its reviews connection (1) and two review edges with their reviews (2 x 2): 6.
    expect((await budget.gql(nodes, { ids: ids(10) }, { key })).body.errors).toBeUndefined();
    expect((await refusal(nodes, { ids: ids(11) }, budget)).extensions).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      reason: 'MAX_COST',
      limit: 60,
      cost: 66,
    });
  });

  it('counts the schema’s default page size (20) when the client sends none', async () => {
    const budget = await startApp(db, { graphql: { secretKeyMaxCost: 60 } });
    const one = `query($id: UUID!) { experienceReviews(experienceId: $id) { edges { node { id } } } }`;
    expect((await budget.gql(one, { id: sail.experience.id }, { key })).body.errors).toBeUndefined();
    const error = await refusal(
      `query($id: UUID!) { a: experienceReviews(experienceId: $id) { edges { node { id } } } b: experienceReviews(experienceId: $id, first: 10) { edges { node { id } } } }`,
      { id: sail.experience.id },
      budget,
    );
    expect(error.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_COST', limit: 60, cost: 62 });
  });

  it('leaves a page size above 100 to the resolver’s own VALIDATION_FAILED', async () => {
    const res = await t.gql(reviewPages(1), { id: sail.experience.id, first: 1_000_000 }, { key });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'first' });
  });

  it('skips what @skip leaves out', async () => {
    const budget = await startApp(db, { graphql: { secretKeyMaxCost: 10 } });
    const query = `query($id: UUID!, $all: Boolean!) { experienceReviews(experienceId: $id, first: 50) @skip(if: $all) { edges { node { id } } } }`;
    expect((await budget.gql(query, { id: sail.experience.id, all: true }, { key })).body).toEqual({ data: {} });
    expect((await refusal(query, { id: sail.experience.id, all: false }, budget)).extensions.cost).toBe(101);
  });
});

describe('the queries our clients send', () => {
  const answers = `customQuestionAnswers { id answer { value key } question { customQuestionId prompt fieldType options { key value }
    termsAndConditions { label mediaId isOverrided mediaUrl }
    config { experienceId experienceQuestionId isRequired isActive order scope conditions { rule conditionKey conditionValue } conditionsMatchType } } }`;

  it('runs the deepest path the schema has (10), on a full page of 100 bookings with every field, within a secret key’s budget', async () => {
    const query = `query($b: UUID!, $first: Int) { bookings(brandId: $b, first: $first) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node {
      uuid confirmationCode cartId cartConfirmationCode amount currency amountRefunded status paymentMethod createdAt notes internalNotes
      purchaser { id firstName lastName emailAddress phoneNumber ${answers} }
      participants { id firstName lastName emailAddress phoneNumber priceTierName cancelledAt ${answers} }
      event { timezone startDateTime } experience { id title } session { id remaining } } } } }`;
    const res = await (await startApp(db)).gql(query, { b: brand.id, first: 100 }, { key });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(
      res.body.data.bookings.edges.map((e: { node: { uuid: string; participants: unknown[] } }) => [
        e.node.uuid,
        e.node.participants.length,
      ]),
    ).toEqual([[booking.id, 2]]);
    // A booking: 10 participants and the purchaser, each with 10 answers of 5 values and their question's
    // 20 options and 5 conditions (list-sizes.ts): 3756 a booking, so 100 cost 375602 (of 500000), and two
    // are over a secret budget as small as the publishable key's.
    expect((await refusal(query, { b: brand.id, first: 2 })).extensions).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      reason: 'MAX_COST',
      limit: 5000,
      cost: 7514,
    });
  });

  it('runs an experience with its reviews, reviewers’ pictures, questions and their conditions', async () => {
    const query = `query($b: UUID!, $id: UUID!) { experience(brandId: $b, id: $id) {
      title medias { id uri } hostedBy { firstName profilePicture { uri } }
      customQuestions { fieldType options { key value } config { scope conditions { rule conditionKey conditionValue } } }
      reviews(first: 100) { totalCount edges { node { id rating reviewer { firstName profilePicture { id uri } } hostedBy { firstName } } } } } }`;
    const res = await t.gql(query, { b: brand.id, id: sail.experience.id }, { key });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.experience.reviews.edges).toHaveLength(3);
  });
});
