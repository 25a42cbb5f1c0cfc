/**
 * Which GraphQL answers may be kept: by the response cache (src/http/response-cache.ts), and for a short
 * time by browsers and CDNs (cache-control.ts). Queries whose every root field reads catalogue data only —
 * a pure function of the stored rows and the caller's key — and that select no live type: sessions
 * (`availability`, `Experience.sessions`) change with every hold and booking, and drop out as they start,
 * with the clock. No per-customer data either (bookings, carts, events). `viewer` and `node` are left
 * out: the first is not worth keeping, the second may name anything.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import {
  BREAK,
  getNamedType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
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

/** Types whose values change with holds, bookings or the clock: a document selecting one is never kept. */
export const LIVE_TYPES: ReadonlySet<string> = new Set(['Session']);

function selectsLiveType(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let live = false;
  // The whole document, fragments included (an unused fragment only makes the judgment stricter).
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const type = typeInfo.getType();
        if (type && LIVE_TYPES.has(getNamedType(type).name)) {
          live = true;
          return BREAK;
        }
        return undefined;
      },
    }),
  );
  return live;
}

/** Apollo keeps parsed documents (its documentStore), so each operation is judged once, not per request. */
const judged = new WeakMap<OperationDefinitionNode, boolean>();

export interface JudgedRequest {
  schema: GraphQLSchema;
  document?: DocumentNode;
  operation?: OperationDefinitionNode;
}

export function isCacheableOperation({ schema, document, operation }: JudgedRequest): boolean {
  if (!document || !operation) return false;
  let cacheable = judged.get(operation);
  if (cacheable === undefined) {
    // A fragment spread at the root could hide any field: not cacheable.
    cacheable =
      operation.operation === 'query' &&
      operation.selectionSet.selections.every(
        (selection) => selection.kind === Kind.FIELD && CACHEABLE_ROOT_FIELDS.has(selection.name.value),
      ) &&
      !selectsLiveType(schema, document);
    judged.set(operation, cacheable);
  }
  return cacheable;
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
        async willSendResponse(requestContext) {
          const { operationName, response, contextValue } = requestContext;
          if (!isCacheableOperation(requestContext)) return;
          if (response.body.kind !== 'single' || response.body.singleResult.errors?.length) return;
          if (response.http.status !== undefined && response.http.status !== 200) return;
          const request = requestOf(contextValue);
          if (request) markCacheable(request, { name: operationName ?? null, type: 'query' });
        },
      };
    },
  };
}
