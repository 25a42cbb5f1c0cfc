import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { OVERLOADED_MESSAGE } from '../http/database-unavailable.ts';
import { writesInFlight } from '../http/write-admission.ts';
import type { GraphQLContext } from './context.ts';
import { requestOf } from './request-link.ts';

/**
 * Mutations take a place among the gateway's write requests in flight (src/http/write-admission.ts), or
 * are refused 503 OVERLOADED (with Retry-After, set as for every OVERLOADED answer in server.ts). Apollo
 * answers what a plugin throws 500 unless the error says otherwise, hence the GraphQLError.
 */
export function admitMutations(limit: number): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (operation?.operation !== 'mutation') return;
          const request = requestOf(contextValue);
          if (request && !request.admitWrite()) {
            request.log.info({ reason: writesInFlight(limit) }, 'write refused: overloaded');
            throw new GraphQLError(OVERLOADED_MESSAGE, { extensions: { code: 'OVERLOADED', http: { status: 503 } } });
          }
        },
      };
    },
  };
}
