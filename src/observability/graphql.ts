/**
 * GraphQL's part of observability: an Apollo plugin that times and counts each operation and its
 * errors, and tells the HTTP request's access line which operation it carried. Apollo gives plugins
 * the context, not the Fastify request: `linkContext` ties the two together. Apollo hands each operation
 * a shallow copy of the context, so the link is a (symbol-keyed) property the copy keeps, not the object's identity.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.ts';

export interface GraphQLObservation {
  /** As the client named it (logs only; metrics use the bounded label), null when anonymous. */
  operationName: string | null;
  operationType: string | null;
  /** The plugin counted this response's errors: the HTTP layer must not count them again. */
  errorsCounted: boolean;
}

const REQUEST = Symbol('fastify request');
const observations = new WeakMap<FastifyRequest, GraphQLObservation>();

/** Wraps the Apollo context function so the plugin below can find the Fastify request of a context. */
export function linkContext<C extends object>(build: (request: FastifyRequest, reply: FastifyReply) => Promise<C>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<C> => {
    const context = await build(request, reply);
    return Object.assign(context, { [REQUEST]: request });
  };
}

export function graphqlObservation(request: FastifyRequest): GraphQLObservation | undefined {
  return observations.get(request);
}

function observe(context: object): GraphQLObservation {
  const fallback: GraphQLObservation = { operationName: null, operationType: null, errorsCounted: false };
  const request = (context as { [REQUEST]?: FastifyRequest })[REQUEST];
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
