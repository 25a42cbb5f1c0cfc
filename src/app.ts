import { randomUUID } from 'node:crypto';
import { installCors } from './http/cors.ts';
import fastifyApollo, { fastifyApolloHandler } from '@as-integrations/fastify';
import { turnedAway } from './http/database-unavailable.ts';
import { turnedAwayError } from './graphql/turned-away.ts';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from './config.ts';
import { DatabaseUnavailableError, type Database } from './domain/shared/database.ts';
import type { Deps } from './domain/shared/deps.ts';
import type { PaymentProcessor } from './domain/payments/processor.ts';
import { graphqlContextFactory, type GraphQLContext } from './graphql/context.ts';
import { installDocumentGate } from './graphql/protections/document-gate.ts';
import { installResponseCeiling, queryMarker } from './graphql/protections/response-size.ts';
import { graphqlProtections, type GraphQLAppOptions, type GraphQLConfig } from './graphql/protections/settings.ts';
import { authenticateRequest } from './auth/request-principal.ts';
import { cacheableAnswers } from './graphql/cacheable.ts';
import { installNoStoreDefault } from './graphql/cache-control.ts';
import { linkContext } from './graphql/request-link.ts';
import { createGraphQLServer } from './graphql/server.ts';
import { buildTesseraSchema } from './graphql/schema.ts';
import { installLive } from './graphql/live/index.ts';
import type { ApolloGetHandler } from './graphql/live/websocket.ts';
import { liveSettings, type LiveConfig } from './graphql/live/settings.ts';
import { registerGraphiQL } from './graphql/explorer/graphiql.ts';
import { loggerOptions, standardOutput, type LogDestination } from './http/logging.ts';
import { trackAllowedMethods } from './http/allowed-methods.ts';
import { dataVersionFor, markArrival } from './http/data-version.ts';
import { installDeadlines } from './http/deadline.ts';
import { installWriteAdmission } from './http/write-admission.ts';
import { admitMutations } from './graphql/write-admission.ts';
import { installRateLimit } from './http/rate-limit.ts';
import { publishableHoldSettings, type PublishableHoldConfig } from './http/publishable-holds.ts';
import { installResponseCache, markCacheable, ResponseCache } from './http/response-cache.ts';
import { serverOptions, trackSocketRequests } from './http/server-options.ts';
import { httpSettings, type HttpConfig } from './http/settings.ts';
import { drainOptions, refuseWhileDraining } from './rest/draining.ts';
import { restErrorHandler, sendError } from './rest/errors.ts';
import { validatorCompiler } from './rest/validation.ts';
import { idempotencyLeaseMs, installIdempotency } from './rest/idempotency.ts';
import { createObservability, type ObservabilityConfig } from './observability/index.ts';
import { paymentProcessor, type PaymentConfig } from './adapters/payment-processor.ts';
import { humanCheckVerifier, type HumanCheckConfig } from './adapters/human-check/index.ts';
import type { HumanCheckVerifier } from './domain/checkout/human-check.ts';
import { refundReconcilerSettings, type RefundReconcileAppOptions, type RefundReconcileConfig } from './jobs/refund-reconciler-settings.ts';
import { webhookRuntime, type WebhookAppOptions, type WebhookConfig } from './jobs/webhook-settings.ts';
import { backgroundJobs } from './jobs/index.ts';
import { intentCheckDefaults, type IntentReconcilerOptions } from './domain/payments/intent-reconciler.ts';
import { liveHubDefaults } from './domain/live/hub.ts';
import { publicRoutes, restRoutes } from './rest/plugin.ts';
import { openapiOptions } from './rest/openapi/document.ts';
import { namedSchemas } from './rest/schemas/components.ts';
import { MCP_PATH, mcpRoutes } from './mcp/route.ts';
import { mcpSettings, type McpConfig } from './mcp/settings.ts';

export interface AppOptions {
  db: Database;
  config: Pick<Config, 'production' | 'LOG_LEVEL' | 'HOLD_TTL_SECONDS' | 'WAITLIST_OFFER_TTL_SECONDS'> &
    Partial<Pick<Config, 'CORS_ORIGINS' | 'LIVE_CATCH_UP_INTERVAL_MS'>> &
    WebhookConfig &
    HumanCheckConfig &
    HttpConfig &
    GraphQLConfig &
    ObservabilityConfig &
    LiveConfig &
    RefundReconcileConfig &
    PublishableHoldConfig &
    Partial<PaymentConfig> &
    McpConfig;
  now?: () => Date;
  /** The payment processor; the sandbox by default. */
  payments?: PaymentProcessor;
  /** The human-check verifier overriding the configuration's (tests: Turnstile against a local fake). */
  humanCheck?: HumanCheckVerifier;
  /** Webhook settings overriding the configuration's (tests: a fake sender, short retries). */
  webhooks?: WebhookAppOptions;
  /** Refund reconciliation settings overriding the configuration's (tests: off, or passes they drive). */
  refunds?: RefundReconcileAppOptions;
  /** Payment intent reconciliation overriding the defaults (tests: null, and passes they drive). */
  intentReconciler?: IntentReconcilerOptions | null;
  /** GraphQL limits overriding the configuration's (tests: small limits, a trusted documents manifest). */
  graphql?: GraphQLAppOptions;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: LogDestination;
}

/** The whole HTTP face: REST routes, GraphQL, health and the OpenAPI document. Call `listen` or `inject`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const now = options.now ?? (() => new Date());
  // First: an unusable trusted documents manifest stops the start with a ConfigError.
  const graphqlLimits = graphqlProtections(options.config, options.graphql);
  const observability = createObservability({ db: options.db, production: options.config.production, config: options.config });
  const deps: Deps = {
    db: options.db,
    now,
    payments: options.payments ?? (await paymentProcessor(options.config, now)),
    holdTtlSeconds: options.config.HOLD_TTL_SECONDS,
    waitlistOfferTtlSeconds: options.config.WAITLIST_OFFER_TTL_SECONDS,
    intentCheckAfterSeconds: (options.intentReconciler ?? intentCheckDefaults).checkAfterSeconds,
    publishableHolds: publishableHoldSettings(options.config),
    observer: observability.observer,
    humanCheck: options.humanCheck ?? humanCheckVerifier(options.config),
  };
  const http = httpSettings(options.config);
  const app = Fastify({
    logger: loggerOptions(options.config.LOG_LEVEL, options.logStream ?? standardOutput()),
    ...serverOptions(http),
    // Each request's id, and the moment it arrived (what its data version may be judged by: data-version.ts).
    genReqId: (raw) => {
      markArrival(raw);
      return randomUUID();
    },
    // One access line per request, written by observability when the answer is sent (with route, key, brand, operation).
    logController: observability.logController,
    bodyLimit: 1024 * 1024,
    ...drainOptions,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installDeadlines(app, http.requestTimeoutMs);
  // Before the rate limit and authentication: preflights carry no key and use no budget.
  await installCors(app, deps.db, { origins: options.config.CORS_ORIGINS ?? [], localhost: !options.config.production });
  const refuseMethod = (request: FastifyRequest, reply: FastifyReply, path: string, allowed: string[]) => {
    reply.header('allow', allowed.join(', '));
    return sendError(reply, request, 'METHOD_NOT_ALLOWED', `${path} does not take ${request.method}; it takes ${allowed.join(', ')}`);
  };
  const allowedMethods = trackAllowedMethods(app, refuseMethod);
  refuseWhileDraining(app);
  app.setErrorHandler(restErrorHandler);
  // Bodies exactly as sent, query strings and path parameters parsed from text (src/rest/validation.ts).
  app.setValidatorCompiler(validatorCompiler);
  // After CORS (a browser must be able to read the 503), before anything that reads the database.
  const writesSaturated = installWriteAdmission(app, http.writeQueueLimit, ['/graphql', '/graphql/stream', MCP_PATH]);
  const spendLive = await installRateLimit(app, deps.db, http);
  trackSocketRequests(app);
  observability.install(app);
  app.readiness.watchWriteAdmission(writesSaturated);
  // Holds, offers, webhook deliveries and pending refunds are worked on in the background from the database.
  const webhooks = webhookRuntime(options.config, options.webhooks);
  const jobs = backgroundJobs(
    deps,
    {
      webhooks,
      refundReconciler: refundReconcilerSettings(options.config, options.refunds),
      intentReconciler: options.intentReconciler,
      live: { catchUpIntervalMs: options.config.LIVE_CATCH_UP_INTERVAL_MS ?? liveHubDefaults.catchUpIntervalMs },
    },
    app.log,
  );
  app.addHook('onReady', async () => jobs.start());
  // A drain starts no new work (preClose); what is in flight is awaited once the requests are answered.
  app.addHook('preClose', async () => jobs.beginStop());
  app.addHook('onClose', async () => jobs.stopped());
  // Before the hooks that keep answers (idempotency, the response cache): a refused answer is never kept.
  installResponseCeiling(app, graphqlLimits.maxResponseBytes);
  // Before any route is registered: its hooks and JSON parser must cover every POST, /graphql included.
  installIdempotency(app, deps, webhooks.settings.encryptionKeys, idempotencyLeaseMs(http));
  const cachePlugins = http.responseCacheMaxBytes > 0 ? [cacheableAnswers(markCacheable)] : [];
  if (http.responseCacheMaxBytes > 0) {
    installResponseCache(app, {
      cache: new ResponseCache(() => deps.db.dataVersion(), http.responseCacheMaxBytes),
      principalOf: async (request) => authenticateRequest(deps.db, request),
      generationOf: (request) => dataVersionFor(deps.db, request),
      countLookup: (api, outcome) => observability.metrics.countCacheLookup(api, outcome),
      replayedOperation: (request, operation, seconds) => observability.replayedOperation(request, operation, seconds),
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = allowedMethods(path);
    if (allowed.length === 0) return sendError(reply, request, 'NOT_FOUND', `No route for ${request.method} ${path}`);
    return refuseMethod(request, reply, path, allowed);
  });

  for (const schema of namedSchemas) app.addSchema(schema);
  await app.register(fastifySwagger, openapiOptions);
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  // GraphiQL from node_modules goes with Apollo's landing page (outside production), which links to it.
  if (!options.config.production) await registerGraphiQL(app);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(restRoutes(deps, webhooks.settings));
  await app.register(publicRoutes(deps));
  // The MCP face for AI assistants (src/mcp): its tools call the same domain functions; write tools are admitted as they run.
  await app.register(mcpRoutes(deps, mcpSettings(options.config)));

  const schema = buildTesseraSchema();
  const apollo = createGraphQLServer({
    schema,
    production: options.config.production,
    log: app.log,
    plugins: [observability.graphqlPlugin, admitMutations(http.writeQueueLimit), queryMarker(), ...cachePlugins],
    protections: graphqlLimits,
    publicMaxAgeSeconds: http.graphqlPublicMaxAgeSeconds,
    executor: options.graphql?.executor,
  });
  await apollo.start();
  installDocumentGate(app, graphqlLimits);
  installNoStoreDefault(app);
  const buildContext = graphqlContextFactory(deps, webhooks.settings);
  const apolloContext = linkContext(async (request): Promise<GraphQLContext> => {
    try {
      return await buildContext(request);
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) {
        // The key could not be checked: 503 with Retry-After, set here since Apollo runs no plugin for it.
        turnedAway.DATABASE_UNAVAILABLE.log(request.log, error);
        throw turnedAwayError(turnedAway.DATABASE_UNAVAILABLE);
      }
      // Apollo answers a masked INTERNAL_SERVER_ERROR without running any plugin: log it here.
      request.log.error({ err: error }, 'GraphQL context failed');
      throw error;
    }
  });
  // GET /graphql is shared with the WebSocket upgrade of live updates; Apollo's own route takes the rest.
  const live = await installLive(app, {
    schema,
    db: deps.db,
    protections: graphqlLimits,
    settings: liveSettings(options.config),
    buildContext,
    spend: spendLive,
    httpGet: fastifyApolloHandler(apollo, { context: apolloContext }) as ApolloGetHandler,
  });
  app.decorate('liveConnections', live);
  observability.metrics.observeLive(live);
  await app.register(fastifyApollo(apollo), { method: ['POST', 'OPTIONS'], context: apolloContext });
  return app;
}
