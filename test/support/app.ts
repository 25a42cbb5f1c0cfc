import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { PaymentProcessor } from '../../src/domain/payments/processor.ts';
import type { IntentReconcilerOptions } from '../../src/domain/payments/intent-reconciler.ts';
import type { HumanCheckVerifier } from '../../src/domain/checkout/human-check.ts';
import type { GraphQLAppOptions } from '../../src/graphql/protections/settings.ts';
import type { LogDestination } from '../../src/http/logging.ts';
import type { HttpConfig } from '../../src/http/settings.ts';
import type { LiveConfig } from '../../src/graphql/live/settings.ts';
import type { RefundReconcileAppOptions } from '../../src/jobs/refund-reconciler-settings.ts';
import type { WebhookAppOptions } from '../../src/jobs/webhook-settings.ts';
import type { TestDb } from './db.ts';

export interface TestApp {
  app: FastifyInstance;
  /** REST call with a bearer key (or explicit headers). */
  rest(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options?: { key?: string; headers?: Record<string, string>; body?: unknown },
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** GraphQL POST with a bearer key. */
  gql(
    query: string,
    variables?: Record<string, unknown>,
    options?: { key?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
}

/** Builds the app on `db` (closed after the file's tests) and returns small call helpers. */
export interface StartOptions {
  /** False: hand the app out before `ready()`, so a test can act before start-up work runs. */
  ready?: boolean;
  production?: boolean;
  now?: () => Date;
  payments?: PaymentProcessor;
  /** The human-check verifier (the sandbox, `pass`/`fail`, otherwise). */
  humanCheck?: HumanCheckVerifier;
  holdTtlSeconds?: number;
  /** PUBLISHABLE_HOLD_PLACES_PER_CLIENT (the default, 10, otherwise). */
  publishableHoldPlacesPerClient?: number;
  waitlistOfferTtlSeconds?: number;
  /**
   * Webhook settings. The dispatcher runs only when a test asks (`dispatch: true`), so tests that look
   * at pending deliveries see them as queued, untouched by a background sender.
   */
  webhooks?: WebhookAppOptions;
  /**
   * Refund reconciliation. The reconciler runs only when a test asks (`reconcile: true`); tests drive
   * passes themselves with `reconcileRefunds`, so pending refunds stay as a test left them.
   */
  refunds?: RefundReconcileAppOptions;
  /** Payment intent reconciliation (a processor that can be asked: Stripe); tests drive passes with `reconcileIntents`. */
  intentReconciler?: IntentReconcilerOptions | null;
  /** GraphQL limits, introspection and a trusted documents manifest (the defaults otherwise). */
  graphql?: GraphQLAppOptions;
  /** HTTP protections (rate limits, timeouts, header size). Rate limits default to budgets no test file exhausts. */
  http?: HttpConfig;
  /** Live-update limits (LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION...); the defaults otherwise. */
  live?: LiveConfig;
  /** Captures the log lines (at `logLevel`, `info` by default); without it the app logs nothing. */
  logStream?: LogDestination;
  logLevel?: 'info' | 'debug' | 'trace';
  /** METRICS_TOKEN: the bearer token GET /metrics then requires. */
  metricsToken?: string;
  /** CORS_ORIGINS. */
  corsOrigins?: string[];
  /** MCP_PAYMENT_PAGE_URL: the page the MCP hold tool links to (none otherwise). */
  mcpPaymentPageUrl?: string;
  /** READINESS_TIMEOUT_MS and READINESS_CACHE_MS (the defaults otherwise). */
  readiness?: { timeoutMs?: number; cacheMs?: number };
}

const unlimited: HttpConfig = {
  RATE_LIMIT_PER_MINUTE: 1_000_000,
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: 1_000_000,
  RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: 1_000_000,
};

export async function startApp(db: TestDb, options: StartOptions = {}): Promise<TestApp> {
  const app = await buildApp({
    db: db.database,
    config: {
      production: options.production ?? false,
      LOG_LEVEL: options.logStream ? (options.logLevel ?? 'info') : 'silent',
      HOLD_TTL_SECONDS: options.holdTtlSeconds ?? 900,
      PUBLISHABLE_HOLD_PLACES_PER_CLIENT: options.publishableHoldPlacesPerClient,
      WAITLIST_OFFER_TTL_SECONDS: options.waitlistOfferTtlSeconds ?? 86_400,
      ...unlimited,
      METRICS_TOKEN: options.metricsToken,
      CORS_ORIGINS: options.corsOrigins,
      READINESS_TIMEOUT_MS: options.readiness?.timeoutMs,
      READINESS_CACHE_MS: options.readiness?.cacheMs,
      MCP_PAYMENT_PAGE_URL: options.mcpPaymentPageUrl,
      ...options.http,
      ...options.live,
    },
    logStream: options.logStream,
    graphql: options.graphql,
    now: options.now,
    payments: options.payments,
    humanCheck: options.humanCheck,
    webhooks: { dispatch: false, ...options.webhooks },
    refunds: { reconcile: false, ...options.refunds },
    intentReconciler: options.intentReconciler,
  });
  afterAll(() => app.close());
  // Start-up work (the first sweep of lapsed holds) happens here, not inside a test's first request.
  if (options.ready !== false) {
    await app.ready();
  }
  const auth = (key?: string): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
  return {
    app,
    async rest(method, url, { key, headers, body } = {}) {
      const res = await app.inject({
        method,
        url,
        headers: { ...auth(key), ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
    },
    async gql(query, variables, { key, headers } = {}) {
      const res = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...auth(key), ...headers },
        payload: { query, variables },
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },
  };
}
