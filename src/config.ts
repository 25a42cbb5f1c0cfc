import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseOrigin } from './domain/access/publishable.ts';
import { graphqlDefaults } from './graphql/protections/defaults.ts';
import { refundReconcilerDefaults } from './domain/cancellation/refund-reconciler.ts';
import { liveHubDefaults } from './domain/live/hub.ts';
import { httpDefaults } from './http/settings.ts';
import { liveDefaults } from './graphql/live/defaults.ts';
import { postgresDefaults } from './db/postgres/defaults.ts';
import { admissionDefaults } from './db/admission.ts';
import { isPostgresUrl, redactDatabaseUrl } from './db/engine.ts';
import { readinessDefaults } from './observability/readiness.ts';
import { humanCheckDefaults } from './adapters/human-check/index.ts';

/** Webhook delivery defaults, shared with `buildApp` callers that pass no full config. */
export const webhookDefaults = {
  timeoutMs: 10_000,
  retryBaseSeconds: 10,
  maxAgeSeconds: 3 * 86_400,
  concurrency: 32,
  endpointConcurrency: 4,
  disableAfterSeconds: 3 * 86_400,
} as const;

/**
 * The key used outside production when neither ENCRYPTION_KEYS nor ENCRYPTION_KEY is set. It is public (it is in this file),
 * so production refuses it: secrets encrypted under it are only as safe as the database file.
 */
export const DEVELOPMENT_ENCRYPTION_KEY = Buffer.from('tessera-development-webhooks-key').toString('base64');

function isEncryptionKey(value: string): boolean {
  return /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

/**
 * The path a `file:` URL names, as SQLite tools and ORMs write one (`file:./dev.db`, `file:/srv/tessera.db`,
 * `file:///srv/tessera.db`, `file://localhost/srv/tessera.db`); undefined for anything else, and for a URL
 * with a query (SQLite's `?mode=ro` and the like), another host or a broken escape, which is refused
 * rather than opened without what it asks.
 */
function sqliteFileUrlPath(url: string): string | undefined {
  if (!/^file:./i.test(url) || /[?#]/.test(url)) return undefined;
  try {
    return /^file:\/\//i.test(url) ? fileURLToPath(url) : decodeURIComponent(url.slice('file:'.length));
  } catch {
    return undefined;
  }
}

/**
 * A PostgreSQL URL without a host (`postgres://user:password@/db?host=/var/run/postgresql`, libpq's form for a
 * Unix socket, which node-postgres reads) is no WHATWG URL: checked with a stand-in host. The socket's folder
 * may also be the host itself, percent-encoded (`postgres://user:password@%2Fvar%2Frun%2Fpostgresql/db`).
 */
const withSocketHost = (url: string) => url.replace(/^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)\//i, '$1localhost/');

/**
 * DATABASE_URL as the gateway opens it: a SQLite path (a `file:` URL read as the path it names) or a
 * PostgreSQL URL; undefined for anything else, which is refused rather than taken for a file name.
 */
function databaseUrl(value: string): string | undefined {
  if (/^file:/i.test(value)) return sqliteFileUrlPath(value);
  if (isPostgresUrl(value)) return URL.canParse(withSocketHost(value)) ? value : undefined;
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value) ? undefined : value;
}

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The database: a SQLite file path, `file:` URL (read as its path) or `:memory:` (embedded), or a
   * `postgres://` / `postgresql://` URL (PostgreSQL 15 or newer). Any other URL is refused rather than taken
   * for a file name.
   */
  DATABASE_URL: z
    .string()
    .min(1)
    .default('./data/tessera.sqlite')
    .transform((v, ctx) => {
      const url = databaseUrl(v);
      if (url !== undefined) return url;
      ctx.issues.push({
        code: 'custom',
        input: v,
        message: 'must be a SQLite file path or file: URL, :memory:, or a PostgreSQL URL (postgres://user:password@host:5432/database)',
      });
      return z.NEVER;
    }),
  /** Connections one gateway opens to PostgreSQL at most; every gateway shares the server's max_connections. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(postgresDefaults.poolSize),
  /** Connecting to PostgreSQL, or waiting for a pooled connection while all are busy, at most; past it the request is 503. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(postgresDefaults.connectTimeoutMs),
  /** How long a request's write waits for its turn at the database at most before 503 OVERLOADED. */
  WRITE_QUEUE_TIMEOUT_MS: z.coerce.number().int().min(10).max(600_000).default(admissionDefaults.queueTimeoutMs),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOLD_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Unpaid holds made with a publishable key (an anonymous browser) lapse sooner, so hoarded places come back quickly. */
  PUBLISHABLE_HOLD_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Places one client (address) may hold unpaid at once across a brand through a publishable key; also a publishable cart's bound. */
  PUBLISHABLE_HOLD_PLACES_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(10),
  WAITLIST_OFFER_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(86_400),
  /**
   * `sandbox` (simulated payments, the default outside production) or `stripe` (the default when
   * STRIPE_SECRET_KEY is set); production must name one or set the key (docs/operations.md).
   */
  PAYMENT_PROCESSOR: z.enum(['sandbox', 'stripe']).optional(),
  /** Stripe's secret (or restricted) API key: with it, card payments go through Stripe. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(live|test)_\S+$/, 'must be a Stripe secret or restricted key (sk_live_..., sk_test_..., rk_...)')
    .optional(),
  /** The signing secret of the Stripe webhook endpoint that sends to POST /v1/webhooks/stripe (whsec_...). */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, 'must be a Stripe webhook signing secret (whsec_...)')
    .optional(),
  /** The Stripe API's base URL (https://api.stripe.com when unset); a proxy or a Stripe-compatible server may stand in. */
  STRIPE_API_BASE: z
    .string()
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http:// or https:// URL')
    .optional(),
  /** Stripe's publishable key (pk_live_..., pk_test_...), given to the booking page to mount the Payment Element. */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(live|test)_\S+$/, 'must be a Stripe publishable key (pk_live_..., pk_test_...)')
    .optional(),
  /** Encrypts secrets the server must read back (webhook signing secrets, stored idempotent answers): 32 random bytes, base64. Required in production. */
  ENCRYPTION_KEY: z.string().refine(isEncryptionKey, 'must be 32 bytes, base64 encoded (openssl rand -base64 32)').optional(),
  /** The same keys during a rotation, comma-separated, newest first: the newest seals, every one opens (see docs/operations.md). */
  ENCRYPTION_KEYS: z
    .string()
    .transform((v) => v.split(',').map((key) => key.trim()))
    .refine(
      (keys) => keys.every(isEncryptionKey),
      'must list keys of 32 bytes, base64 encoded (openssl rand -base64 32), comma-separated, newest first',
    )
    .refine((keys) => new Set(keys).size === keys.length, 'lists a key twice')
    .optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(webhookDefaults.timeoutMs),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().max(3_600).default(webhookDefaults.retryBaseSeconds),
  WEBHOOK_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .default(webhookDefaults.maxAgeSeconds),
  /** Deliveries one gateway has in flight at once. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(webhookDefaults.concurrency),
  /** Deliveries one endpoint has in flight at once, over every gateway: a slow endpoint holds no more places than this. */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(webhookDefaults.endpointConcurrency),
  /** An endpoint whose attempts have all failed this long (since its last success) is disabled. */
  WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(webhookDefaults.disableAfterSeconds),
  /** Defaults to true outside production, false in production (SSRF guard). */
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** GraphQL protections (src/graphql/protections/): each document and operation is refused above these. */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(graphqlDefaults.maxDepth),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1_000).default(graphqlDefaults.maxAliases),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).max(1_000).default(graphqlDefaults.maxDirectives),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).max(100_000).default(graphqlDefaults.maxTokens),
  GRAPHQL_MAX_DOCUMENT_BYTES: z.coerce.number().int().min(1_024).max(1_048_576).default(graphqlDefaults.maxDocumentBytes),
  /** The cost budget of publishable keys and requests without a key; secret keys have the next one. */
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).max(10_000_000).default(graphqlDefaults.maxCost),
  GRAPHQL_SECRET_KEY_MAX_COST: z.coerce.number().int().min(1).max(10_000_000).default(graphqlDefaults.secretKeyMaxCost),
  /** Bytes of a query's answer: above it, the answer is refused (RESPONSE_TOO_LARGE) rather than sent. */
  GRAPHQL_MAX_RESPONSE_BYTES: z.coerce.number().int().min(65_536).max(1_073_741_824).default(graphqlDefaults.maxResponseBytes),
  /** Introspection and field suggestions; unset means on outside production, off in production. */
  GRAPHQL_INTROSPECTION: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** An Apollo persisted query manifest: when set, only its operations run (read at start). */
  GRAPHQL_TRUSTED_DOCUMENTS: z.string().min(1).optional(),
  /**
   * The secret a supergraph router sends as `Tessera-Router-Token`: its own operations then run outside the
   * trusted documents manifest, and `_service` answers with introspection off (src/graphql/protections/router.ts).
   */
  GRAPHQL_ROUTER_TOKEN: z
    .string()
    .regex(/^\S{32,256}$/, 'must be 32 to 256 characters without spaces (openssl rand -hex 32)')
    .optional(),
  /** How long SIGTERM/SIGINT waits for in-flight requests and webhook deliveries before exiting non-zero anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * After SIGTERM/SIGINT, how long /readyz answers 503 while requests are still served normally, before the
   * listener closes and the drain above begins: load balancers notice and stop sending, so no client meets a
   * refused connection. Defaults to 5000 in production, 0 (close at once) otherwise.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(300_000).optional(),
  /** How long GET /readyz waits for its database check (a committed heartbeat write, then reads) before answering 503. */
  READINESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(readinessDefaults.timeoutMs),
  /** How long a readiness answer is reused, so frequent probes cost one heartbeat write per period; 0 checks every time. */
  READINESS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(readinessDefaults.cacheMs),
  /** HTTP protections (src/http/settings.ts): per-minute budgets per secret API key and per address without a key. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(httpDefaults.rateLimitPerMinute),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(httpDefaults.anonymousRateLimitPerMinute),
  /** Per client address of a publishable key (every browser of a brand shares the key, which has no budget of its own). */
  RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(httpDefaults.publishableClientRateLimitPerMinute),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(httpDefaults.requestTimeoutMs),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(httpDefaults.keepAliveTimeoutMs),
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(httpDefaults.connectionTimeoutMs),
  MAX_HEADER_BYTES: z.coerce.number().int().min(1_024).max(1_048_576).default(httpDefaults.maxHeaderBytes),
  /** Write requests (REST POST and DELETE, GraphQL mutations) one gateway takes at once, running or waiting; the next is 503 OVERLOADED at once. */
  WRITE_QUEUE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(httpDefaults.writeQueueLimit),
  /** Bytes of memory for cached catalogue answers, invalidated by every write; 0 turns the cache off. */
  RESPONSE_CACHE_MAX_BYTES: z.coerce.number().int().min(0).max(1_073_741_824).default(httpDefaults.responseCacheMaxBytes),
  /**
   * How far the JavaScript heap may grow past what the last full collection kept before the next, in
   * percent (src/heap.ts); 0 leaves V8's own rule, which lets it grow up to 300 % on a host with 2 GB or
   * more for the heap. A flag on node's command line (`--heap-growing-percent`) wins.
   */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(300).default(50),
  /** Seconds browsers and CDNs may keep a public catalogue answer to GET /graphql (publishable key); 0: every answer no-store. */
  GRAPHQL_PUBLIC_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(httpDefaults.graphqlPublicMaxAgeSeconds),
  /** Live updates (src/graphql/live): subscriptions one connection may hold open; the next is refused TOO_MANY_SUBSCRIPTIONS. */
  LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: z.coerce.number().int().min(1).max(10_000).default(liveDefaults.maxSubscriptionsPerConnection),
  /** Live connections one secret key, or one client address of a publishable key, may hold open on one gateway. */
  LIVE_MAX_CONNECTIONS_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(liveDefaults.maxConnectionsPerKey),
  /** WebSocket ping interval; a client that has not answered a ping by the next is dropped. */
  LIVE_KEEP_ALIVE_MS: z.coerce.number().int().min(1_000).max(600_000).default(liveDefaults.keepAliveMs),
  /** Bytes queued for a client that does not read before it is dropped (it reconnects and resumes). */
  LIVE_MAX_BUFFERED_BYTES: z.coerce.number().int().min(16_384).max(1_073_741_824).default(liveDefaults.maxBufferedBytes),
  /** Browser origins allowed by CORS besides publishable keys' own (and localhost outside production): comma-separated. */
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const origins = v ? v.split(',').map((entry) => entry.trim()) : [];
      try {
        return origins.map(parseOrigin);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
        return z.NEVER;
      }
    }),
  /**
   * The page a traveller opens to pay for places an assistant held through /mcp (src/mcp/settings.ts): the
   * booking page, or a page handing the payment intent's client secret to the processor's hosted form.
   * Unset: the hold tool answers no link.
   */
  MCP_PAYMENT_PAGE_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL')
    .optional(),
  /** Proxies whose X-Forwarded-For names the client: comma-separated addresses, CIDRs or loopback/linklocal/uniquelocal. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((entry) => entry.trim()) : []))
    .refine(
      (list) => list.every((e) => /^(loopback|linklocal|uniquelocal|[0-9A-Fa-f:.]+(\/\d{1,3})?)$/.test(e)),
      'must list addresses, CIDRs, loopback, linklocal or uniquelocal, comma-separated',
    ),
  /** Refund reconciliation (src/domain/cancellation/refund-reconciler.ts): finishing refunds a crash or an unanswered processor call left pending. */
  REFUND_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(refundReconcilerDefaults.intervalMs),
  REFUND_RECONCILE_GRACE_SECONDS: z.coerce.number().positive().max(86_400).default(refundReconcilerDefaults.graceSeconds),
  REFUND_RECONCILE_RETRY_BASE_SECONDS: z.coerce.number().positive().max(3_600).default(refundReconcilerDefaults.retryBaseSeconds),
  /** Keep it below how long the processor remembers idempotency keys (Stripe: 24 hours), or a late retry could refund twice. */
  REFUND_RECONCILE_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(refundReconcilerDefaults.maxAgeSeconds),
  /**
   * Live updates (src/domain/live/hub.ts): how often the gateway reads new events without a hint, so a
   * lost hint (a PostgreSQL LISTEN connection cut, another process on a SQLite file) delays them at most this.
   */
  LIVE_CATCH_UP_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(liveHubDefaults.catchUpIntervalMs),
  /**
   * Verifies human-check tokens for brands with the `requireHumanCheck` feature (src/domain/checkout/human-check.ts):
   * `sandbox` (the default outside production; refused in production) or `turnstile` (needs TURNSTILE_SECRET_KEY).
   * Unset in production: no verifier, so such brands' publishable checkouts are refused HUMAN_CHECK_UNAVAILABLE.
   */
  HUMAN_CHECK_PROVIDER: z.enum(['sandbox', 'turnstile']).optional(),
  /** The Turnstile widget's secret key (Cloudflare dashboard), with HUMAN_CHECK_PROVIDER=turnstile. */
  TURNSTILE_SECRET_KEY: z
    .string()
    .regex(/^\S{1,256}$/, 'must be 1 to 256 characters without spaces')
    .optional(),
  /** A human-check verification's whole call at most; past it the checkout is refused HUMAN_CHECK_UNAVAILABLE. */
  HUMAN_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(humanCheckDefaults.timeoutMs),
  /** Bearer token GET /metrics requires. Unset: /metrics is open outside production and absent (404) in production. */
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{16,256}$/, 'must be 16 to 256 characters without spaces (openssl rand -hex 32)')
    .optional(),
});

export type Config = Omit<
  z.infer<typeof schema>,
  'PAYMENT_PROCESSOR' | 'ENCRYPTION_KEY' | 'ENCRYPTION_KEYS' | 'WEBHOOK_ALLOW_PRIVATE_URLS' | 'SHUTDOWN_DRAIN_MS'
> & {
  PAYMENT_PROCESSOR: 'sandbox' | 'stripe';
  /** Base64 keys, newest first (ENCRYPTION_KEYS, or ENCRYPTION_KEY alone, or the development key). */
  ENCRYPTION_KEYS: [string, ...string[]];
  WEBHOOK_ALLOW_PRIVATE_URLS: boolean;
  SHUTDOWN_DRAIN_MS: number;
  production: boolean;
};

export class ConfigError extends Error {}

/**
 * SHUTDOWN_DRAIN_MS in production: the few seconds a terminating pod's removal from its Service takes to
 * reach kube-proxy and ingresses (docs/operations.md, "Deploys and shutdown").
 */
export const shutdownDrainProductionMs = 5_000;

const secretVariables = new Set([
  'ENCRYPTION_KEY',
  'ENCRYPTION_KEYS',
  'METRICS_TOKEN',
  'TURNSTILE_SECRET_KEY',
  'GRAPHQL_ROUTER_TOKEN',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
]);

/** The processor: Stripe when its key is set (with the webhook secret it needs), the sandbox otherwise. */
function paymentProcessor(
  settings: { PAYMENT_PROCESSOR?: 'sandbox' | 'stripe'; STRIPE_SECRET_KEY?: string; STRIPE_WEBHOOK_SECRET?: string },
  production: boolean,
): 'sandbox' | 'stripe' {
  const fail = (line: string) => {
    throw new ConfigError(`Invalid configuration:\n  ${line}`);
  };
  const stripe = settings.STRIPE_SECRET_KEY !== undefined;
  if (settings.PAYMENT_PROCESSOR === 'stripe' && !stripe) fail('STRIPE_SECRET_KEY: required with PAYMENT_PROCESSOR=stripe');
  if (settings.PAYMENT_PROCESSOR === 'sandbox' && stripe) {
    fail('PAYMENT_PROCESSOR: sandbox, while STRIPE_SECRET_KEY is set; unset one of them');
  }
  if (stripe && !settings.STRIPE_WEBHOOK_SECRET) {
    fail("STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (the webhook endpoint's signing secret, whsec_...)");
  }
  if (production && !stripe && !settings.PAYMENT_PROCESSOR) {
    fail(
      'PAYMENT_PROCESSOR: required in production; set STRIPE_SECRET_KEY to take cards through Stripe, or PAYMENT_PROCESSOR=sandbox to run with simulated payments',
    );
  }
  return stripe ? 'stripe' : 'sandbox';
}

/** The human-check provider's settings agree: Turnstile has its secret, the sandbox stays out of production. */
function checkHumanCheck(settings: { HUMAN_CHECK_PROVIDER?: string; TURNSTILE_SECRET_KEY?: string }, production: boolean): void {
  if (settings.HUMAN_CHECK_PROVIDER === 'turnstile' && !settings.TURNSTILE_SECRET_KEY) {
    throw new ConfigError(
      "Invalid configuration:\n  TURNSTILE_SECRET_KEY: required with HUMAN_CHECK_PROVIDER=turnstile (the widget's secret key, from the Cloudflare dashboard)",
    );
  }
  if (production && settings.HUMAN_CHECK_PROVIDER === 'sandbox') {
    throw new ConfigError(
      'Invalid configuration:\n  HUMAN_CHECK_PROVIDER: the sandbox passes any script that sends "pass"; in production use turnstile, or leave it unset',
    );
  }
}

/** Reads every setting from the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(blankAsUnset);
  if (!parsed.success) {
    // A malformed secret is still a secret: name the variable, never echo its value.
    const shown = (name: string) =>
      secretVariables.has(name)
        ? '<redacted>'
        : JSON.stringify(name === 'DATABASE_URL' && env[name] !== undefined ? redactDatabaseUrl(env[name]) : env[name]);
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${shown(String(i.path[0]))})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const production = parsed.data.NODE_ENV === 'production';
  const processor = paymentProcessor(parsed.data, production);
  const { ENCRYPTION_KEY: encryptionKey, ENCRYPTION_KEYS: encryptionKeys, ...settings } = parsed.data;
  if (encryptionKey && encryptionKeys) {
    throw new ConfigError(
      'Invalid configuration:\n  ENCRYPTION_KEYS: set it or ENCRYPTION_KEY, not both (ENCRYPTION_KEYS lists every key newest first, ENCRYPTION_KEY is a single key)',
    );
  }
  checkHumanCheck(settings, production);
  const keys = encryptionKeys ?? (encryptionKey ? [encryptionKey] : undefined);
  if (production && (!keys || keys.includes(DEVELOPMENT_ENCRYPTION_KEY))) {
    throw new ConfigError(
      'Invalid configuration:\n  ENCRYPTION_KEY: required in production (32 random bytes, base64: openssl rand -base64 32; or ENCRYPTION_KEYS during a rotation) and never the public development key; it encrypts webhook signing secrets and stored idempotent answers at rest',
    );
  }
  return {
    ...settings,
    PAYMENT_PROCESSOR: processor,
    ENCRYPTION_KEYS: keys ? [keys[0]!, ...keys.slice(1)] : [DEVELOPMENT_ENCRYPTION_KEY],
    WEBHOOK_ALLOW_PRIVATE_URLS: settings.WEBHOOK_ALLOW_PRIVATE_URLS ?? !production,
    SHUTDOWN_DRAIN_MS: settings.SHUTDOWN_DRAIN_MS ?? (production ? shutdownDrainProductionMs : 0),
    HUMAN_CHECK_PROVIDER: settings.HUMAN_CHECK_PROVIDER ?? (production ? undefined : 'sandbox'),
    production,
  };
}
