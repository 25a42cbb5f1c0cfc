/**
 * Mistakes a client can make in a GraphQL request are answered as its mistakes: a 4xx with a code and a
 * message that says what to change, never a 500 or "Internal server error", over POST /graphql and over
 * the live transports (WebSocket and Server-Sent Events).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { listen, subscribe, wsClient, type Listening } from '../../support/live.ts';

const db = await freshDb();
const brand = await createBrand(db);
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2027-02-01T12:00:00.000Z') });
  at = await listen(t.app);
});

async function post(payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const availability = () =>
  `subscription Places { sessionAvailability(brandId: "${brand.id}", experienceId: "${experience.id}", from: "2027-03-01", to: "2027-03-02") { uuid remaining } }`;

describe('POST /graphql', () => {
  it('answers an operationName the document does not have with 400 OPERATION_RESOLUTION_FAILURE', async () => {
    expect(await post({ query: 'query Settings { viewer { kind } }', operationName: 'Setting' })).toEqual({
      status: 400,
      body: { errors: [{ message: 'Unknown operation named "Setting".', extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }] },
    });
    expect(await post({ query: 'query A { viewer { kind } } query B { __typename }', operationName: 'C' })).toEqual({
      status: 400,
      body: { errors: [{ message: 'Unknown operation named "C".', extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }] },
    });
  });

  it('runs the operation the request names', async () => {
    expect(await post({ query: 'query A { viewer { kind } } query B { __typename }', operationName: 'B' })).toEqual({
      status: 200,
      body: { data: { __typename: 'Query' } },
    });
  });

  it('answers several operations without an operationName with 400 OPERATION_RESOLUTION_FAILURE', async () => {
    expect(await post({ query: 'query A { viewer { kind } } query B { __typename }' })).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message: 'Must provide operation name if query contains multiple operations.',
            extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
          },
        ],
      },
    });
  });

  it('answers a variable of the wrong type with 400 BAD_USER_INPUT', async () => {
    expect(await post({ query: 'query($b: UUID!) { brandSettings(brandId: $b) { name } }', variables: { b: 5 } })).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message: 'Variable "$b" got invalid value 5; Value is not string: 5',
            locations: [{ line: 1, column: 7 }],
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      },
    });
  });

  it('refuses a subscription with 400 BAD_REQUEST, saying where to subscribe', async () => {
    expect(await post({ query: availability() })).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message:
              'Subscriptions do not run over POST /graphql: subscribe over a WebSocket to /graphql (the graphql-transport-ws ' +
              'protocol of graphql-ws), or over Server-Sent Events with POST /graphql/stream (graphql-sse).',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      },
    });
  });
});

describe('live transports', () => {
  const introspection = [
    ['subscription { __typename }', 'Anonymous Subscription must not select an introspection top level field.'],
    ['subscription Kind { __typename }', 'Subscription "Kind" must not select an introspection top level field.'],
  ] as const;

  it('refuses a subscription of __typename alone with GRAPHQL_VALIDATION_FAILED and graphql-js’s message, over WebSocket', async () => {
    const client = wsClient(at.ws, { key: secret });
    for (const [query, message] of introspection) {
      const ended = await subscribe(client, query).end();
      expect(ended.error).toEqual([{ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }]);
    }
  });

  it('refuses it over Server-Sent Events with 400 and the same error', async () => {
    for (const [query, message] of introspection) {
      const res = await fetch(`${at.http}/graphql/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${secret}` },
        body: JSON.stringify({ query }),
      });
      expect([res.status, await res.json()]).toEqual([400, { errors: [{ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] }]);
    }
  });

  it('names the field a subscription does not have, and the one of two fields too many', async () => {
    const client = wsClient(at.ws, { key: secret });
    expect((await subscribe(client, 'subscription { nothing }').end()).error).toEqual([
      {
        message: 'Cannot query field "nothing" on type "Subscription".',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
    const two = `subscription Two($b: UUID!, $c: UUID!) { cartUpdated(brandId: $b, cartId: $c) { status } again: cartUpdated(brandId: $b, cartId: $c) { status } }`;
    expect((await subscribe(client, two, { b: brand.id, c: experience.id }).end()).error).toEqual([
      {
        message: 'Subscription "Two" must select only one top level field.',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
  });
});
