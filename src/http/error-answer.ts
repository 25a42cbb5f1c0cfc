/**
 * The body of an error answered outside a GraphQL operation or REST route's own work: the rate limit,
 * the body limit, a content type no parser takes, an Idempotency-Key refusal, a draining server, the
 * HTTP server's own refusals (src/http/server-options.ts). REST paths answer the REST shape
 * `{"error": {"code", "message", "details", "requestId"}}`. `/graphql` answers the GraphQL shape
 * `{"errors": [{"message", "extensions": {"code", ...details}}]}` with the same code and status: Apollo
 * Client, urql and Relay read `errors[].extensions.code`, and see a REST body as a bare server error.
 */
import Negotiator from 'negotiator';
import type { ErrorCode, ErrorDetails } from '../domain/shared/errors.ts';

export const GRAPHQL_PATH = '/graphql';

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';

/** Whether a request URL (path and query string) is the GraphQL endpoint's. */
export function isGraphQLUrl(url: string): boolean {
  const end = url.indexOf('?');
  return (end === -1 ? url : url.slice(0, end)) === GRAPHQL_PATH;
}

/**
 * The media type Apollo Server answers for this Accept header: the same negotiation, by the same library
 * (negotiator), between `application/json` and `application/graphql-response+json`, `application/json`
 * without Accept. An Accept taking neither, which Apollo answers 406, gets `application/json`: an error
 * is answered whatever the client takes.
 */
export function graphqlMediaType(accept: string | undefined): string {
  if (!accept) return JSON_TYPE;
  return new Negotiator({ headers: { accept } }).mediaType([JSON_TYPE, GRAPHQL_RESPONSE_TYPE]) ?? JSON_TYPE;
}

/** REST's error body. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetails; requestId: string };
}

/** GraphQL's, as a GraphQL client reads it. */
export interface GraphQLErrorBody {
  errors: Array<{ message: string; extensions: Record<string, unknown> & { code: ErrorCode } }>;
}

export interface ErrorAnswer {
  contentType: string;
  body: ErrorBody | GraphQLErrorBody;
  /** Headers besides the content type. */
  headers: Record<string, string>;
}

export interface ErrorRequest {
  /** The request URL as received (path and query string). */
  url: string;
  accept: string | undefined;
  requestId: string;
}

/** The answer to `request` for an error `code`, in the shape of the endpoint it was sent to. */
export function errorAnswer(request: ErrorRequest, code: ErrorCode, message: string, details?: ErrorDetails): ErrorAnswer {
  if (!isGraphQLUrl(request.url)) {
    return {
      contentType: JSON_TYPE,
      body: { error: { code, message, ...(details ? { details } : {}), requestId: request.requestId } },
      headers: {},
    };
  }
  // As the GraphQL face's own errors (src/graphql/server.ts formatError): the code last, so no detail named
  // `code` replaces it; the request id only where there is nothing else to go on.
  const extensions = { ...details, code, ...(code === 'INTERNAL_SERVER_ERROR' ? { requestId: request.requestId } : {}) };
  return {
    contentType: graphqlMediaType(request.accept),
    body: { errors: [{ message, extensions }] },
    // GET /graphql answers may be kept by shared caches (src/graphql/cache-control.ts): never a refusal.
    headers: { 'cache-control': 'no-store' },
  };
}
