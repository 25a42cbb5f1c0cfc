import { ApolloClient, HttpLink } from '@apollo/client';
import { createCache } from './cache.ts';

export interface Connection {
  /** The gateway, e.g. `http://127.0.0.1:4000`. */
  baseUrl: string;
  /** The brand's publishable key (`pk_...`), sent with every operation. */
  publishableKey: string;
  /**
   * The page's origin, one of those the publishable key lists. A browser sends it by itself; a client
   * outside a browser (this example, run by a test) says it.
   */
  origin?: string;
  /** The fetch to send requests with (the platform's by default; a test passes one that records them). */
  fetch?: typeof fetch;
}

/** An Apollo Client for a brand's storefront: the publishable key on every request, Tessera's cache policies. */
export function createClient(connection: Connection): ApolloClient {
  return new ApolloClient({
    cache: createCache(),
    link: new HttpLink({
      uri: new URL('/graphql', connection.baseUrl).toString(),
      ...(connection.fetch ? { fetch: connection.fetch } : {}),
      headers: {
        authorization: `Bearer ${connection.publishableKey}`,
        ...(connection.origin ? { origin: connection.origin } : {}),
      },
    }),
  });
}

/** The context of an operation a publishable key may not run (reading or cancelling bookings): a secret key instead. */
export const withSecretKey = (secretKey: string) => ({ headers: { authorization: `Bearer ${secretKey}` } });
