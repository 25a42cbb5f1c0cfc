import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GraphQLFormattedError } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import type { GraphQLContext } from './context.ts';
import { resolvers } from './resolvers/index.ts';

const schemaDir = join(dirname(fileURLToPath(import.meta.url)), '../../schema');

/** The SDL contract: every file of schema/, in name order. */
export function loadTypeDefs(): string {
  return readdirSync(schemaDir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(schemaDir, f), 'utf8'))
    .join('\n');
}

/** Apollo's own client-error codes: safe to pass through as they are. */
const clientErrorCodes = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

export const INTERNAL_MESSAGE = 'Internal server error';

/**
 * Expected failures keep their code and message; anything else is masked, so no library message,
 * SQL text or stack ever reaches a client. The request id is added by the plugin below.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  if (original instanceof DomainError) {
    // The error code last: a detail named `code` (a coupon's, a credit code's) must not replace it.
    return { ...base, message: original.message, extensions: { ...original.details, code: original.code } };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && clientErrorCodes.has(code)) {
    const { stacktrace: _, ...extensions } = formatted.extensions ?? {};
    return { ...base, extensions };
  }
  return { ...base, message: INTERNAL_MESSAGE, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** Logs unexpected errors with the request id, and gives the client that id to quote. */
function errorReporting(log: FastifyBaseLogger): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const original = unwrapResolverError(error);
            const code = error.extensions?.code;
            if (original instanceof DomainError || (typeof code === 'string' && clientErrorCodes.has(code))) continue;
            log.error({ err: original, requestId: contextValue.requestId, path: error.path }, 'GraphQL resolver failed');
          }
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          for (const error of response.body.singleResult.errors ?? []) {
            if (error.extensions?.code === 'INTERNAL_SERVER_ERROR') {
              (error.extensions as Record<string, unknown>).requestId = contextValue.requestId;
            }
          }
        },
      };
    },
  };
}

export interface GraphQLServerOptions {
  production: boolean;
  log: FastifyBaseLogger;
  plugins?: ApolloServerPlugin<GraphQLContext>[];
}

export function createGraphQLServer(options: GraphQLServerOptions): ApolloServer<GraphQLContext> {
  return new ApolloServer<GraphQLContext>({
    typeDefs: loadTypeDefs(),
    resolvers,
    formatError,
    includeStacktraceInErrorResponses: false,
    introspection: !options.production,
    plugins: [
      errorReporting(options.log),
      options.production ? ApolloServerPluginLandingPageDisabled() : ApolloServerPluginLandingPageLocalDefault({ embed: true }),
      ...(options.plugins ?? []),
    ],
  });
}
