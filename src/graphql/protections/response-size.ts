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
    // A UTF-16 code unit is at most 3 bytes of UTF-8: most answers are measured without being read.
    let size: number;
    if (typeof payload === 'string') size = payload.length * 3 <= maxBytes ? 0 : Buffer.byteLength(payload);
    else if (Buffer.isBuffer(payload)) size = payload.length;
    else return payload;
    if (size <= maxBytes) return payload;
    request.log.warn({ size, limit: maxBytes }, 'GraphQL answer refused: above GRAPHQL_MAX_RESPONSE_BYTES');
    reply.code(400);
    reply.header('cache-control', 'no-store');
    return responseTooLarge(size, maxBytes);
  });
}
