import {
  buildSchema,
  getNamedType,
  getOperationAST,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  parse,
  type GraphQLType,
} from 'graphql';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operationCost } from '../../../src/graphql/protections/cost.ts';
import { listSizes, MAX_SESSIONS_PER_DAY } from '../../../src/graphql/protections/list-sizes.ts';
import { loadTypeDefs } from '../../../src/graphql/server.ts';

const schema = buildSchema(loadTypeDefs());

function cost(query: string, variables: Record<string, unknown> = {}): number | null {
  const document = parse(query);
  return operationCost(schema, document, getOperationAST(document)!, variables);
}

const id = '"6f1c0a52-3d4e-4c1a-9b7e-0b0000000001"';

describe('operation cost', () => {
  it.each([
    ['scalars only', '{ __typename }', 0],
    ['an object', `{ brandSettings(brandId: ${id}) { id } }`, 1],
    ['nested objects', `{ brandSettings(brandId: ${id}) { designElement { logo { uri { original } } } } }`, 4],
    // 50 listings, each with 10 medias of 5 links: the declared bounds, multiplied.
    [
      'a list without a page size counts its declared bound',
      `{ featuredListings { id medias { links { url } } } }`,
      50 * (1 + 10 * (1 + 5)),
    ],
    ['a list of scalars costs nothing', `{ experience(brandId: ${id}, id: ${id}) { providedItems paymentMethods } }`, 1],
    [
      'sessions count the days of their range times the sessions a day',
      `{ experience(brandId: ${id}, id: ${id}) { sessions(from: "2027-03-01", to: "2027-03-07") { remaining } } }`,
      1 + 7 * 24,
    ],
    [
      'availability over the longest range the resolver accepts (92 days)',
      `{ availability(brandId: ${id}, experienceId: ${id}, from: "2027-01-01", to: "2027-12-31") { remaining } }`,
      92 * 24,
    ],
    [
      'a connection: first x (edge + node)',
      `{ experienceReviews(experienceId: ${id}, first: 10) { totalCount edges { node { id } } } }`,
      21,
    ],
    ['pageInfo is not multiplied', `{ experienceReviews(experienceId: ${id}, first: 10) { pageInfo { hasNextPage } } }`, 2],
    ['the schema default (20) without first', `{ experienceReviews(experienceId: ${id}) { edges { node { id } } } }`, 41],
    [
      'a page size above the domain maximum counts as 100',
      `{ experienceReviews(experienceId: ${id}, first: 5000) { edges { cursor } } }`,
      101,
    ],
    [
      'a page inside an object',
      `{ experience(brandId: ${id}, id: ${id}) { reviews(first: 5) { edges { node { reviewer { profilePicture { id } } } } } } }`,
      22,
    ],
    ['introspection', '{ __schema { types { name fields { name type { name } } } } }', 4],
    [
      'aliases add up',
      `{ a: experienceReviews(experienceId: ${id}, first: 10) { edges { cursor } } b: experienceReviews(experienceId: ${id}, first: 30) { edges { cursor } } }`,
      42,
    ],
  ])('%s', (_, query, expected) => {
    expect(cost(query)).toBe(expected);
  });

  it('reads page sizes and @skip/@include from the variables', () => {
    const query = `query($first: Int, $skip: Boolean!) { experienceReviews(experienceId: ${id}, first: $first) @skip(if: $skip) { edges { cursor } } }`;
    expect(cost(query, { first: 50, skip: false })).toBe(51);
    expect(cost(query, { first: null, skip: false })).toBe(21);
    expect(cost(query, { skip: false })).toBe(21);
    expect(cost(query, { first: 50, skip: true })).toBe(0);
    expect(cost(query, { first: 'ten', skip: false })).toBeNull();
  });

  it('multiplies a date range by its parent’s count, with dates from the variables', () => {
    const query = `query($ids: [ID!]!, $from: LocalDate!, $to: LocalDate!) { nodes(ids: $ids) { ... on Experience { sessions(from: $from, to: $to) { remaining } } } }`;
    const ids = Array.from({ length: 100 }, (_, i) => `id${i}`);
    expect(cost(query, { ids, from: '2027-03-01', to: '2027-05-29' })).toBe(100 * (1 + 90 * 24));
    expect(cost(query, { ids: ids.slice(0, 2), from: '2027-03-01', to: '2027-03-01' })).toBe(2 * (1 + 24));
    // A range the resolver refuses (reversed, unreadable) is never cheaper than one day, nor dearer than 92.
    expect(cost(query, { ids: ids.slice(0, 1), from: '2027-03-02', to: '2027-03-01' })).toBe(1 + 24);
  });

  it('declares a size for every list of objects in the schema', () => {
    const undeclared: string[] = [];
    const listOf = (type: GraphQLType): boolean => isListType(type) || ('ofType' in type && listOf(type.ofType as GraphQLType));
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        if (!listOf(field.type) || isLeafType(getNamedType(field.type))) continue;
        if (!listSizes[`${type.name}.${field.name}`]) undeclared.push(`${type.name}.${field.name}`);
      }
    }
    expect(undeclared).toEqual([]);
    expect(MAX_SESSIONS_PER_DAY).toBe(24);
  });

  it('costs fragments by where they are spread, once each, however often they repeat', () => {
    const query = `{ experienceReviews(experienceId: ${id}, first: 10) { ...Page } } fragment Page on ReviewConnection { edges { ...Edge } } fragment Edge on ReviewEdge { node { id } }`;
    expect(cost(query)).toBe(21);
    // 2^40 spreads if walked naively; each fragment is costed once.
    const chain = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on Query { a${i}: __typename ...F${i + 1} b${i}: __typename ...F${i + 1} }`,
    ).join(' ');
    const started = Date.now();
    expect(cost(`{ ...F0 } ${chain} fragment F40 on Query { brandSettings(brandId: ${id}) { id } }`)).toBe(2 ** 40);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('operation cost of a parsed document reused across requests', () => {
  it('is the same on every call, with variables each call its own, and per schema', () => {
    const fixed = parse(`{ featuredListings { id medias { links { url } } } }`);
    const fixedOperation = getOperationAST(fixed)!;
    expect(operationCost(schema, fixed, fixedOperation)).toBe(50 * (1 + 10 * (1 + 5)));
    expect(operationCost(schema, fixed, fixedOperation, { unused: 1 })).toBe(50 * (1 + 10 * (1 + 5)));
    // Another schema with the same document: its own cost (its lists have no declared sizes), not the first's.
    const other = buildSchema(
      'type Query { featuredListings: [L] } type L { id: ID medias: [M] } type M { links: [K] } type K { url: String }',
    );
    const otherCost = operationCost(other, fixed, fixedOperation);
    expect(otherCost).toBe(operationCost(other, parse(`{ featuredListings { id medias { links { url } } } }`), fixedOperation));
    expect(otherCost).not.toBe(50 * (1 + 10 * (1 + 5)));
    const sized = parse(
      `query Q($to: LocalDate!) { experience(brandId: ${id}, id: ${id}) { sessions(from: "2027-03-01", to: $to) { remaining } } }`,
    );
    const sizedOperation = getOperationAST(sized)!;
    const week = operationCost(schema, sized, sizedOperation, { to: '2027-03-07' });
    expect(operationCost(schema, sized, sizedOperation, { to: '2027-03-01' })).toBeLessThan(week!);
    expect(operationCost(schema, sized, sizedOperation, { to: '2027-03-07' })).toBe(week);
  });
});

describe('operation cost kept for a parsed operation', () => {
  const query = `query($first: Int, $skip: Boolean!, $ids: [ID!]!, $to: LocalDate!, $id: ID!) {
    experienceReviews(experienceId: $id, first: $first) @skip(if: $skip) { edges { node { id } } }
    nodes(ids: $ids) { ... on Experience { sessions(from: "2027-03-01", to: $to) { remaining } } }
    experience(brandId: ${id}, id: $id) { reviews(first: 3) { edges { cursor } } }
  }`;
  const variables = fc.record(
    {
      first: fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 300 })),
      skip: fc.boolean(),
      ids: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 120 }),
      to: fc.constantFrom('2027-03-01', '2027-03-07', '2027-02-01', 'soon'),
      id: fc.constantFrom('x', 'y'),
    },
    { requiredKeys: ['skip', 'ids', 'to', 'id'] },
  );

  it('is, for any variables, the cost a fresh walk gives', () => {
    const kept = parse(query);
    const operation = getOperationAST(kept)!;
    fc.assert(
      fc.property(variables, (given) => {
        expect(operationCost(schema, kept, operation, given)).toBe(cost(query, given));
      }),
      { numRuns: 300 },
    );
  });

  it('is kept per value of the variables the walk read: a page size, a @skip; not an id', () => {
    const kept = parse(query);
    const operation = getOperationAST(kept)!;
    const base = { skip: false, ids: [], to: '2027-03-01', id: 'x' };
    // experienceReviews: 1 + first x (edge + node); experience: 1 + its reviews, 1 + 3 edges.
    expect(operationCost(schema, kept, operation, { ...base, first: 50 })).toBe(101 + 5);
    expect(operationCost(schema, kept, operation, base)).toBe(41 + 5);
    expect(operationCost(schema, kept, operation, { ...base, first: null })).toBe(41 + 5);
    expect(operationCost(schema, kept, operation, { ...base, first: 50, skip: true })).toBe(5);
    expect(operationCost(schema, kept, operation, { ...base, first: 50, id: 'y' })).toBe(101 + 5);
    expect(operationCost(schema, kept, operation, { ...base, first: 50, ids: ['a', 'b'] })).toBe(101 + 5 + 2 * (1 + 24));
    expect(operationCost(schema, kept, operation, { ...base, first: 'ten' })).toBeNull();
    // A variable no walk reads is not coerced again here: execution refuses it, before anything runs.
    const byId = `query($id: ID!) { experience(brandId: ${id}, id: $id) { id } }`;
    const keptById = parse(byId);
    expect(operationCost(schema, keptById, getOperationAST(keptById)!, { id: 'x' })).toBe(1);
    expect(operationCost(schema, keptById, getOperationAST(keptById)!, { id: { not: 'an id' } })).toBe(1);
    expect(cost(byId, { id: { not: 'an id' } })).toBeNull();
  });
});
