/**
 * Observability of one app: access logs carrying the request id (Fastify's `reqId`), the key id, the
 * brand and the GraphQL operation; Prometheus metrics; readiness. `buildApp` wires these pieces in.
 */
import type { Config } from '../config.ts';
import type { Database } from '../domain/shared/database.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { graphqlMetricsPlugin, observeReplayedOperation } from './graphql.ts';
import { AccessLogController, installRequestObservability } from './http.ts';
import { createMetrics } from './metrics.ts';
import { operationsRoutes } from './routes.ts';

/** What observability reads from the configuration. */
export type ObservabilityConfig = Partial<Pick<Config, 'METRICS_TOKEN'>>;

export function createObservability(options: { db: Database; production: boolean; config: ObservabilityConfig }) {
  const metrics = createMetrics(options.db);
  return {
    metrics,
    /** Fastify's `logController`: the access line replaces Fastify's per-request lines. */
    logController: new AccessLogController(),
    /** For `Deps.observer`: refunds are counted where they finish. */
    observer: metrics.observer,
    graphqlPlugin: graphqlMetricsPlugin(metrics),
    /** A GraphQL answer replayed from the response cache (no plugin ran): the access line and metrics still see its operation. */
    replayedOperation(request: FastifyRequest, operation: { name: string | null; type: string }, seconds: number): void {
      observeReplayedOperation(metrics, request, operation, seconds);
    },
    /** Hooks and the /readyz and /metrics routes; call before the other routes are registered. */
    install(app: FastifyInstance): void {
      installRequestObservability(app, options.db, metrics);
      operationsRoutes(app, options.db, metrics, { production: options.production, token: options.config.METRICS_TOKEN });
    },
  };
}
