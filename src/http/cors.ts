/**
 * CORS (@fastify/cors) for browser apps on other origins, on both faces. Allowed: the operator's
 * CORS_ORIGINS, the origins listed by active publishable keys (read again whenever the data changes,
 * so a key issued or revoked takes effect at once), and outside production any localhost origin.
 * Credentials are bearer keys, never cookies, so no `Access-Control-Allow-Credentials`. Preflights are
 * answered before rate limiting and authentication (they carry no key). Apollo's CSRF prevention still
 * refuses simple (preflight-free) GraphQL requests.
 */
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../domain/shared/database.ts';

export interface CorsSettings {
  /** CORS_ORIGINS, as browsers send them. */
  origins: readonly string[];
  /** Whether any http://localhost, 127.0.0.1 or [::1] origin (any port) is allowed: outside production. */
  localhost: boolean;
}

const LOCALHOST = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/**
 * The request headers Tessera reads; Apollo's CSRF header and operation name header included; and those
 * GraphQL clients and tracing add, which a browser must be allowed to send or it refuses the request:
 * Apollo Client's client awareness (`apollographql-client-name`, `-version`) and W3C Trace Context
 * (`traceparent`, `tracestate`, sent by OpenTelemetry's browser fetch instrumentation).
 */
export const corsAllowedHeaders = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Tessera-Brand-Id',
  'Tessera-Human-Check',
  'Apollo-Require-Preflight',
  'X-Apollo-Operation-Name',
  'Apollographql-Client-Name',
  'Apollographql-Client-Version',
  'Traceparent',
  'Tracestate',
];

/** The answer headers a browser app may read besides the always-readable ones. */
export const corsExposedHeaders = [
  'X-Request-Id',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Idempotent-Replayed',
];

export async function installCors(app: FastifyInstance, db: Database, settings: CorsSettings): Promise<void> {
  const fixed = new Set(settings.origins);
  let publishable: { version: string; origins: Promise<Set<string>> } | null = null;
  const publishableOrigins = async () => {
    // What it reads is the keys' (api_keys): a booking leaves it valid.
    const version = await db.keysVersion();
    if (publishable?.version !== version) {
      publishable = { version, origins: db.apiKeys.publishableKeyOrigins().then((origins) => new Set(origins)) };
    }
    return publishable.origins;
  };
  await app.register(fastifyCors, {
    origin: async (origin: string | undefined) =>
      origin !== undefined &&
      (fixed.has(origin) || (settings.localhost && LOCALHOST.test(origin)) || (await publishableOrigins()).has(origin)),
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: corsAllowedHeaders,
    exposedHeaders: corsExposedHeaders,
    maxAge: 600,
  });
}
