/**
 * Subscriptions run over the live transports only (src/graphql/live): sent to POST /graphql, Apollo would
 * run one as a query and answer `{"data":{"sessionAvailability":null}}` with a 200, which a client cannot
 * tell from "nothing to report". It is refused before it runs (400 BAD_REQUEST), saying where to
 * subscribe. GET /graphql refuses every operation but a query itself (405).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';

export const SUBSCRIPTION_OVER_HTTP_MESSAGE =
  'Subscriptions do not run over POST /graphql: subscribe over a WebSocket to /graphql (the graphql-transport-ws ' +
  'protocol of graphql-ws), or over Server-Sent Events with POST /graphql/stream (graphql-sse).';

export function subscriptionsOverLiveOnly<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation !== 'subscription') return;
          throw new GraphQLError(SUBSCRIPTION_OVER_HTTP_MESSAGE, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
        },
      };
    },
  };
}
