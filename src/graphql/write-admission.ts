import type { ApolloServerPlugin } from '@apollo/server';
import { turnedAway } from '../http/database-unavailable.ts';
import { writesInFlight } from '../http/write-admission.ts';
import type { GraphQLContext } from './context.ts';
import { requestOf } from './request-link.ts';
import { turnedAwayError } from './turned-away.ts';

/**
 * Mutations take a place among the gateway's write requests in flight (src/http/write-admission.ts), or
 * are refused 503 OVERLOADED with Retry-After.
 */
export function admitMutations(limit: number): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (operation?.operation !== 'mutation') return;
          const request = requestOf(contextValue);
          if (request && !request.admitWrite()) {
            turnedAway.OVERLOADED.log(request.log, new Error(writesInFlight(limit)));
            throw turnedAwayError(turnedAway.OVERLOADED);
          }
        },
      };
    },
  };
}
