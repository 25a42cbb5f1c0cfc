/**
 * docs/graphql.md's Apollo Client setup for live updates, run as written: a split link sends subscriptions
 * over GraphQLWsLink (graphql-ws) and the rest over HTTP; an update normalizes into the cache.
 */
import { randomUUID } from 'node:crypto';
import { ApolloClient, gql, HttpLink, InMemoryCache, split } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { listen, subscriptionsRunning, type Listening } from '../../support/live.ts';

const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id, {}, { priceTiers: [{ name: 'Adult', priceMinor: 5000 }], taxes: [] });
const session = await createSession(db, experience, { startLocal: '2026-12-05T09:00:00', capacity: 12 });

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2026-11-25T12:00:00.000Z') });
  at = await listen(t.app);
});

function apolloClient(key: string) {
  const http = new HttpLink({ uri: `${at.http}/graphql`, headers: { authorization: `Bearer ${key}` } });
  const wsClient = createClient({ url: at.ws, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` } });
  afterAll(() => wsClient.dispose());
  return new ApolloClient({
    cache: new InMemoryCache(),
    link: split(
      ({ query }) => {
        const definition = getMainDefinition(query);
        return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
      },
      new GraphQLWsLink(wsClient),
      http,
    ),
  });
}

const PLACES = gql`
  subscription Places($brandId: UUID!, $experienceId: UUID!, $from: LocalDate!, $to: LocalDate!) {
    sessionAvailability(brandId: $brandId, experienceId: $experienceId, from: $from, to: $to) {
      id
      remaining
    }
  }
`;
const AVAILABILITY = gql`
  query Availability($brandId: UUID!, $experienceId: UUID!, $from: LocalDate!, $to: LocalDate!) {
    availability(brandId: $brandId, experienceId: $experienceId, from: $from, to: $to) {
      id
      remaining
    }
  }
`;

describe('Apollo Client with GraphQLWsLink', () => {
  it('receives a hold made by another client, and its cache shows the new remaining', async () => {
    const client = apolloClient(secret);
    const variables = { brandId: brand.id, experienceId: experience.id, from: '2026-12-05', to: '2026-12-05' };
    const before = await client.query<{ availability: Array<{ id: string; remaining: number }> }>({ query: AVAILABILITY, variables });
    expect(before.data?.availability).toEqual([{ __typename: 'Session', id: expect.any(String), remaining: 12 }]);

    const updates: unknown[] = [];
    const received = new Promise<void>((resolve, reject) => {
      const subscription = client.subscribe({ query: PLACES, variables }).subscribe({
        next: (result) => {
          updates.push(result.data);
          subscription.unsubscribe();
          resolve();
        },
        error: reject,
      });
    });
    await subscriptionsRunning(t.app, 1);
    const res = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key: secret,
      body: {
        data: [
          {
            experienceId: experience.id,
            sessionTime: session.startLocal,
            participants: [{ firstName: 'Ana', lastName: 'Silva', emailAddress: 'ana@example.test', priceTierName: 'Adult' }],
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    await received;
    const id = before.data!.availability[0]!.id;
    expect(updates).toEqual([{ sessionAvailability: [{ __typename: 'Session', id, remaining: 11 }] }]);
    // The Session the query cached is the one the update normalized into.
    expect(client.readQuery({ query: AVAILABILITY, variables })).toEqual({ availability: [{ __typename: 'Session', id, remaining: 11 }] });
  });
});
