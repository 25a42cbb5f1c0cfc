/**
 * `Cache-Control` on every GraphQL answer. A catalogue query (cacheable.ts: brand settings, featured
 * listings, an experience, its reviews, hosts; no sessions) sent as GET with a publishable key, answered in full,
 * may be kept by browsers and CDNs for a short time: `public, max-age=<GRAPHQL_PUBLIC_MAX_AGE_SECONDS>`.
 * `public` is needed: a shared cache keeps no answer to a request carrying `Authorization` without it
 * (RFC 9111 §3.5). A publishable key is public by design (it sits in the shop's pages), and the answer is
 * the same for everyone who sends it. Everything else is `no-store`: POST (CDNs key on the URL only),
 * secret keys (partners' answers are theirs), mutations, other queries, and any answer with an error.
 * Sessions (`availability`, `Experience.sessions`) are never kept: their `remaining` changes with every
 * hold, and a shop refetching them after its hold must see it (the places are re-checked at checkout, so
 * a stale count would not oversell, but it would show places the visitor just took as still free).
 *
 * `Vary` names every request header the answer depends on: the key (`Authorization`), the brand header
 * (`Tessera-Brand-Id`), the negotiated media type (`Accept`) and `Origin` (a key's allowed origins, and
 * the CORS headers of the answer). Languages are arguments (`locale`, `language`), so part of the URL;
 * `Accept-Language` is not read.
 *
 * Apollo's cache-control plugin is off (server.ts): it wraps every field's resolution to collect hints
 * this schema does not give (without it an uncached featuredListings query takes about 30 % less CPU);
 * this decides once per document from its root fields.
 */
import type { ApolloServerPlugin, GraphQLRequestContextWillSendResponse } from '@apollo/server';
import type { FastifyInstance, onSendAsyncHookHandler } from 'fastify';
import { GRAPHQL_PATH } from '../http/error-answer.ts';
import { isCacheableOperation } from './cacheable.ts';
import type { GraphQLContext } from './context.ts';

/** Replaces the `Vary: Origin` @fastify/cors set (Apollo's headers replace Fastify's), so it names Origin too. */
export const PUBLIC_VARY = 'Accept, Authorization, Origin, Tessera-Brand-Id';

function isPublicAnswer(requestContext: GraphQLRequestContextWillSendResponse<GraphQLContext>): boolean {
  const { request, response, contextValue } = requestContext;
  if (request.http?.method !== 'GET' || !isCacheableOperation(requestContext)) return false;
  if (contextValue.principal?.kind !== 'publishable' || request.http.headers.has('tessera-secret-key')) return false;
  if (response.body.kind !== 'single' || response.body.singleResult.errors?.length) return false;
  return response.http.status === undefined || response.http.status === 200;
}

/** `maxAgeSeconds` 0: every answer is `no-store`. */
export function cacheControl(maxAgeSeconds: number): ApolloServerPlugin<GraphQLContext> {
  const publicAnswer = `public, max-age=${maxAgeSeconds}`;
  return {
    async requestDidStart() {
      return {
        async willSendResponse(requestContext) {
          const { headers } = requestContext.response.http;
          if (maxAgeSeconds > 0 && isPublicAnswer(requestContext)) {
            headers.set('cache-control', publicAnswer);
            headers.set('vary', PUBLIC_VARY);
          } else {
            headers.set('cache-control', 'no-store');
          }
        },
      };
    },
  };
}

/**
 * What Apollo answers without running any plugin (a CSRF refusal, a batch, a context that failed) has no
 * `Cache-Control` of its own: the GraphQL route's answers are `no-store` unless something said otherwise.
 * Call before the route is registered.
 */
export function installNoStoreDefault(app: FastifyInstance, path = GRAPHQL_PATH): void {
  const noStoreDefault: onSendAsyncHookHandler = async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  };
  app.addHook('onRoute', (route) => {
    if (route.url !== path) return;
    const existing = route.onSend;
    route.onSend = [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), noStoreDefault];
  });
}
