/**
 * Tessera behind Hive Gateway, as docs/supergraph.md ("Hive Gateway") tells a team to run it: Tessera's subgraph
 * SDL composed with the partner subgraph (test/support/partner-subgraph.ts) by
 * @theguild/federation-composition, and Hive Gateway's runtime (@graphql-hive/gateway-runtime) with
 * examples/hive-gateway/gateway.config.ts, served on node:http with graphql-ws beside it as the
 * `@graphql-hive/gateway` CLI serves it. Clients call the gateway only: queries over HTTP, subscriptions over
 * WebSocket and Server-Sent Events, each answer joining both subgraphs.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayRuntime, getGraphQLWSOptions, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { composeServices } from '@theguild/federation-composition';
import { normalizeNodeRequest } from '@whatwg-node/server';
import { parse } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { gatewayConfig } from '../../../examples/hive-gateway/gateway.config.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb } from '../../support/db.ts';
import { connected, subscribe, subscriptionsRunning, wsClient, type Subscription } from '../../support/live.ts';
import {
  LISBON,
  TRAM,
  guideOf,
  lisbonBookings as listLisbonBookings,
  partnerSdl,
  startPartnerSubgraph,
  type LisbonBooking,
} from '../../support/partner-subgraph.ts';

const SECRET = 'sk_test_lisbon_demo';
const PUBLISHABLE = 'pk_test_lisbon_demo';
const PAGE_ORIGIN = 'http://localhost:5173';
const ROUTER_TOKEN = 'a3f1c9e07b5d42e8a6c1f0d9b87e5a4c3d2e1f00a9b8c7d6e5f4a3b2c1d0e9f8';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
/** An experience of Lisbon's without custom questions, whose sessions the subscriptions watch. */
const { experience } = await createExperience(db, LISBON, {}, { priceTiers: [{ name: 'Adult', priceMinor: 5000 }], taxes: [] });

let tessera: TestApp;
let lisbonBookings: LisbonBooking[];
let supergraphSdl: string;
let gateway: { http: string; ws: string };
/** The Origin of each WebSocket upgrade reaching Tessera: the gateway's connections for subscriptions. */
const upgradeOrigins: Array<string | undefined> = [];
const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

/** Composes the two subgraphs as `hive dev` does; any error fails. */
function compose(urls: { tessera: string; partner: string }, tesseraSdl: string): string {
  const result = composeServices([
    { name: 'tessera', url: urls.tessera, typeDefs: parse(tesseraSdl) },
    { name: 'partner', url: urls.partner, typeDefs: parse(partnerSdl) },
  ]);
  expect(result.errors?.map((e) => e.message) ?? []).toEqual([]);
  return result.supergraphSdl!;
}

/** Hive Gateway's runtime with the documented configuration, on 127.0.0.1, WebSocket included (as the CLI's node:http server). */
async function startGateway(config: typeof gatewayConfig): Promise<{ http: string; ws: string }> {
  const runtime: GatewayRuntime = createGatewayRuntime({ ...config, supergraph: supergraphSdl, logging: false });
  const server: Server = createServer((req, res) => void runtime(req, res));
  const wsServer = new WebSocketServer({ path: runtime.graphqlEndpoint, server });
  const ws = useServer(
    getGraphQLWSOptions<Record<string, unknown>, Extra>(runtime, (ctx) => ({
      req: ctx.extra.request,
      socket: ctx.extra.socket,
      request: normalizeNodeRequest(ctx.extra.request, runtime.fetchAPI),
    })),
    wsServer,
  );
  // The supergraph loaded before the first client, as the CLI loads it before it listens: a WebSocket
  // subscription as the runtime's very first operation is answered "Expected null to be a GraphQL schema.".
  await runtime.getSchema();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(async () => {
    for (const client of wsServer.clients) client.terminate();
    await ws.dispose();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await runtime.dispose();
  });
  const { port } = server.address() as AddressInfo;
  return { http: `http://127.0.0.1:${port}/graphql`, ws: `ws://127.0.0.1:${port}/graphql` };
}

beforeAll(async () => {
  // The token the configuration sends Tessera (GRAPHQL_ROUTER_TOKEN), from the gateway's environment.
  process.env.TESSERA_ROUTER_TOKEN = ROUTER_TOKEN;
  stops.push(async () => delete process.env.TESSERA_ROUTER_TOKEN);
  // At CHECKOUT_NOW: the sessions it books (March 2027) are ahead whatever day the suite runs.
  tessera = await startApp(db, { now: () => new Date(CHECKOUT_NOW), graphql: { routerToken: ROUTER_TOKEN } });
  const tesseraUrl = `${await tessera.app.listen({ port: 0, host: '127.0.0.1' })}/graphql`;
  tessera.app.server.on('upgrade', (request: IncomingMessage) => upgradeOrigins.push(request.headers.origin));
  const partner = await startPartnerSubgraph();
  stops.push(() => partner.stop());
  const tesseraSdl = (await tessera.gql('{ _service { sdl } }')).body.data._service.sdl;
  supergraphSdl = compose({ tessera: tesseraUrl, partner: partner.url }, tesseraSdl);
  gateway = await startGateway(gatewayConfig);
  lisbonBookings = await listLisbonBookings(tessera, partner);
  expect(lisbonBookings).toHaveLength(4);
});

/** A query to the gateway over HTTP, as a client sends it. */
async function query(text: string, variables: Record<string, unknown>, headers: Record<string, string>) {
  const response = await fetch(gateway.http, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query: text, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
}

let day = 0;
/** A session of its own for each test, in March 2027. */
async function newSession(capacity: number) {
  day += 1;
  const date = `2027-03-${String(day).padStart(2, '0')}`;
  return { date, session: await createSession(db, experience, { startLocal: `${date}T09:00:00`, capacity }) };
}

/** Another client's checkout on Tessera over REST: `people` places held until paid. */
async function checkout(startLocal: string, people: number) {
  const participants = Array.from({ length: people }, (_, i) => ({
    firstName: `Guest${i + 1}`,
    lastName: 'Silva',
    priceTierName: 'Adult',
  }));
  participants[0] = { ...participants[0]!, emailAddress: 'ana@example.test' } as (typeof participants)[0];
  const res = await tessera.rest('POST', `/v1/brands/${LISBON}/carts/${randomUUID()}/payment_intents`, {
    key: SECRET,
    body: { data: [{ experienceId: experience.id, sessionTime: startLocal, participants }] },
  });
  expect(res.status).toBe(201);
}

const AVAILABILITY = `subscription($b: UUID!, $e: UUID!, $d: LocalDate!) {
  sessionAvailability(brandId: $b, experienceId: $e, from: $d, to: $d) { uuid capacity remaining guide }
}`;

/** Subscribes through the gateway and waits until Tessera runs the watch, so a change made next reaches it. */
async function watch(open: () => Subscription): Promise<Subscription> {
  const running = tessera.app.liveConnections.subscriptions;
  const live = open();
  try {
    await subscriptionsRunning(tessera.app, running + 1);
  } catch (error) {
    const answer = await live.next(100).catch((e: Error) => e.message);
    throw new Error(`${(error as Error).message}; the gateway answered ${JSON.stringify(answer)}`);
  }
  return live;
}

describe('the configuration', () => {
  it('is the gateway.config.ts docs/supergraph.md shows, word for word', () => {
    const docs = readFileSync(new URL('../../../docs/supergraph.md', import.meta.url), 'utf8');
    const config = readFileSync(new URL('../../../examples/hive-gateway/gateway.config.ts', import.meta.url), 'utf8');
    expect(docs).toContain('```ts\n' + config + '```');
  });
});

describe('queries through Hive Gateway', () => {
  it('answers a field from each subgraph on one Experience, and Tessera’s bookings with the partner’s points', async () => {
    const auth = { authorization: `Bearer ${SECRET}` };
    expect(
      await query(
        `query($b: UUID!, $id: UUID!) { experience(brandId: $b, id: $id) { uuid title partnerBadge } }`,
        { b: LISBON, id: TRAM },
        auth,
      ),
    ).toEqual({ status: 200, body: { data: { experience: { uuid: TRAM, title: 'Tram 28 Photo Walk', partnerBadge: 'Editor’s pick' } } } });
    const bookings = await query(
      `query($b: UUID!) { bookings(brandId: $b, first: 4) { edges { node { uuid confirmationCode loyaltyPoints } } } }`,
      { b: LISBON },
      auth,
    );
    expect(bookings.body).toEqual({
      data: {
        bookings: {
          edges: lisbonBookings.map((b, i) => ({
            node: { uuid: b.uuid, confirmationCode: b.confirmationCode, loyaltyPoints: 100 * (i + 1) },
          })),
        },
      },
    });
  });

  it('refuses a publishable key what Tessera refuses it, with Tessera’s code, and answers it the catalogue', async () => {
    const page = { authorization: `Bearer ${PUBLISHABLE}`, origin: PAGE_ORIGIN };
    const refused = await query(
      `query($b: UUID!) { bookings(brandId: $b, first: 1) { edges { node { uuid loyaltyPoints } } } }`,
      { b: LISBON },
      page,
    );
    expect(refused).toEqual({
      status: 200,
      body: {
        data: { bookings: null },
        errors: [
          {
            message: 'A publishable key may not use bookings: use a secret key (sk_...) from a server',
            path: ['bookings'],
            extensions: { keyKind: 'publishable', code: 'FORBIDDEN', serviceName: 'tessera' },
          },
        ],
      },
    });
    const catalogue = await query(
      `query($b: UUID!, $id: UUID!) { experience(brandId: $b, id: $id) { title partnerBadge } }`,
      { b: LISBON, id: TRAM },
      page,
    );
    expect(catalogue.body).toEqual({ data: { experience: { title: 'Tram 28 Photo Walk', partnerBadge: 'Editor’s pick' } } });
  });
});

describe('subscriptions through Hive Gateway', () => {
  it('delivers sessionAvailability over WebSocket with the partner’s guide on each session', async () => {
    const { date, session } = await newSession(10);
    const client = wsClient(gateway.ws, { key: SECRET, lazy: false });
    await connected(client);
    const live = await watch(() => subscribe(client, AVAILABILITY, { b: LISBON, e: experience.id, d: date }));
    await checkout(session.startLocal, 3);
    expect(await live.next()).toEqual({
      data: { sessionAvailability: [{ uuid: session.id, capacity: 10, remaining: 7, guide: guideOf(session.id) }] },
    });
  });

  it('delivers it over Server-Sent Events the same way', async () => {
    const { date, session } = await newSession(6);
    const client = createSseClient({ url: gateway.http, retryAttempts: 0, headers: { authorization: `Bearer ${SECRET}` } });
    stops.push(async () => client.dispose());
    const live = await watch(() => subscribe(client, AVAILABILITY, { b: LISBON, e: experience.id, d: date }));
    await checkout(session.startLocal, 2);
    expect(await live.next()).toEqual({
      data: { sessionAvailability: [{ uuid: session.id, capacity: 6, remaining: 4, guide: guideOf(session.id) }] },
    });
  });

  it('delivers it to a shop page’s publishable key, the gateway’s connection to Tessera carrying the page’s Origin', async () => {
    const { date, session } = await newSession(10);
    const client = wsClient(gateway.ws, { key: PUBLISHABLE, headers: { origin: PAGE_ORIGIN }, lazy: false });
    await connected(client);
    const live = await watch(() => subscribe(client, AVAILABILITY, { b: LISBON, e: experience.id, d: date }));
    expect(upgradeOrigins).toContain(PAGE_ORIGIN);
    await checkout(session.startLocal, 3);
    // A publishable key is shown what its holds may still take: the brand's publishable share (50 % of 10).
    expect(await live.next()).toEqual({
      data: { sessionAvailability: [{ uuid: session.id, capacity: 10, remaining: 5, guide: guideOf(session.id) }] },
    });
  });

  it('runs nothing for that key from a page on another origin, as Tessera refuses it directly', async () => {
    const { date, session } = await newSession(10);
    const client = wsClient(gateway.ws, { key: PUBLISHABLE, headers: { origin: 'https://other.example' }, lazy: false });
    await connected(client);
    const running = tessera.app.liveConnections.subscriptions;
    const live = subscribe(client, AVAILABILITY, { b: LISBON, e: experience.id, d: date });
    await vi.waitFor(() => expect(upgradeOrigins).toContain('https://other.example'), { timeout: 5_000 });
    await checkout(session.startLocal, 3);
    // Tessera closed the gateway's connection (4403): no watch runs, and no update comes.
    await expect(live.next(500)).rejects.toThrow('no result within 500 ms');
    expect(tessera.app.liveConnections.subscriptions).toBe(running);
  });
});
