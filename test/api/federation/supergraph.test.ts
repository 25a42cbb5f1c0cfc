/**
 * Tessera in a supergraph, as another team would run it: its published subgraph SDL composed with a small
 * partner subgraph that extends Experience, Booking and Session by their keys (test/support/partner-subgraph.ts;
 * @apollo/composition), and @apollo/gateway (hosted by Apollo Server 5, the composed supergraph given statically) querying both over
 * HTTP, the caller's Authorization forwarded to Tessera as a router forwards it.
 */
import { ApolloServer } from '@apollo/server';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import {
  FADO,
  LISBON,
  TRAM,
  badges,
  lisbonBookings as listLisbonBookings,
  partnerSdl,
  startPartnerSubgraph,
  type LisbonBooking,
} from '../../support/partner-subgraph.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);

let lisbonBookings: LisbonBooking[];
let tessera: TestApp;
let tesseraSdl: string;
let supergraphSdl: string;
let gateway: ApolloServer<{ authorization?: string }>;
const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

/** Composes the two subgraphs; any error or hint fails (the hints are listed in the message). */
function compose(urls: { tessera: string; partner: string }): string {
  const result = composeServices([
    { name: 'tessera', url: urls.tessera, typeDefs: parse(tesseraSdl) },
    { name: 'partner', url: urls.partner, typeDefs: parse(partnerSdl) },
  ]);
  expect(result.errors?.map((e) => e.message) ?? []).toEqual([]);
  expect(result.hints?.map((h) => `${h.definition.code}: ${h.message}`)).toEqual([]);
  return result.supergraphSdl!;
}

beforeAll(async () => {
  tessera = await startApp(db);
  const tesseraUrl = `${await tessera.app.listen({ port: 0, host: '127.0.0.1' })}/graphql`;
  const partner = await startPartnerSubgraph();
  stops.push(() => partner.stop());
  tesseraSdl = (await tessera.gql('{ _service { sdl } }')).body.data._service.sdl;
  supergraphSdl = compose({ tessera: tesseraUrl, partner: partner.url });
  gateway = new ApolloServer<{ authorization?: string }>({
    gateway: new ApolloGateway({
      supergraphSdl,
      // The caller's key, forwarded to every subgraph as a router's header propagation does.
      buildService: ({ url }) =>
        new RemoteGraphQLDataSource<{ authorization?: string }>({
          url,
          willSendRequest({ request, context }) {
            if (context.authorization) request.http?.headers.set('authorization', context.authorization);
          },
        }),
    }) as never,
  });
  await gateway.start();
  stops.push(() => gateway.stop());
  lisbonBookings = await listLisbonBookings(tessera, partner);
  expect(lisbonBookings).toHaveLength(4);
});

async function through(query: string, variables: Record<string, unknown>, key: string) {
  const response = await gateway.executeOperation({ query, variables }, { contextValue: { authorization: `Bearer ${key}` } });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  return response.body.singleResult as {
    data?: Record<string, any> | null;
    errors?: Array<{ message: string; path?: unknown; extensions?: any }>;
  };
}

describe('composition', () => {
  it('composes Tessera’s subgraph with a subgraph extending Experience, Booking and Session, without errors or hints', () => {
    expect(supergraphSdl).toContain('@join__type(graph: TESSERA, key: "uuid contentLanguage")');
    expect(supergraphSdl).toMatch(/type Booking implements Node\s+@join__implements\(graph: TESSERA, interface: "Node"\)/);
  });
});

describe('the gateway', () => {
  it('answers a field from each subgraph on one Experience', async () => {
    const result = await through(
      `query($b: UUID!, $id: UUID!) { experience(brandId: $b, id: $id) { uuid title partnerBadge } }`,
      { b: LISBON, id: TRAM },
      'sk_test_lisbon_demo',
    );
    expect(result).toEqual({ data: { experience: { uuid: TRAM, title: 'Tram 28 Photo Walk', partnerBadge: 'Editor’s pick' } } });
  });

  it('answers Tessera’s fields on the partner’s own list of experiences', async () => {
    const result = await through(`{ partnerPicks { uuid partnerBadge title contentLanguage } }`, {}, 'sk_test_lisbon_demo');
    expect(result).toEqual({
      data: {
        partnerPicks: [
          { uuid: TRAM, partnerBadge: 'Editor’s pick', title: 'Tram 28 Photo Walk', contentLanguage: 'en' },
          { uuid: FADO, partnerBadge: 'Local favourite', title: 'Alfama Fado Night', contentLanguage: 'en' },
        ],
      },
    });
  });

  it('crosses a booking list from Tessera to the partner and back', async () => {
    const result = await through(
      `query($b: UUID!) { bookings(brandId: $b, first: 4) { edges { node { uuid confirmationCode loyaltyPoints experience { title partnerBadge } } } } }`,
      { b: LISBON },
      'sk_test_lisbon_demo',
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.bookings.edges.map((e: { node: unknown }) => e.node)).toEqual(
      lisbonBookings.map((b, i) => ({
        uuid: b.uuid,
        confirmationCode: b.confirmationCode,
        loyaltyPoints: 100 * (i + 1),
        experience: { title: b.experience.title, partnerBadge: badges.get(b.experience.uuid) ?? null },
      })),
    );
    const leaders = await through(`{ loyaltyLeaders { uuid loyaltyPoints confirmationCode } }`, {}, 'sk_test_lisbon_demo');
    expect(leaders).toEqual({
      data: {
        loyaltyLeaders: lisbonBookings.map((b, i) => ({
          uuid: b.uuid,
          loyaltyPoints: 100 * (i + 1),
          confirmationCode: b.confirmationCode,
        })),
      },
    });
  });

  it('gives another brand’s key nothing of Lisbon’s: Tessera’s entities are null with NOT_FOUND', async () => {
    const notFound = (type: string, uuid: string, path: unknown[]) => ({
      message: `${type} "${uuid}" was not found`,
      path,
      extensions: { field: 'uuid', code: 'NOT_FOUND', serviceName: 'tessera' },
    });
    // The partner's lists are of non-null items: a null entity nulls the whole answer, as GraphQL says.
    const leaders = await through(`{ loyaltyLeaders { uuid loyaltyPoints confirmationCode } }`, {}, 'sk_test_tokyo_demo');
    expect(leaders).toEqual({ data: null, errors: lisbonBookings.map((b, i) => notFound('Booking', b.uuid, ['loyaltyLeaders', i])) });
    const picks = await through(`{ partnerPicks { uuid partnerBadge title } }`, {}, 'sk_test_tokyo_demo');
    expect(picks).toEqual({
      data: null,
      errors: [notFound('Experience', TRAM, ['partnerPicks', 0]), notFound('Experience', FADO, ['partnerPicks', 1])],
    });
    const own = await through(
      `query($b: UUID!) { experience(brandId: $b, id: "${TRAM}") { title partnerBadge } }`,
      { b: LISBON },
      'sk_test_tokyo_demo',
    );
    expect(own.data).toEqual({ experience: null });
    expect(own.errors!.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });
});
