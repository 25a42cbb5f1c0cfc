/**
 * Per-API-key rate limits on both faces (REST and /graphql share the budget). A request with a valid
 * secret key spends that key's budget, one with a publishable key the budget of that key from the
 * client's address; anything else (no key, a wrong key, wrong brand headers) spends the
 * budget of its client address, much smaller, so guessing keys is slow too. Every limited answer
 * carries X-RateLimit-Limit, -Remaining and -Reset; a refused one is 429 RATE_LIMITED with Retry-After.
 */
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { authenticateRequest } from '../auth/request-principal.ts';
import type { Database } from '../domain/shared/database.ts';
import { DomainError } from '../domain/shared/errors.ts';
import type { RestApp } from '../rest/plugin.ts';
import type { HttpSettings } from './settings.ts';

/** Probes and scrapers must answer whatever the traffic: never limited. */
export const RATE_LIMIT_EXEMPT_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The payment processor's webhook carries no API key (its signature is the credential) and arrives in
 * bursts: it is limited per address with a key's budget, apart from anonymous traffic.
 */
const PROCESSOR_ROUTES: ReadonlySet<string> = new Set(['/v1/webhooks/payments']);

const WINDOW_MS = 60_000;

async function budgetKey(db: Database, request: FastifyRequest): Promise<string> {
  // One budget per IPv6 /64, as the plugin does by default: a client holds a whole /64 and could rotate within it.
  const address = normalizeIP(request.ip, 64);
  try {
    const principal = await authenticateRequest(db, request);
    // A publishable key is shared by every visitor of a shop: each visitor's address gets a key's budget.
    if (principal?.kind === 'publishable') return `key:${principal.keyId}:${address}`;
    if (principal) return `key:${principal.keyId}`;
  } catch {
    // Bad credentials are refused later by the route; meanwhile they spend the address's budget.
  }
  const route = request.routeOptions.url;
  return route && PROCESSOR_ROUTES.has(route) ? `processor:${address}` : `ip:${address}`;
}

export async function installRateLimit(
  app: RestApp,
  db: Database,
  settings: Pick<HttpSettings, 'rateLimitPerMinute' | 'anonymousRateLimitPerMinute'>,
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

  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route && RATE_LIMIT_EXEMPT_ROUTES.has(route)) return;
    // CORS preflights (src/http/cors.ts) carry no key and do no work: a page's budget is spent by its requests.
    if (request.method === 'OPTIONS') return;
    const limit = await spend(request);
    if (limit.isAllowed) return;
    reply.header('x-ratelimit-limit', limit.max);
    reply.header('x-ratelimit-remaining', limit.remaining);
    reply.header('x-ratelimit-reset', limit.ttlInSeconds);
    if (!limit.isExceeded) return;
    reply.header('retry-after', limit.ttlInSeconds);
    const who = limit.key.startsWith('ip:') ? 'requests without a valid API key from this address' : 'this API key';
    throw new DomainError(
      'RATE_LIMITED',
      `Rate limit exceeded: ${limit.max} requests per minute for ${who}; retry in ${limit.ttlInSeconds} s`,
    );
  });
}
