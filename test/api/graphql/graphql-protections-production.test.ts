/**
 * In production the schema stays private: no introspection and no "Did you mean ...?" hints, unless
 * GRAPHQL_INTROSPECTION=true; unexpected failures reach clients as INTERNAL_SERVER_ERROR with the
 * request id and nothing else.
 */
import { getIntrospectionQuery } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphqlProtections } from '../../../src/graphql/protections/settings.ts';
import { loadConfig } from '../../../src/config.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { dropTable, freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
let production: TestApp;
let development: TestApp;

beforeAll(async () => {
  production = await startApp(db, { production: true });
  development = await startApp(db);
});

const introspectionOff = {
  message: 'Introspection is disabled on this server.',
  extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'INTROSPECTION_DISABLED' },
};

describe('introspection in production', () => {
  it('refuses __schema and __type, and still answers __typename', async () => {
    for (const query of [getIntrospectionQuery(), '{ __type(name: "Booking") { name } }']) {
      const res = await production.gql(query, {}, { key });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toEqual(introspectionOff);
    }
    expect((await production.gql('{ __typename }', {}, { key })).body).toEqual({ data: { __typename: 'Query' } });
  });

  it('is on again with GRAPHQL_INTROSPECTION=true', async () => {
    expect(graphqlProtections({ production: true }).introspection).toBe(false);
    expect(graphqlProtections({ production: false }).introspection).toBe(true);
    const config = loadConfig({
      NODE_ENV: 'production',
      PAYMENT_PROCESSOR: 'sandbox',
      ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
      GRAPHQL_INTROSPECTION: 'true',
    });
    expect(graphqlProtections(config).introspection).toBe(true);

    const open = await startApp(db, { production: true, graphql: { introspection: true } });
    const res = await open.gql(getIntrospectionQuery(), {}, { key });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.types.some((type: { name: string }) => type.name === 'Booking')).toBe(true);
    expect((await open.gql('{ featuredListing { id } }', {}, { key })).body.errors[0].message).toBe(
      'Cannot query field "featuredListing" on type "Query". Did you mean "featuredListings"?',
    );
  });
});

describe('field suggestions', () => {
  it('names the unknown field without guessing what was meant in production', async () => {
    const typo = '{ featuredListing { id } }';
    expect((await development.gql(typo, {}, { key })).body.errors[0].message).toBe(
      'Cannot query field "featuredListing" on type "Query". Did you mean "featuredListings"?',
    );
    const res = await production.gql(typo, {}, { key });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        message: 'Cannot query field "featuredListing" on type "Query".',
        locations: [{ line: 1, column: 3 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
  });

  it('hides suggestions of arguments, types and enum values too', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [`{ featuredListings(brandI: "x") { id } }`, {}, 'Unknown argument "brandI" on field "Query.featuredListings".'],
      [`query($s: BookingStatu) { __typename }`, {}, 'Unknown type "BookingStatu".'],
      [
        `query($b: UUID!, $s: BookingStatus) { bookings(brandId: $b, status: $s) { totalCount } }`,
        { b: brand.id, s: 'CONFIRMD' },
        'Variable "$s" got invalid value "CONFIRMD"; Value "CONFIRMD" does not exist in "BookingStatus" enum.',
      ],
    ];
    for (const [query, variables, message] of cases) {
      const messages = (await production.gql(query, variables, { key })).body.errors.map((e: { message: string }) => e.message);
      expect(messages).toContain(message);
      expect(JSON.stringify(messages)).not.toMatch(/Did you mean/);
    }
  });
});

describe('unexpected failures in production', () => {
  it('answer INTERNAL_SERVER_ERROR with the request id, without the SQL error', async () => {
    const broken = await freshDb();
    const b = await createBrand(broken);
    const k = (await createApiKey(broken, { brandId: b.id })).secret;
    const app = await startApp(broken, { production: true });
    await dropTable(broken, 'hosts');
    const res = await app.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${k}` },
      payload: { query: 'query($b: UUID!) { hosts(brandId: $b) { id } }', variables: { b: b.id } },
    });
    expect(res.statusCode).toBe(200);
    // The root field is nullable: its failure nulls it alone.
    expect(res.json()).toEqual({
      data: { hosts: null },
      errors: [
        {
          message: 'Internal server error',
          locations: [{ line: 1, column: 20 }],
          path: ['hosts'],
          extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: res.headers['x-request-id'] },
        },
      ],
    });
  });
});
