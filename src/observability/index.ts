/**
 * Observability of one app: access logs carrying the request id (Fastify's `reqId`), the key id, the
 * brand and the GraphQL operation; Prometheus metrics; readiness. `buildApp` wires these pieces in.
 */
import type { Config } from '../config.ts';
import type { Database } from '../domain/shared/database.ts';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainObserver } from '../domain/shared/observer.ts';
import { graphqlMetricsPlugin, observeReplayedOperation } from './graphql.ts';
import { AccessLogController, installRequestObservability } from './http.ts';
import { createMetrics } from './metrics.ts';
import { ReadinessProbe, installReadiness, readinessDefaults } from './readiness.ts';
import { operationsRoutes } from './routes.ts';

/** What observability reads from the configuration. */
export type ObservabilityConfig = Partial<Pick<Config, 'METRICS_TOKEN' | 'READINESS_TIMEOUT_MS' | 'READINESS_CACHE_MS'>>;

export function createObservability(options: { db: Database; production: boolean; config: ObservabilityConfig }) {
  const metrics = createMetrics(options.db);
  const readiness = new ReadinessProbe(options.db, {
    timeoutMs: options.config.READINESS_TIMEOUT_MS ?? readinessDefaults.timeoutMs,
    cacheMs: options.config.READINESS_CACHE_MS ?? readinessDefaults.cacheMs,
  });
  // The app's logger, once installed: operators see each client refused more holds (by its HMAC, never its address).
  let log: FastifyBaseLogger | undefined;
  const observer: DomainObserver = {
    ...metrics.observer,
    holdLimitReached(refusal) {
      metrics.observer.holdLimitReached?.(refusal);
      log?.warn({ holdLimit: refusal }, 'a publishable client reached its budget of unpaid places (HOLD_LIMIT_REACHED)');
    },
  };
  return {
    metrics,
    /** Fastify's `logController`: the access line replaces Fastify's per-request lines. */
    logController: new AccessLogController(),
    /** For `Deps.observer`: refunds are counted where they finish; refused holds are counted and logged. */
    observer,
    graphqlPlugin: graphqlMetricsPlugin(metrics),
    /** A GraphQL answer replayed from the response cache (no plugin ran): the access line and metrics still see its operation. */
    replayedOperation(request: FastifyRequest, operation: { name: string | null; type: string }, seconds: number): void {
      observeReplayedOperation(metrics, request, operation, seconds);
    },
    /** Hooks, `app.readiness`, and the /readyz and /metrics routes; call before the other routes are registered. */
    install(app: FastifyInstance): void {
      log = app.log;
      installRequestObservability(app, options.db, metrics);
      installReadiness(app, readiness);
      operationsRoutes(app, readiness, metrics, { production: options.production, token: options.config.METRICS_TOKEN });
    },
  };
}
