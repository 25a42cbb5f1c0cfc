/**
 * The ceiling on a query's answer: one whose serialized body is above `maxResponseBytes` is refused with
 * RESPONSE_TOO_LARGE (HTTP 400) instead of being sent. The cost budget (cost.ts) refuses most large answers
 * before anything runs; its list bounds are declared, not measured, so this is the backstop. It checks the
 * body Apollo has already serialized (a Fastify onSend hook: no second serialization), before the response
 * cache and idempotency keep it, so a refused answer is never replayed either. Mutations are left alone: their
 * writes happened, and their answer (a payment intent's secret, a webhook endpoint's) must not be lost.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestOf } from '../request-link.ts';

/** HTTP requests that carry a query (not a mutation), marked by the Apollo plugin once the operation is known. */
const queries = new WeakSet<FastifyRequest>();

/** Marks each query's HTTP request, for the hook below. */
export function queryMarker(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          const request = requestOf(contextValue as object);
          if (operation?.operation === 'query' && request) queries.add(request);
        },
      };
    },
  };
}

/** The body sent in place of an answer above the ceiling. */
export function responseTooLarge(size: number, maxBytes: number): string {
  return JSON.stringify({
    errors: [
      {
        message: `The answer is ${size} bytes, above the limit of ${maxBytes}: ask for less (smaller pages, shorter date ranges, fewer aliases).`,
        extensions: { code: 'RESPONSE_TOO_LARGE', limit: maxBytes, size },
      },
    ],
  });
}

/** Installs the ceiling; before the hooks that keep answers (idempotency, response cache), which run in order. */
export function installResponseCeiling(app: FastifyInstance, maxBytes: number): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!queries.has(request)) return payload;
    // The answer leaves as bytes, measured once. Sent as a string, it would be copied twice more: Apollo's
    // JSON is a string of parts (JSON.stringify builds it so, then adds a newline), which Fastify flattens to
    // count its bytes and Node again to write it after the headers (a query's answer: 7 % of its allocations).
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (!Buffer.isBuffer(body)) return payload;
    const size = body.length;
    if (size <= maxBytes) return body;
    request.log.warn({ size, limit: maxBytes }, 'GraphQL answer refused: above GRAPHQL_MAX_RESPONSE_BYTES');
    reply.code(400);
    reply.header('cache-control', 'no-store');
    return responseTooLarge(size, maxBytes);
  });
}
