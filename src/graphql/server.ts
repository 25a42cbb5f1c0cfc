import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { requestPluginsInOne } from './request-plugins.ts';
import { compiledGateway } from './compiled-executor.ts';
import { unwrapResolverError } from '@apollo/server/errors';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';
import { DomainError } from '../domain/shared/errors.ts';
import { turnedAway, turnedAwayBy, turnedAwayWith } from '../http/database-unavailable.ts';
import { cacheControl } from './cache-control.ts';
import type { GraphQLContext } from './context.ts';
import { csrfPreventionRequestHeaders } from './csrf.ts';
import { landingPageWithOfflineLinks } from './landing-page.ts';
import { apolloProtections, withoutSuggestions } from './protections/index.ts';
import { graphqlProtections, type GraphQLExecutorKind, type GraphQLProtections } from './protections/settings.ts';
import { buildTesseraSchema } from './schema.ts';
import { subscriptionsOverLiveOnly } from './subscriptions-over-http.ts';

export { loadTypeDefs } from './schema.ts';

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
 * Apollo's refusals of a malformed request (a persisted-query hash that is not its query's, an unknown
 * persisted-query version) carry a 4xx status but no code: the client's mistake, not a fault of ours.
 */
function isRequestRefusal(error: unknown): boolean {
  const status = (error as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * graphql-js stops coercing variables after 50 errors and says so in an error of its own, which Apollo
 * (unlike the 50 before it) leaves without a code: bad input all the same.
 */
function isVariableErrorLimit(error: unknown): boolean {
  return error instanceof GraphQLError && !error.path && error.message.startsWith('Too many errors processing variables');
}

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
  // Met by a resolver, or before running (the context, write-admission.ts: then with the 503 already set).
  const away = turnedAwayBy(original) ?? turnedAwayWith(formatted.extensions?.code);
  if (away) return { ...base, message: away.message, extensions: { code: away.code } };
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && clientErrorCodes.has(code)) {
    const { stacktrace: _, ...extensions } = formatted.extensions ?? {};
    return { ...base, extensions };
  }
  if (isRequestRefusal(error)) return { ...base, extensions: { code: 'BAD_REQUEST' } };
  if (isVariableErrorLimit(error)) return { ...base, extensions: { code: 'BAD_USER_INPUT' } };
  return { ...base, message: INTERNAL_MESSAGE, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** A failure that is the client's or the domain's (answered as it is), not ours (logged, and masked by formatError). */
export function isExpectedError(error: GraphQLError): boolean {
  const code = error.extensions?.code;
  return (
    unwrapResolverError(error) instanceof DomainError ||
    (typeof code === 'string' && clientErrorCodes.has(code)) ||
    isRequestRefusal(error) ||
    isVariableErrorLimit(error)
  );
}

/** Logs unexpected errors with the request id, and gives the client that id to quote. */
function errorReporting(log: FastifyBaseLogger): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const original = unwrapResolverError(error);
            const away = turnedAwayBy(original);
            if (away) {
              away.log(log, original as Error, { reqId: contextValue.requestId, path: error.path });
              continue;
            }
            if (isExpectedError(error)) continue;
            log.error({ err: original, reqId: contextValue.requestId, path: error.path }, 'GraphQL resolver failed');
          }
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          const { errors, data } = response.body.singleResult;
          for (const error of errors ?? []) {
            if (error.extensions?.code === 'INTERNAL_SERVER_ERROR') {
              (error.extensions as Record<string, unknown>).requestId = contextValue.requestId;
            }
          }
          // The database could not answer, or this gateway refused the write: when to try again; a 503 when
          // nothing of the operation could be answered.
          const codes = new Set(errors?.map((error) => error.extensions?.code));
          // An outage's wait before an overload's: the longer one when both met the operation.
          const away = [turnedAway.DATABASE_UNAVAILABLE, turnedAway.OVERLOADED].find((entry) => codes.has(entry.code));
          if (away) {
            response.http.headers.set('retry-after', String(away.retryAfterSeconds));
            if (data === null || data === undefined) response.http.status = 503;
          }
        },
      };
    },
  };
}

export interface GraphQLServerOptions {
  /** The schema to serve (buildTesseraSchema(): the live transports serve the same one); one of its own when absent. */
  schema?: GraphQLSchema;
  production: boolean;
  log: FastifyBaseLogger;
  plugins?: ApolloServerPlugin<GraphQLContext>[];
  /** Limits on documents, introspection and trusted documents; the defaults when absent. */
  protections?: GraphQLProtections;
  /** How long public catalogue answers may be kept (cache-control.ts); absent or 0: every answer is `no-store`. */
  publicMaxAgeSeconds?: number;
  /** The compiled executor (compiled-executor.ts) unless `graphql-js`: Apollo's own execution, which tests compare it with. */
  executor?: GraphQLExecutorKind;
}

export function createGraphQLServer(options: GraphQLServerOptions): ApolloServer<GraphQLContext> {
  const protections = options.protections ?? graphqlProtections({ production: options.production });
  const { plugins: protectionPlugins, ...limits } = apolloProtections(protections);
  // A Federation 2 subgraph (schema.ts), run by the compiled executor (compiled-executor.ts).
  const schema = options.schema ?? buildTesseraSchema();
  return new ApolloServer<GraphQLContext>({
    ...(options.executor === 'graphql-js' ? { schema } : { gateway: compiledGateway(schema) }),
    // Suggestions name fields a client did not know of: they go with introspection.
    formatError: protections.introspection ? formatError : (formatted, error) => withoutSuggestions(formatError(formatted, error)),
    includeStacktraceInErrorResponses: false,
    // src/main.ts owns SIGTERM/SIGINT (drain, then exit); Apollo's own handlers would re-raise the signal mid-drain.
    stopOnTerminationSignals: false,
    // Switched off by our own validation rule (protections/document-rules.ts), whose message does not tell
    // clients how Apollo Server is configured.
    introspection: true,
    // Simple (CSRF-able) requests refused, one operation per HTTP request (csrf.ts).
    csrfPrevention: { requestHeaders: csrfPreventionRequestHeaders },
    allowBatchedHttpRequests: false,
    ...limits,
    plugins: [
      // Apollo's wraps every field's resolution to collect hints: cache-control.ts decides from the root fields.
      ApolloServerPluginCacheControlDisabled(),
      // Apollo turns it on for a subgraph schema: per-field timings for a router that asks, at the cost of wrapping every field.
      ApolloServerPluginInlineTraceDisabled(),
      // Ours, one listener a request (request-plugins.ts); the landing page's is a server hook, Apollo's to find.
      requestPluginsInOne<GraphQLContext>([
        cacheControl(options.publicMaxAgeSeconds ?? 0),
        errorReporting(options.log),
        subscriptionsOverLiveOnly<GraphQLContext>(),
        ...protectionPlugins,
        ...(options.plugins ?? []),
      ]),
      options.production ? ApolloServerPluginLandingPageDisabled() : landingPageWithOfflineLinks<GraphQLContext>(),
    ],
  });
}
