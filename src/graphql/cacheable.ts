/**
 * Which GraphQL answers the response cache (src/http/response-cache.ts) may keep: queries whose every
 * root field reads catalogue data only — a pure function of the stored rows and the caller's key, with
 * no clock (availability lapses with time) and no per-customer data (bookings, carts, events).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, type OperationDefinitionNode } from 'graphql';
import type { FastifyRequest } from 'fastify';
import { requestOf } from './request-link.ts';

export const CACHEABLE_ROOT_FIELDS: ReadonlySet<string> = new Set([
  'brandSettings',
  'featuredListings',
  'experience',
  'experienceReviews',
  'hosts',
  '__typename',
]);

export function isCacheableOperation(operation: OperationDefinitionNode): boolean {
  return (
    operation.operation === 'query' &&
    operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && CACHEABLE_ROOT_FIELDS.has(selection.name.value))
  );
}

export interface CacheableOperation {
  name: string | null;
  type: 'query';
}

/** Tells `markCacheable` about each request whose answer is complete (no error) and may be kept. */
export function cacheableAnswers(
  markCacheable: (request: FastifyRequest, operation: CacheableOperation) => void,
): ApolloServerPlugin<object> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ operation, operationName, response, contextValue }) {
          if (!operation || !isCacheableOperation(operation)) return;
          if (response.body.kind !== 'single' || response.body.singleResult.errors?.length) return;
          if (response.http.status !== undefined && response.http.status !== 200) return;
          const request = requestOf(contextValue);
          if (request) markCacheable(request, { name: operationName ?? null, type: 'query' });
        },
      };
    },
  };
}
