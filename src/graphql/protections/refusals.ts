/**
 * How the GraphQL face refuses a document before running it: HTTP 400, `extensions.code`
 * GRAPHQL_VALIDATION_FAILED (Apollo's code for "this document will not run", so clients treat it as
 * their mistake and never retry it) with `extensions.reason` naming the limit and `extensions.limit` its
 * value. Trusted documents mode has its own code, PERSISTED_QUERY_NOT_TRUSTED.
 */
import { GraphQLError } from 'graphql';

export const REFUSED = 'GRAPHQL_VALIDATION_FAILED';
export const NOT_TRUSTED = 'PERSISTED_QUERY_NOT_TRUSTED';

export type RefusalReason =
  | 'MAX_DOCUMENT_SIZE'
  | 'MAX_TOKENS'
  | 'MAX_DEPTH'
  | 'MAX_INTROSPECTION_DEPTH'
  | 'MAX_VALIDATION_WORK'
  | 'MAX_ALIASES'
  | 'MAX_DIRECTIVES'
  | 'MAX_COST'
  | 'INTROSPECTION_DISABLED';

export interface RefusalExtensions {
  [key: string]: unknown;
  code: string;
  reason?: RefusalReason;
  limit?: number;
}

export function refusalExtensions(reason: RefusalReason, limit?: number, extra: Record<string, unknown> = {}): RefusalExtensions {
  return { code: REFUSED, reason, ...(limit === undefined ? {} : { limit }), ...extra };
}

/** A refusal raised inside Apollo (validation or a plugin hook); `http` makes it a 400 there too. */
export function refusal(reason: RefusalReason, message: string, limit?: number, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...refusalExtensions(reason, limit, extra), http: { status: 400 } } });
}

/** Whether an error is one of these refusals (and not, say, an unknown field). */
export function isRefusal(error: GraphQLError): boolean {
  return error.extensions?.code === REFUSED && typeof error.extensions.reason === 'string';
}
