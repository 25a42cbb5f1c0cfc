/**
 * Live updates: GraphQL subscriptions on the schema Apollo serves, over WebSocket (GET /graphql, graphql-ws)
 * and Server-Sent Events (/graphql/stream, graphql-sse), with HTTP's keys, limits and error shapes.
 */
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { authenticateRequest } from '../../auth/request-principal.ts';
import type { Database } from '../../domain/shared/database.ts';
import type { BudgetRequest } from '../../http/rate-limit.ts';
import type { ContextRequest, GraphQLContext } from '../context.ts';
import type { GraphQLProtections } from '../protections/settings.ts';
import { LiveConnections } from './connections.ts';
import { liveOperations } from './operation.ts';
import type { LiveSettings } from './settings.ts';
import { installLiveSse } from './sse.ts';
import { installLiveWebSocket, type ApolloGetHandler } from './websocket.ts';

export interface LiveOptions {
  schema: GraphQLSchema;
  db: Database;
  protections: GraphQLProtections;
  settings: LiveSettings;
  /** The HTTP context factory (src/graphql/context.ts): the same keys, scopes and brand rules. */
  buildContext(request: ContextRequest): Promise<GraphQLContext>;
  /** The rate limit's spending for live operations (src/http/rate-limit.ts). */
  spend(request: BudgetRequest): Promise<void>;
  /** Apollo's handler for GET /graphql, which shares its route with the WebSocket upgrade. */
  httpGet: ApolloGetHandler;
}

/** Installs both transports; returns the gateway's live connections (open sockets and streams). */
export async function installLive(app: FastifyInstance, options: LiveOptions): Promise<LiveConnections> {
  const connections = new LiveConnections(options.settings.maxConnectionsPerKey);
  const services = {
    schema: options.schema,
    operations: liveOperations(options.schema, options.protections, app.log),
    settings: options.settings,
    connections,
    authenticate: (request: { headers: ContextRequest['headers'] }) => authenticateRequest(options.db, request),
    spend: (request: BudgetRequest) => options.spend(request),
    buildContext: (request: ContextRequest) => options.buildContext(request),
  };
  await installLiveWebSocket(app, services, options.httpGet);
  installLiveSse(app, services);
  return connections;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This gateway's open live connections (WebSockets and event streams). */
    liveConnections: LiveConnections;
  }
}
