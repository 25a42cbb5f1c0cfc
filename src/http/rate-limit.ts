/**
 * Per-API-key rate limits on both faces (REST and /graphql share the budget). A request with a valid
 * secret key spends that key's budget. A publishable key is shared by every browser of its brand, so it
 * has no budget of its own: each of its clients (the key and the client's address, from X-Forwarded-For
 * only behind a trusted proxy) has one, and what its clients do together is bounded by the protections
 * every request meets (write admission, GraphQL cost limits). A key-wide budget would let a handful of
 * addresses spend it and refuse every other visitor of the brand (issue 34). Anything else (no key, a
 * wrong key, wrong brand headers) spends the budget of its client address, much smaller, so guessing keys
 * is slow too. Every limited answer carries X-RateLimit-Limit, -Remaining and -Reset; a refused one is
 * 429 RATE_LIMITED with Retry-After. Counters live in each gateway's memory: every budget is per gateway.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { authenticateRequest } from '../auth/request-principal.ts';
import type { Principal } from '../domain/access/principal.ts';
import type { Database } from '../domain/shared/database.ts';
import { DomainError } from '../domain/shared/errors.ts';
import type { RestApp } from '../rest/plugin.ts';
import type { HttpSettings } from './settings.ts';
import { clientAddress } from './client-address.ts';

/** Probes and scrapers must answer whatever the traffic: never limited. */
export const RATE_LIMIT_EXEMPT_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The payment processor's webhook carries no API key (its signature is the credential) and arrives in
 * bursts: it is limited per address with a key's budget, apart from anonymous traffic.
 */
const PROCESSOR_ROUTES: ReadonlySet<string> = new Set(['/v1/webhooks/payments']);

const WINDOW_MS = 60_000;

/** The request's key, looked up once however often it is asked (the budget, its key generator). */
const principals = new WeakMap<object, Promise<Principal | null>>();

/** What a budget reads of a request: an HTTP request, or a live operation standing for one (src/graphql/live). */
export type BudgetRequest = Pick<FastifyRequest, 'headers' | 'ip'> & { routeOptions: { url?: string } };

function principalOf(db: Database, request: BudgetRequest): Promise<Principal | null> {
  let principal = principals.get(request);
  if (!principal) {
    // Bad credentials are refused later by the route; meanwhile they spend the address's budget.
    principal = authenticateRequest(db, request).catch(() => null);
    principals.set(request, principal);
  }
  return principal;
}

async function budgetKey(db: Database, request: BudgetRequest): Promise<string> {
  const principal = await principalOf(db, request);
  if (principal) return `key:${principal.keyId}`;
  const route = request.routeOptions.url;
  return route && PROCESSOR_ROUTES.has(route) ? `processor:${clientAddress(request)}` : `ip:${clientAddress(request)}`;
}

/** The budget of one client of a publishable key: asked only for requests with a valid publishable key. */
async function clientBudgetKey(db: Database, request: BudgetRequest): Promise<string> {
  const principal = await principalOf(db, request);
  return `client:${principal?.keyId}:${clientAddress(request)}`;
}

type Spent = Awaited<ReturnType<ReturnType<RestApp['createRateLimit']>>>;
type Counted = Extract<Spent, { isAllowed: false }>;

function refusedBy(limit: Counted): string {
  if (limit.key.startsWith('ip:')) return 'requests without a valid API key from this address';
  if (limit.key.startsWith('client:')) return 'this publishable key from this address';
  return 'this API key';
}

export async function installRateLimit(
  app: RestApp,
  db: Database,
  settings: Pick<HttpSettings, 'rateLimitPerMinute' | 'anonymousRateLimitPerMinute' | 'publishableClientRateLimitPerMinute'>,
) {
  // The plugin's store and arithmetic, applied by the hook below (not per route), so the 429 body and
  // the headers are ours and unknown routes (404 probing) are limited as well.
  await app.register(fastifyRateLimit, {
    global: false,
    timeWindow: WINDOW_MS,
    keyGenerator: async (request) => budgetKey(db, request),
    max: async (_request, key) => (key.startsWith('ip:') ? settings.anonymousRateLimitPerMinute : settings.rateLimitPerMinute),
    // One entry per key or address seen in the window; the least recently seen go first beyond this.
    cache: 100_000,
  });
  const spend = app.createRateLimit();
  const spendClient = app.createRateLimit({
    keyGenerator: async (request) => clientBudgetKey(db, request),
    max: settings.publishableClientRateLimitPerMinute,
  });

  /** Spends the request's budget: the one to show the client, if it counted (exempt requests do not). */
  const spendBudget = async (request: BudgetRequest): Promise<Counted | null> => {
    const asked = request as unknown as FastifyRequest; // the plugin reads only what BudgetRequest names
    const publishable = (await principalOf(db, request))?.kind === 'publishable';
    const spent = publishable ? await spendClient(asked) : await spend(asked);
    return spent.isAllowed ? null : spent;
  };

  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route && RATE_LIMIT_EXEMPT_ROUTES.has(route)) return;
    // CORS preflights (src/http/cors.ts) carry no key and do no work: a page's budget is spent by its requests.
    if (request.method === 'OPTIONS') return;
    const shown = await spendBudget(request);
    if (!shown) return;
    reply.header('x-ratelimit-limit', shown.max);
    reply.header('x-ratelimit-remaining', shown.remaining);
    reply.header('x-ratelimit-reset', shown.ttlInSeconds);
    if (!shown.isExceeded) return;
    reply.header('retry-after', shown.ttlInSeconds);
    throw rateLimited(shown);
  });

  /** For live operations (a WebSocket connection, each subscription): spends as a request; throws RATE_LIMITED past a budget. */
  return async function spendLive(request: BudgetRequest): Promise<void> {
    const shown = await spendBudget(request);
    if (shown?.isExceeded) throw rateLimited(shown);
  };
}

function rateLimited(shown: Counted): DomainError {
  return new DomainError(
    'RATE_LIMITED',
    `Rate limit exceeded: ${shown.max} requests per minute for ${refusedBy(shown)}; retry in ${shown.ttlInSeconds} s`,
  );
}
