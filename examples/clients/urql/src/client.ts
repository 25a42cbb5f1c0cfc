import { Client, fetchExchange } from '@urql/core';

export interface Connection {
  /** The gateway, e.g. `http://127.0.0.1:4000`. */
  baseUrl: string;
  /** The brand's publishable key (`pk_...`). */
  publishableKey: string;
  /** The page's origin, one the key lists (a browser sends it by itself). */
  origin?: string;
  /** The fetch to send requests with (the platform's by default; a test passes one that records them). */
  fetch?: typeof fetch;
}

/**
 * An urql client as a storefront sets one up: queries over GET (cacheable by the browser and a CDN),
 * mutations over POST, the publishable key in `Authorization` on both.
 */
export function createClient(connection: Connection): Client {
  return new Client({
    url: new URL('/graphql', connection.baseUrl).toString(),
    exchanges: [fetchExchange],
    ...(connection.fetch ? { fetch: connection.fetch } : {}),
    // urql's default, stated: queries as GET unless the URL would pass 2048 characters.
    preferGetMethod: true,
    fetchOptions: {
      headers: {
        authorization: `Bearer ${connection.publishableKey}`,
        ...(connection.origin ? { origin: connection.origin } : {}),
      },
    },
  });
}
