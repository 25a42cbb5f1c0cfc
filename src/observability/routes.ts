/**
 * Operators' routes, outside the partner API (no API key, hidden from OpenAPI):
 * - `GET /readyz`: 200 while the database takes writes in time and carries every migration of this
 *   build and no shutdown has begun, else 503 with the reason (readiness.ts; a load balancer stops sending
 *   traffic; `/healthz` stays a liveness check that never touches the database).
 * - `GET /metrics`: Prometheus text. With METRICS_TOKEN set it needs `Authorization: Bearer <token>`;
 *   in production without a token it does not exist (404), so metrics are never public by accident.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../rest/errors.ts';
import type { Metrics } from './metrics.ts';
import type { ReadinessProbe } from './readiness.ts';

export interface MetricsAccess {
  production: boolean;
  /** The scraper's bearer token; unset: open outside production, absent in production. */
  token: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares digests, so the time taken says nothing about how much of a guess was right. */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

export function operationsRoutes(app: FastifyInstance, readiness: ReadinessProbe, metrics: Metrics, access: MetricsAccess): void {
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const state = await readiness.check();
    if (state.ready) return { status: 'ready' };
    // The cause stays in the log: the answer names the kind of problem only. A shutdown is no problem
    // (its own lines say when it began).
    if (state.reason !== 'shutting down') request.log.warn({ err: state.error, reason: state.reason }, 'not ready');
    return reply.status(503).send({ status: 'unavailable', reason: state.reason });
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (access.token === undefined && access.production) {
      return sendError(reply, request, 'NOT_FOUND', `No route for ${request.method} /metrics`);
    }
    if (access.token !== undefined && !bearerMatches(request.headers.authorization, access.token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(reply, request, 'UNAUTHENTICATED', 'Metrics need "Authorization: Bearer <METRICS_TOKEN>"');
    }
    try {
      await metrics.refreshFromDatabase();
    } catch (error) {
      // Process metrics are still worth serving; the database-read values say they are unknown.
      request.log.error({ err: error }, 'metrics: reading the database failed');
      metrics.markDatabaseUnknown();
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
