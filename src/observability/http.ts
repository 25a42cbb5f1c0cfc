/**
 * One access line per request, the request metrics, and the error codes of answers the GraphQL plugin
 * did not see (every REST error; GraphQL requests Apollo refused before running any plugin).
 */
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { canActFor, type Principal } from '../domain/access/principal.ts';
import { authenticateRequest } from '../auth/request-principal.ts';
import type { Database } from '../domain/shared/database.ts';
import { graphqlObservation } from './graphql.ts';
import type { Metrics } from './metrics.ts';

/** Probes and scrapes: logged at debug, so a probe every few seconds does not drown the access log. */
export const PROBE_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

const GRAPHQL_ROUTE = '/graphql';
/** Error bodies are small; anything larger is not one of ours and is not parsed. */
const MAX_ERROR_BODY = 64 * 1024;

async function principalOf(db: Database, request: FastifyRequest): Promise<Principal | null> {
  try {
    // Already answered (and cached) for this request by the rate limiter or the route's own auth.
    return await authenticateRequest(db, request);
  } catch {
    return null;
  }
}

/** The one brand of the key's scope named by the GraphQL variables' values (whatever the variable is called), if exactly one is. */
function variablesBrand(request: FastifyRequest, principal: Principal): string | undefined {
  const variables = (request.body as { variables?: unknown } | undefined)?.variables;
  if (!variables || typeof variables !== 'object') return undefined;
  // The first few values only: a log line is not worth scanning a megabyte of variables.
  const values = Object.values(variables).slice(0, 20);
  const named = new Set(values.filter((v): v is string => typeof v === 'string' && canActFor(principal, v)));
  return named.size === 1 ? [...named][0] : undefined;
}

/**
 * The brand a request acted for, when known: the path's `brandId`, else the brand of the key's scope
 * a GraphQL request's variables name, else the `Tessera-Brand-Id` header's, else the key's only brand.
 */
function brandOf(request: FastifyRequest, principal: Principal | null): string | undefined {
  const params = request.params as Record<string, unknown> | undefined;
  if (typeof params?.brandId === 'string') return params.brandId;
  if (!principal) return undefined;
  return (
    variablesBrand(request, principal) ?? principal.headerBrandId ?? (principal.brandIds.length === 1 ? principal.brandIds[0] : undefined)
  );
}

/** Method, route pattern and path (no query string), status, duration, key id (never the secret), brand, GraphQL operation. */
async function accessLine(db: Database, request: FastifyRequest, reply: FastifyReply, probe: boolean): Promise<Record<string, unknown>> {
  const principal = probe ? null : await principalOf(db, request);
  const graphql = graphqlObservation(request);
  return {
    method: request.method,
    route: request.routeOptions.url ?? null,
    path: request.url.split('?')[0]!.slice(0, 256),
    statusCode: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
    ...(principal ? { keyId: principal.keyId } : {}),
    ...(probe ? {} : { brandId: brandOf(request, principal) }),
    ...(graphql ? { operationName: graphql.operationName?.slice(0, 128) ?? null, operationType: graphql.operationType } : {}),
  };
}

/** `error.code` of a REST error body, `errors[].extensions.code` of a GraphQL one. */
function errorCodes(payload: unknown): unknown[] {
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
  if (typeof text !== 'string' || text.length > MAX_ERROR_BODY) return [];
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown }; errors?: Array<{ extensions?: { code?: unknown } }> };
    if (body.error?.code !== undefined) return [body.error.code];
    if (Array.isArray(body.errors)) return body.errors.map((e) => e?.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
  } catch {
    // Not JSON (a library's plain-text refusal): no code to count.
  }
  return [];
}

/**
 * Fastify's own per-request lines, less the two the access line replaces ("incoming request", "request
 * completed"): a response that fails while being sent is still logged ("request errored"), and so is
 * everything else Fastify reports (stream and serializer errors).
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error) super.requestCompleted(error, request, reply, metadata);
  }
}

export function installRequestObservability(app: FastifyInstance, db: Database, metrics: Metrics): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || graphqlObservation(request)?.errorsCounted) return payload;
    const api = request.routeOptions.url === GRAPHQL_ROUTE ? 'graphql' : 'rest';
    for (const code of errorCodes(payload)) metrics.countError(api, code);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    metrics.recordRequest({ method: request.method, route, statusCode: reply.statusCode, seconds: reply.elapsedTime / 1000 });
    const probe = route !== undefined && PROBE_ROUTES.has(route);
    const line = await accessLine(db, request, reply, probe);
    if (probe) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}
