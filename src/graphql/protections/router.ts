/**
 * The supergraph router in front of Tessera (docs/supergraph.md), recognised by the
 * shared secret GRAPHQL_ROUTER_TOKEN it sends in the `Tessera-Router-Token` header. A router plans its own
 * operations for Tessera from what its clients ask, so they cannot be listed in a trusted documents
 * manifest: the router enforces its clients' persisted documents, and Tessera runs the router's operations
 * (and answers `_service { sdl }` with introspection off). Nothing else changes for it: the caller's key
 * still comes from the forwarded `Authorization`, and every limit (size, tokens, depth, aliases, cost) applies.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, visit, type DocumentNode } from 'graphql';
import { refusal } from './refusals.ts';

export const ROUTER_TOKEN_HEADER = 'tessera-router-token';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the header holds the router's token (compared in constant time); never, when none is configured. */
export function isRouter(header: string | string[] | null | undefined, token: string | null): boolean {
  if (token === null || typeof header !== 'string') return false;
  return timingSafeEqual(digest(header), digest(token));
}

/** Whether the document asks for `_service` (which validation admits at the root only). */
function asksForService(document: DocumentNode): boolean {
  let found = askingForService.get(document);
  if (found === undefined) {
    found = walkForService(document);
    askingForService.set(document, found);
  }
  return found;
}

/** Per parsed document (Apollo reuses one per query text): the walk runs once. */
const askingForService = new WeakMap<DocumentNode, boolean>();

function walkForService(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.FIELD]: (node) => {
      if (node.name.value === '_service') found = true;
    },
  });
  return found;
}

/**
 * `_service { sdl }` prints the whole schema: with introspection off it is the router's alone. Checked on
 * every request (the token is the request's), after Apollo resolved the operation.
 */
export function serviceSdlForRouterOnly(token: string | null): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request }) {
          if (!asksForService(document) || isRouter(request.http?.headers.get(ROUTER_TOKEN_HEADER), token)) return;
          throw refusal('INTROSPECTION_DISABLED', 'Introspection is disabled on this server.');
        },
      };
    },
  };
}
