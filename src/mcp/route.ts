/**
 * `POST /mcp`: the Model Context Protocol face (Streamable HTTP, JSON answers, stateless), on every
 * gateway. The key is checked as REST checks it (`Authorization: Bearer <key>`, src/auth; a publishable
 * key's origins apply to browsers); the rate limit, the deadline and write admission are the app's own
 * hooks, as for any request. GET (a server-sent stream) and DELETE (ending a session) are refused 405:
 * with no session, there is no stream to resume and nothing to end, and every gateway answers every call.
 *
 * The SDK's web-standard transport answers a Request built from Fastify's, so the answer goes out
 * through Fastify's reply and its hooks (request id, logging, CORS) like any other.
 *
 * The SDK and the tools are loaded with the first call: a gateway nobody calls over MCP does not carry
 * them (with Stripe's SDK, also loaded only when used, a started gateway's resident memory is about 9 MB
 * lower on average, less than one reading's noise).
 */
import type * as TransportModule from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyRequest } from 'fastify';
import { requirePrincipal } from '../auth/authenticate.ts';
import { authenticateRequest } from '../auth/request-principal.ts';
import { readingEachBrandOnce } from '../domain/catalog/brands.ts';
import type { Deps } from '../domain/shared/deps.ts';
import { clientAddress } from '../http/client-address.ts';
import { withDeadline } from '../http/deadline.ts';
import { keysVersionFor } from '../http/data-version.ts';
import { humanCheckRequestOf } from '../http/human-check-request.ts';
import type { RestApp } from '../rest/plugin.ts';
import type * as ServerModule from './server.ts';
import type { McpSettings } from './settings.ts';

export const MCP_PATH = '/mcp';
const VERSION = '0.3.0';

function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(`http://${request.hostname || 'localhost'}${MCP_PATH}`, { method: request.method, headers });
}

let loading: Promise<[typeof ServerModule, typeof TransportModule]> | undefined;
const mcpModules = () =>
  (loading ??= Promise.all([import('./server.ts'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]).catch(
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));

export function mcpRoutes(deps: Deps, settings: McpSettings) {
  return async function mcp(app: RestApp) {
    app.post(MCP_PATH, { schema: { hide: true } }, async (request, reply) => {
      const principal = requirePrincipal(await authenticateRequest(deps.db, request));
      const [{ mcpServer }, { WebStandardStreamableHTTPServerTransport }] = await mcpModules();
      const caller = {
        ...readingEachBrandOnce(
          { ...deps, db: withDeadline(deps.db, request) },
          { database: deps.db, version: keysVersionFor(deps.db, request) },
        ),
        principal,
        clientAddress: clientAddress(request),
        humanCheckRequest: humanCheckRequestOf(request),
      };
      const server = mcpServer({ caller, settings, admitWrite: () => request.admitWrite(), log: request.log }, VERSION);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
        reply.code(response.status);
        response.headers.forEach((value, name) => void reply.header(name, value));
        const body = await response.text();
        return body;
      } finally {
        await server.close();
      }
    });
  };
}
