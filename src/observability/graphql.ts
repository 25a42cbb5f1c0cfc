/**
 * GraphQL's part of observability: an Apollo plugin that times and counts each operation and its
 * errors, and tells the HTTP request's access line which operation it carried (the request is found
 * through src/graphql/request-link.ts).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyRequest } from 'fastify';
import { requestOf } from '../graphql/request-link.ts';
import type { Metrics } from './metrics.ts';

export interface GraphQLObservation {
  /** As the client named it (logs only; metrics use the bounded label), null when anonymous. */
  operationName: string | null;
  operationType: string | null;
  /** The plugin counted this response's errors: the HTTP layer must not count them again. */
  errorsCounted: boolean;
}

const observations = new WeakMap<FastifyRequest, GraphQLObservation>();

export function graphqlObservation(request: FastifyRequest): GraphQLObservation | undefined {
  return observations.get(request);
}

function observe(context: object): GraphQLObservation {
  const fallback: GraphQLObservation = { operationName: null, operationType: null, errorsCounted: false };
  const request = requestOf(context);
  if (!request) return fallback;
  let observation = observations.get(request);
  if (!observation) {
    observation = fallback;
    observations.set(request, observation);
  }
  return observation;
}

export function graphqlMetricsPlugin(metrics: Metrics): ApolloServerPlugin<object> {
  return {
    async requestDidStart({ contextValue }) {
      const started = performance.now();
      const observation = observe(contextValue);
      let resolved = false;
      return {
        // Runs once the document parsed and validated: refused documents stay `unknown`.
        async didResolveOperation({ operationName, operation }) {
          resolved = true;
          observation.operationName = operationName;
          observation.operationType = operation?.operation ?? null;
        },
        async willSendResponse({ response }) {
          metrics.recordOperation({
            name: observation.operationName,
            type: resolved ? (observation.operationType ?? undefined) : undefined,
            seconds: (performance.now() - started) / 1000,
          });
          const body = response.body;
          const errors = body.kind === 'single' ? body.singleResult.errors : body.initialResult.errors;
          for (const error of errors ?? []) metrics.countError('graphql', error.extensions?.code);
          observation.errorsCounted = true;
        },
      };
    },
  };
}

/** An operation answered from the response cache: logged and counted like one that ran. */
export function observeReplayedOperation(
  metrics: Metrics,
  request: FastifyRequest,
  operation: { name: string | null; type: string },
  seconds: number,
): void {
  observations.set(request, { operationName: operation.name, operationType: operation.type, errorsCounted: true });
  metrics.recordOperation({ name: operation.name, type: operation.type, seconds });
}
