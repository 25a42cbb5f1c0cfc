/**
 * A small partner subgraph, as another team would run it next to Tessera in a supergraph: badges it gives
 * experiences, loyalty points it keeps per booking, a guide per session, and its own picks. It extends
 * Tessera's Experience, Booking and Session by their `uuid` key, and listens on 127.0.0.1 (Apollo Server
 * with @apollo/subgraph). The federation tests compose it with Tessera's subgraph SDL.
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { demoIds } from '../../src/db/demo/ids.ts';
import type { TestApp } from './app.ts';

export const LISBON = demoIds.brands.lisbon;
export const TRAM = demoIds.experiences.tram28PhotoWalk;
export const FADO = demoIds.experiences.alfamaFadoNight;

export const partnerSdl = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])

  type Experience @key(fields: "uuid") {
    uuid: UUID!
    "The partner's badge for the experience."
    partnerBadge: String
  }

  type Booking @key(fields: "uuid") {
    uuid: UUID!
    "Points the guest earned with the booking."
    loyaltyPoints: Int!
  }

  type Session @key(fields: "uuid") {
    uuid: UUID!
    "The guide the partner sends to the session."
    guide: String!
  }

  "${'A UUID (RFC 4122), e.g. `6f1c0a52-3d4e-4c1a-9b7e-0b0000000001`.'}"
  scalar UUID @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc4122")

  type Query {
    "Experiences the partner recommends."
    partnerPicks: [Experience!]!
    "The bookings with the most points."
    loyaltyLeaders: [Booking!]!
  }
`;

export const badges = new Map([
  [TRAM, 'Editor’s pick'],
  [FADO, 'Local favourite'],
]);

/** The guide the partner names for a session: from its id, so a test knows it without asking. */
export const guideOf = (sessionUuid: string) => `Guide ${sessionUuid.slice(0, 8)}`;

export interface LisbonBooking {
  uuid: string;
  confirmationCode: string;
  experience: { uuid: string; title: string };
}

export interface PartnerSubgraph {
  url: string;
  /** Points per Lisbon booking, as a loyalty service stores them (filled from Tessera by `lisbonBookings`). */
  points: Map<string, number>;
  stop(): Promise<void>;
}

export async function startPartnerSubgraph(): Promise<PartnerSubgraph> {
  const points = new Map<string, number>();
  const resolvers = {
    Experience: {
      __resolveReference: (ref: { uuid: string }) => ({ uuid: ref.uuid }),
      partnerBadge: (experience: { uuid: string }) => badges.get(experience.uuid) ?? null,
    },
    Booking: {
      __resolveReference: (ref: { uuid: string }) => ({ uuid: ref.uuid }),
      loyaltyPoints: (booking: { uuid: string }) => points.get(booking.uuid) ?? 0,
    },
    Session: {
      __resolveReference: (ref: { uuid: string }) => ({ uuid: ref.uuid }),
      guide: (session: { uuid: string }) => guideOf(session.uuid),
    },
    Query: {
      partnerPicks: () => [...badges.keys()].map((uuid) => ({ uuid })),
      loyaltyLeaders: () => [...points.keys()].map((uuid) => ({ uuid })),
    },
  };
  const server = new ApolloServer({
    schema: buildSubgraphSchema({ typeDefs: parse(partnerSdl), resolvers: resolvers as never }),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
  return { url, points, stop: () => server.stop() };
}

/** Lisbon's first four bookings as Tessera lists them, each given 100, 200, 300 and 400 points by the partner. */
export async function lisbonBookings(tessera: TestApp, partner: PartnerSubgraph): Promise<LisbonBooking[]> {
  const own = await tessera.gql(
    `query($b: UUID!) { bookings(brandId: $b, first: 4) { edges { node { uuid confirmationCode experience { uuid title } } } } }`,
    { b: LISBON },
    { key: 'sk_test_lisbon_demo' },
  );
  const bookings = own.body.data.bookings.edges.map((e: { node: LisbonBooking }) => e.node) as LisbonBooking[];
  bookings.forEach((b, i) => partner.points.set(b.uuid, 100 * (i + 1)));
  return bookings;
}
