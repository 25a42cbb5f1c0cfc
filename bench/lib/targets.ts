/**
 * What the bench times: each target is one request (or, for T6, the write mix) against one server.
 * Peers P1 (default Apollo Server) and P2 (Mercurius + graphql-jit) answer T1's and T3's GraphQL, and
 * so does Tessera without its response cache (T1u, T3u: no target of the issue, the engine's share);
 * T1v asks Tessera, cache on, with a variable that changes on every request, as varied traffic does;
 * L (bare node:http) answers T1's and T2's precomputed bytes.
 */
import { demoIds } from '../../src/db/demo/index.ts';
import { LISBON, LISBON_KEY } from './data.ts';
import {
  availabilityQuery,
  experienceQuery,
  featuredListingsByLocaleQuery,
  featuredListingsQuery,
  quoteMutation,
} from '../../fixtures/graphql/documents.ts';
import { quoteInput } from '../../fixtures/graphql/quote.ts';
import { bearer, graphqlRequest, type RequestSpec } from './requests.ts';

export type ServerName = 'tessera' | 'uncached' | 'apollo' | 'mercurius' | 'bare';

export interface Target {
  name: string;
  server: ServerName;
  /** The request; absent for the write mix. */
  request?: RequestSpec;
  /** What is counted per second. */
  unit: 'req/s' | 'bookings/s';
  what: string;
}

const { tagusSunsetSail } = demoIds.experiences;

/** A local date `days` from today (the demo sessions run 60 days from the day the bench builds its database). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export const requests = {
  featuredGraphql: graphqlRequest(LISBON_KEY, featuredListingsQuery),
  featuredByLocale: {
    ...graphqlRequest(LISBON_KEY, featuredListingsByLocaleQuery, { locale: 'en-x-r0' }),
    varyBody: (n: number) => JSON.stringify({ query: featuredListingsByLocaleQuery, variables: { locale: `en-x-r${n}` } }),
  },
  featuredRest: { method: 'GET', path: '/v3/listings/featured', headers: bearer(LISBON_KEY) },
  experienceGraphql: graphqlRequest(LISBON_KEY, experienceQuery, { brandId: LISBON, id: tagusSunsetSail }),
  experienceRest: { method: 'GET', path: `/v1/brands/${LISBON}/experiences/${tagusSunsetSail}`, headers: bearer(LISBON_KEY) },
  availability: graphqlRequest(LISBON_KEY, availabilityQuery, {
    brandId: LISBON,
    experienceId: tagusSunsetSail,
    from: day(1),
    to: day(30),
  }),
  quote: graphqlRequest(LISBON_KEY, quoteMutation, { brandId: LISBON, cartId: '00000000-0000-4000-8000-00000000b5e1', input: quoteInput }),
} satisfies Record<string, RequestSpec>;

/** In the order each round runs them: a target next to the peers it is compared with. */
export const targets: Target[] = [
  {
    name: 'T1',
    server: 'tessera',
    request: requests.featuredGraphql,
    unit: 'req/s',
    what: 'Tessera GraphQL featuredListings, every field',
  },
  {
    name: 'T1u',
    server: 'uncached',
    request: requests.featuredGraphql,
    unit: 'req/s',
    what: 'Tessera without its response cache, same query',
  },
  {
    name: 'T1v',
    server: 'tessera',
    request: requests.featuredByLocale,
    unit: 'req/s',
    what: 'Tessera, same query with a $locale changed on every request (the cache never answers)',
  },
  { name: 'P1-T1', server: 'apollo', request: requests.featuredGraphql, unit: 'req/s', what: 'default Apollo Server 5, same query' },
  { name: 'P2-T1', server: 'mercurius', request: requests.featuredGraphql, unit: 'req/s', what: 'Mercurius + graphql-jit, same query' },
  { name: 'L-T1', server: 'bare', request: requests.featuredGraphql, unit: 'req/s', what: "bare node:http, T1's bytes" },
  { name: 'T2', server: 'tessera', request: requests.featuredRest, unit: 'req/s', what: 'Tessera REST GET /v3/listings/featured' },
  { name: 'L-T2', server: 'bare', request: requests.featuredRest, unit: 'req/s', what: "bare node:http, T2's bytes" },
  {
    name: 'T3',
    server: 'tessera',
    request: requests.experienceGraphql,
    unit: 'req/s',
    what: 'Tessera GraphQL experience + questions, prices, 20 reviews',
  },
  {
    name: 'T3u',
    server: 'uncached',
    request: requests.experienceGraphql,
    unit: 'req/s',
    what: 'Tessera without its response cache, same query',
  },
  { name: 'P1-T3', server: 'apollo', request: requests.experienceGraphql, unit: 'req/s', what: 'default Apollo Server 5, same query' },
  { name: 'P2-T3', server: 'mercurius', request: requests.experienceGraphql, unit: 'req/s', what: 'Mercurius + graphql-jit, same query' },
  { name: 'T4', server: 'tessera', request: requests.experienceRest, unit: 'req/s', what: 'Tessera REST GET experience' },
  { name: 'T5', server: 'tessera', request: requests.quote, unit: 'req/s', what: 'Tessera GraphQL createPaymentIntent quote, 2 items' },
  { name: 'P2-T5', server: 'mercurius', request: requests.quote, unit: 'req/s', what: 'Mercurius + graphql-jit, same quote' },
  {
    name: 'T7',
    server: 'tessera',
    request: requests.availability,
    unit: 'req/s',
    what: 'Tessera GraphQL availability, a month of sessions',
  },
  { name: 'P2-T7', server: 'mercurius', request: requests.availability, unit: 'req/s', what: 'Mercurius + graphql-jit, same availability' },
  { name: 'T6', server: 'tessera', unit: 'bookings/s', what: 'hold, confirm, cancel a guest, refund part' },
];
