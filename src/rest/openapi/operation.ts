/**
 * What every REST operation shares, added to its documented schema in one place rather than repeated in
 * each route: the headers a client sends and the error statuses the layers in front of the handler
 * answer. Only the OpenAPI document sees this; the routes validate and serialize with their own schemas.
 */
import { Type, type TSchema } from 'typebox';
import { ErrorResponse, ref } from '../schemas/common.ts';
import { HUMAN_CHECK_HEADER, MAX_HUMAN_CHECK_TOKEN_LENGTH } from '../../domain/checkout/human-check.ts';

/** The parts of a route schema read here (`security: []` marks a route that takes no API key). */
export interface RouteSchema {
  operationId?: string;
  body?: unknown;
  params?: unknown;
  headers?: { properties?: Record<string, TSchema> };
  security?: unknown[];
  response?: Record<string, unknown>;
}

const errorDescriptions: Record<number, string> = {
  400: 'VALIDATION_FAILED: malformed input; `details.field` names the parameter, header or body field',
  401: 'UNAUTHENTICATED: no API key, or an unknown or revoked one',
  403: 'FORBIDDEN: the key may not act for the brand named (in the path or by Tessera-Brand-Id), or may not use this operation',
  404: 'NOT_FOUND: unknown, or belonging to a brand the key may not see',
  412: 'PRECONDITION_FAILED: `If-Match` names a version the object no longer has; nothing was written: read it again',
  409: 'A conflict with the current state (the code says which); IDEMPOTENCY_KEY_IN_USE while the first request with this Idempotency-Key runs',
  413: 'PAYLOAD_TOO_LARGE: the body is over 1 MiB',
  414: 'URI_TOO_LONG: a path segment is over 100 characters',
  415: 'UNSUPPORTED_MEDIA_TYPE: the body is not `application/json`',
  422: 'A business rule refused well-formed input (the code says which); IDEMPOTENCY_KEY_REUSED for an Idempotency-Key sent with another request',
  429: "RATE_LIMITED: over the key's (or, without one, the address's) requests per minute",
  503:
    'Nothing was done; retry after `Retry-After` (with the same Idempotency-Key): DATABASE_UNAVAILABLE (the database is down, full or ' +
    'timing out), OVERLOADED (a write past what the gateway takes at once), SERVICE_UNAVAILABLE (the gateway is shutting down)',
};

const retryAfter = {
  'Retry-After': Type.Integer({ minimum: 0, description: 'Seconds until the budget is renewed' }),
};

const retryUnavailable = {
  'Retry-After': Type.Integer({ minimum: 0, description: 'Seconds to wait before retrying (1 or 2)' }),
};

const idempotencyKey = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    'Any 1 to 255 printable ASCII characters. The same key and request within 24 hours (per API key) replays the first ' +
    'answer with `Idempotent-Replayed: true`; another request is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first ' +
    'runs is 409 IDEMPOTENCY_KEY_IN_USE.',
});

const humanCheckToken = Type.String({
  maxLength: MAX_HUMAN_CHECK_TOKEN_LENGTH,
  description:
    "The human check's token (Cloudflare Turnstile's widget answer), with a publishable key of a brand that has the " +
    'feature `requireHumanCheck`; ignored otherwise. Single use: a new token for every attempt.',
});

const humanCheckRefusal =
  'HUMAN_CHECK_FAILED: the brand asks publishable keys for a human check and the Tessera-Human-Check token is missing or refused';

const brandId = (url: string) =>
  Type.String({
    format: 'uuid',
    description: url.includes(':brandId')
      ? 'The brand an organization key acts for; when sent it must equal `brandId` (a brand key may omit it)'
      : 'The brand an organization key acts for: required with an organization key (else 400 VALIDATION_FAILED naming it); a brand key may omit it',
  });

/** The error statuses a request can meet before its handler runs, by what the route takes. */
function sharedStatuses(schema: RouteSchema, method: string): number[] {
  const authenticated = schema.security?.length !== 0;
  const post = method === 'POST';
  return [
    400,
    ...(authenticated ? [401, 403] : []),
    ...(authenticated && post ? [409] : []),
    ...(post ? [413] : []),
    ...(schema.params !== undefined ? [414] : []),
    ...(schema.body !== undefined ? [415] : []),
    ...(authenticated && post ? [422] : []),
    429,
    503,
  ];
}

/** Who may call a route a publishable key may use (src/domain/access/publishable.ts): the secret keys, and it. */
const withPublishableKey = [{ 'Brand-API-Key': [] }, { 'Organization-API-Key': [] }, { 'Publishable-Key': [] }];

/**
 * The route's schema as the document shows it (`url` in Fastify's `:param` form): its headers, every
 * error status, each described, and the publishable key among its credentials when it may use the route.
 */
export function documentedOperation(
  schema: RouteSchema,
  url: string,
  method: string,
  publishable = false,
  humanCheck = false,
): RouteSchema {
  if (publishable) schema = { ...schema, security: withPublishableKey };
  const authenticated = schema.security?.length !== 0;
  const headers = {
    ...schema.headers?.properties,
    ...(authenticated && method === 'POST' ? { 'Idempotency-Key': Type.Optional(idempotencyKey) } : {}),
    ...(authenticated ? { 'Tessera-Brand-Id': Type.Optional(brandId(url)) } : {}),
    ...(humanCheck ? { [HUMAN_CHECK_HEADER]: Type.Optional(humanCheckToken) } : {}),
  };
  const response: Record<string, unknown> = { ...schema.response };
  if (humanCheck) response[403] = ref(ErrorResponse, `${errorDescriptions[403]}; ${humanCheckRefusal}`);
  for (const status of sharedStatuses(schema, method)) response[status] ??= ref(ErrorResponse);
  for (const [status, answer] of Object.entries(response)) {
    const description = errorDescriptions[Number(status)];
    if (!description || (answer as { description?: string }).description) continue;
    const headers = status === '429' ? retryAfter : status === '503' ? retryUnavailable : undefined;
    response[status] = { ...ref(ErrorResponse, description), ...(headers ? { headers } : {}) };
  }
  const ordered = Object.fromEntries(Object.entries(response).sort(([a], [b]) => Number(a) - Number(b)));
  return { ...schema, ...(Object.keys(headers).length > 0 ? { headers: Type.Object(headers) } : {}), response: ordered };
}
