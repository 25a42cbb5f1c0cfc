/**
 * GraphQL subscriptions over WebSocket (the graphql-transport-ws protocol of the `graphql-ws` package, as
 * Apollo Client's GraphQLWsLink, urql, Relay, GraphiQL and Apollo Sandbox speak it) on GET /graphql, next
 * to Apollo's HTTP handler on the same route. The key comes in `connection_init`'s payload
 * (`{ authorization: "Bearer <key>" }`, since browsers cannot set headers on a WebSocket) and is checked
 * at once, with the upgrade's Origin, as an HTTP request's would be; the connection is then counted
 * against its key and each subscription spends the key's request budget.
 *
 * Close codes (graphql-ws conventions where it has one): 4401 no key or a wrong one, 4403 a key refused
 * (origin, brand), 4429 too many connections or requests for the key, 1013 the client reads too slowly or
 * the database cannot check the key now (reconnect later), 1012 the gateway is restarting (reconnect,
 * possibly elsewhere), 4500 an unexpected failure.
 */
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type GraphQLError, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { makeHandler, type Extra } from 'graphql-ws/use/@fastify/websocket';
import type { Context } from 'graphql-ws';
import type { Principal } from '../../domain/access/principal.ts';
import { DatabaseUnavailableError } from '../../domain/shared/database.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { clientAddress } from '../../http/client-address.ts';
import type { GraphQLContext } from '../context.ts';
import { closeReason, connectionOwner, type LiveConnections } from './connections.ts';
import { refused, type LiveOperations, type LiveRequest } from './operation.ts';
import type { LiveSettings } from './settings.ts';

/** Apollo's handler for GET /graphql (`fastifyApolloHandler`), which shares its route with the upgrade. */
export type ApolloGetHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export const LIVE_CLOSE = {
  unauthorized: 4401,
  forbidden: 4403,
  tooMany: 4429,
  internal: 4500,
  tryAgainLater: 1013,
  serviceRestart: 1012,
} as const;

/** How long clients have to answer the shutdown's close before their sockets are cut. */
const CLOSE_GRACE_MS = 1_000;

/** The request a live operation stands for: what authentication, the rate limit and the context read of one. */
export interface LiveRequestLike {
  id: string;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
  routeOptions: { url: string };
}

export interface LiveServices {
  schema: GraphQLSchema;
  operations: LiveOperations;
  settings: LiveSettings;
  connections: LiveConnections;
  /** The caller's key, as HTTP authenticates it (src/auth); throws DomainError for a wrong one. */
  authenticate(request: Pick<LiveRequestLike, 'headers'>): Promise<Principal | null>;
  /** Spends the request budgets of the key (and publishable client) as an HTTP request does; throws RATE_LIMITED past them. */
  spend(request: LiveRequestLike): Promise<void>;
  buildContext(request: LiveRequestLike): Promise<GraphQLContext>;
}

interface Connection {
  request: LiveRequestLike;
  release(): void;
  untrack(): void;
  /** The running subscriptions' ends, by id. */
  running: Map<string, () => void>;
}

type LiveExtra = { connection?: Connection };
type LiveContext = Context<Record<string, unknown>, Extra & Partial<LiveExtra>>;

/** The headers of the upgrade, with the key of `connection_init` in place of any it carried. */
function connectionRequest(request: FastifyRequest, params: Readonly<Record<string, unknown>> | undefined): LiveRequestLike {
  const authorization = params?.authorization ?? params?.Authorization;
  return {
    id: String(request.id),
    headers: { ...request.headers, ...(typeof authorization === 'string' ? { authorization } : {}) },
    ip: request.ip,
    routeOptions: { url: '/graphql' },
  };
}

/** Why a key was refused, as a close code and reason. */
function refusalClose(error: unknown): [number, string] | null {
  if (error instanceof DomainError) {
    if (error.code === 'UNAUTHENTICATED') return [LIVE_CLOSE.unauthorized, error.message];
    if (error.code === 'RATE_LIMITED') return [LIVE_CLOSE.tooMany, error.message];
    return [LIVE_CLOSE.forbidden, error.message];
  }
  if (error instanceof DatabaseUnavailableError) return [LIVE_CLOSE.tryAgainLater, 'The API key cannot be checked now; reconnect later.'];
  return null;
}

const tooMany = (max: number) =>
  refused(
    `This connection already has ${max} subscriptions open, the most it may (LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION); complete one first.`,
    {
      code: 'TOO_MANY_SUBSCRIPTIONS',
      limit: max,
    },
  );

function handler(app: FastifyInstance, live: LiveServices) {
  const { operations, settings, connections } = live;
  const closeWith = (ctx: LiveContext, code: number, reason: string) => ctx.extra.socket.close(code, closeReason(reason));

  const onConnect = async (ctx: LiveContext): Promise<boolean> => {
    const request = connectionRequest(ctx.extra.request, ctx.connectionParams);
    try {
      const principal = await live.authenticate(request);
      if (!principal) {
        closeWith(
          ctx,
          LIVE_CLOSE.unauthorized,
          'This connection needs an API key: send { "authorization": "Bearer <key>" } in connection_init.',
        );
        return false;
      }
      await live.spend(request);
      const release = connections.admit(connectionOwner(principal, clientAddress(request)));
      if (!release) {
        closeWith(
          ctx,
          LIVE_CLOSE.tooMany,
          `This API key already has ${settings.maxConnectionsPerKey} live connections open on this gateway.`,
        );
        return false;
      }
      const untrack = connections.track((code, reason) => closeWith(ctx, code, reason));
      (ctx.extra as LiveExtra).connection = { request, release, untrack, running: new Map() };
      return true;
    } catch (error) {
      const [code, reason] = refusalClose(error) ?? [LIVE_CLOSE.internal, 'Internal server error'];
      if (code === LIVE_CLOSE.internal) app.log.error({ err: error, reqId: request.id }, 'live connection failed');
      closeWith(ctx, code, reason);
      return false;
    }
  };

  const onSubscribe = async (ctx: LiveContext, id: string, payload: LiveRequest): Promise<ExecutionArgs | GraphQLError[]> => {
    const connection = ctx.extra.connection!;
    // graphql-ws has reserved this id already: the count includes it.
    if (Object.keys(ctx.subscriptions).length > settings.maxSubscriptionsPerConnection)
      return [tooMany(settings.maxSubscriptionsPerConnection)];
    const requestId = `${connection.request.id}:${id}`;
    try {
      await live.spend(connection.request);
      const prepared = operations.prepare(payload);
      if (Array.isArray(prepared)) return prepared;
      const contextValue = await live.buildContext({ ...connection.request, id: requestId });
      return { schema: live.schema, ...prepared, contextValue };
    } catch (error) {
      return operations.thrown(error, requestId).map((e) => refused(e.message, e.extensions));
    }
  };

  const formatted = (ctx: LiveContext, id: string, result: ExecutionResult) => {
    const requestId = `${ctx.extra.connection?.request.id}:${id}`;
    return result.errors ? { ...result, errors: operations.format(result.errors, requestId) } : result;
  };

  return makeHandler<Record<string, unknown>, LiveExtra>(
    {
      schema: live.schema,
      isProd: true,
      onConnect,
      onSubscribe: (ctx, id, payload) => onSubscribe(ctx, id, payload),
      subscribe: (args) => operations.subscribe(args),
      onOperation: (ctx, id, _payload, _args, result) => {
        if (Symbol.asyncIterator in result) ctx.extra.connection?.running.set(id, connections.subscriptionStarted());
      },
      onComplete: (ctx, id) => {
        ctx.extra.connection?.running.get(id)?.();
        ctx.extra.connection?.running.delete(id);
      },
      onNext: (ctx, id, _payload, _args, result) => {
        const socket = ctx.extra.socket;
        // A client that does not read: drop it (it reconnects and resumes) rather than queue without bound.
        if (socket.bufferedAmount > settings.maxBufferedBytes) {
          closeWith(ctx, LIVE_CLOSE.tryAgainLater, 'The client reads updates too slowly; reconnect and resume.');
        }
        return formatted(ctx, id, result as ExecutionResult);
      },
      onError: (ctx, id, _payload, errors) => operations.format(errors, `${ctx.extra.connection?.request.id}:${id}`),
      onClose: (ctx) => {
        for (const end of ctx.extra.connection?.running.values() ?? []) end();
        ctx.extra.connection?.release();
        ctx.extra.connection?.untrack();
      },
    },
    settings.keepAliveMs,
  );
}

/**
 * Registers @fastify/websocket and GET /graphql: Apollo's handler for HTTP GETs, graphql-ws for upgrades.
 * Call before Apollo's own route is registered (which then takes POST only).
 */
export async function installLiveWebSocket(app: FastifyInstance, live: LiveServices, httpGet: ApolloGetHandler): Promise<void> {
  const connections = live.connections;
  await app.register(fastifyWebsocket, {
    // A subscribe message is a document and its variables: POST /graphql's body limit.
    options: { maxPayload: 1024 * 1024 },
    preClose(done) {
      const server = this.websocketServer;
      connections.closeAll(LIVE_CLOSE.serviceRestart, 'The gateway is restarting: reconnect.');
      // A client that does not answer the close is cut off rather than holding the drain up (ws waits 30 s).
      const cutoff = setTimeout(() => {
        for (const socket of server.clients) socket.terminate();
      }, CLOSE_GRACE_MS);
      server.close(() => {
        clearTimeout(cutoff);
        done();
      });
    },
  });
  app.route({
    method: 'GET',
    url: '/graphql',
    handler: (request, reply) => httpGet(request, reply),
    wsHandler: handler(app, live),
  });
}
