import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { listen, subscribe, wsClient, type Listening } from '../../support/live.ts';

const db = await freshDb();
const brand = await createBrand(db);
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const shop = 'https://shop.example';
const publishable = (await createPublishableKey(db, brand.id, [shop])).secret;
const sail = (await createExperience(db, brand.id)).experience;

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp(db, { graphql: { maxDepth: 4, maxCost: 2 } });
  at = await listen(t.app);
});

const availability = `subscription($b: UUID!, $e: UUID!) {
  sessionAvailability(brandId: $b, experienceId: $e, from: "2026-05-01", to: "2026-05-02") { uuid remaining }
}`;
const vars = () => ({ b: brand.id, e: sail.id });

describe('live connections: keys are checked in connection_init as HTTP checks them', () => {
  it('closes a connection without a key with 4401 and says how to send one', async () => {
    const client = wsClient(at.ws);
    const ended = await subscribe(client, availability, vars()).end();
    expect(ended.error).toMatchObject({ code: 4401 });
    expect(client.closed[0]).toEqual({
      code: 4401,
      reason: 'This connection needs an API key: send { "authorization": "Bearer <key>" } in connection_init.',
    });
  });

  it('closes a connection with a wrong key with 4401', async () => {
    const client = wsClient(at.ws, { key: 'sk_test_not-a-key' });
    await subscribe(client, availability, vars()).end();
    expect(client.closed[0]).toEqual({ code: 4401, reason: 'The API key is not valid' });
  });

  it('closes a publishable key used from a page of another origin with 4403', async () => {
    const client = wsClient(at.ws, { key: publishable, headers: { origin: 'https://elsewhere.example' } });
    await subscribe(client, availability, vars()).end();
    expect(client.closed[0]?.code).toBe(4403);
    expect(client.closed[0]?.reason).toBe(`This publishable key may not be used from https://elsewhere.example: it lists ${shop}`);
  });

  it('answers a stream request without a key 401 with the GraphQL error shape', async () => {
    const res = await fetch(`${at.http}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: availability, variables: vars() }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      errors: [{ message: 'This operation needs an API key: send "Authorization: Bearer <key>"', extensions: { code: 'UNAUTHENTICATED' } }],
    });
  });
});

describe('live documents meet the limits of POST /graphql', () => {
  const deep = `subscription($b: UUID!, $c: UUID!) {
    cartUpdated(brandId: $b, cartId: $c) { bookings { session { experience { uuid } } } }
  }`;

  it('refuses a subscription deeper than GRAPHQL_MAX_DEPTH before running it, over WebSocket', async () => {
    const client = wsClient(at.ws, { key: secret });
    const ended = await subscribe(client, deep, { b: brand.id, c: randomUUID() }).end();
    expect(ended.error).toEqual([
      {
        message: 'Query depth limit of 4 exceeded, found 5.',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_DEPTH', limit: 4 },
      },
    ]);
    expect(client.closed).toEqual([]);
  });

  it('refuses a subscription above GRAPHQL_MAX_COST with its cost', async () => {
    const client = wsClient(at.ws, { key: secret });
    const costly = 'subscription($b: UUID!, $c: UUID!) { cartUpdated(brandId: $b, cartId: $c) { bookings { session { uuid } } } }';
    const ended = await subscribe(client, costly, { b: brand.id, c: randomUUID() }).end();
    // The cart (1) and its bookings, as many as a cart may hold (50), each with its session (2).
    expect(ended.error).toEqual([
      {
        message: 'This operation costs 101, above the budget of 2: ask for smaller pages (first) or fewer nested objects.',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', reason: 'MAX_COST', limit: 2, cost: 101 },
      },
    ]);
  });

  it('refuses it over Server-Sent Events with 400', async () => {
    const res = await fetch(`${at.http}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ query: deep, variables: { b: brand.id, c: randomUUID() } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { extensions: unknown }[] }).errors[0]!.extensions).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      reason: 'MAX_DEPTH',
      limit: 4,
    });
  });

  it('sends queries and mutations back to POST /graphql', async () => {
    const client = wsClient(at.ws, { key: secret });
    const ended = await subscribe(client, '{ viewer { kind } }').end();
    expect(ended.error).toEqual([
      { message: 'Only subscriptions run over a live connection; send queries to POST /graphql.', extensions: { code: 'BAD_REQUEST' } },
    ]);
  });

  it('leaves GET /graphql to Apollo for plain HTTP', async () => {
    const res = await fetch(`${at.http}/graphql?query=${encodeURIComponent('{ viewer { kind } }')}`, {
      headers: { authorization: `Bearer ${secret}`, 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { viewer: { kind: 'BRAND' } } });
  });
});
