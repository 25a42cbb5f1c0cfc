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
import type { ServerResponse } from 'node:http';
import fastifyWebsocket, { type WebSocket } from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type GraphQLError, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { handleProtocols, makeServer, type Context } from 'graphql-ws';
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
  /** The upgrade's request, with the key of `connection_init`. */
  request: LiveRequestLike;
  release(): void;
  untrack(): void;
  /** The running subscriptions' ends, by id. */
  running: Map<string, () => void>;
}

/**
 * What graphql-ws keeps of a connection beside its socket: the upgrade request until `connection_init` is
 * handled, then the connection. Fastify's request, its reply and Node's objects under them are not kept:
 * thousands of idle subscribers would each hold them for as long as they stay connected.
 */
interface LiveExtra {
  socket: WebSocket;
  upgrade: LiveRequestLike | null;
  connection?: Connection;
}
type LiveContext = Context<Record<string, unknown>, LiveExtra>;

const graphqlRoute = { url: '/graphql' } as const;

/** The handshake's own headers, which nothing after the upgrade reads. */
const handshakeHeaders = new Set([
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
]);

/** The upgrade as live operations read it: its id, address and headers (less the handshake's). */
function upgradeRequest(request: FastifyRequest): LiveRequestLike {
  const headers: LiveRequestLike['headers'] = {};
  for (const [name, value] of Object.entries(request.headers)) if (!handshakeHeaders.has(name)) headers[name] = value;
  return { id: String(request.id), headers, ip: request.ip, routeOptions: graphqlRoute };
}

/** The upgrade with the key of `connection_init` in place of any header it carried. */
function connectionRequest(upgrade: LiveRequestLike, params: Readonly<Record<string, unknown>> | undefined): LiveRequestLike {
  const authorization = params?.authorization ?? params?.Authorization;
  return typeof authorization === 'string' ? { ...upgrade, headers: { ...upgrade.headers, authorization } } : upgrade;
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

/** graphql-ws with Tessera's keys, limits and error shapes: `open` serves it on a socket just upgraded. */
function liveServer(app: FastifyInstance, live: LiveServices) {
  const { operations, settings, connections } = live;
  const closeWith = (ctx: LiveContext, code: number, reason: string) => ctx.extra.socket.close(code, closeReason(reason));

  const onConnect = async (ctx: LiveContext): Promise<boolean> => {
    const request = connectionRequest(ctx.extra.upgrade!, ctx.connectionParams);
    ctx.extra.upgrade = null;
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
      ctx.extra.connection = { request, release, untrack, running: new Map() };
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

  const server = makeServer<Record<string, unknown>, LiveExtra>({
    schema: live.schema,
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
  });

  return function open(socket: WebSocket, upgrade: LiveRequestLike): void {
    // What the closures below keep: the id alone (graphql-ws drops the upgrade once the connection is made).
    const requestId = upgrade.id;
    // ws emits 'error' for a client breaking the protocol (a frame too large, bad UTF-8) and closes the
    // connection itself with the matching code.
    socket.on('error', (error) => app.log.info({ err: error, reqId: requestId }, 'live connection broke the WebSocket protocol'));
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (received) =>
          socket.on('message', (data) => {
            received(String(data)).catch((error: unknown) => {
              app.log.error({ err: error, reqId: requestId }, 'live message failed');
              socket.close(LIVE_CLOSE.internal, 'Internal server error');
            });
          }),
      },
      { socket, upgrade },
    );
    socket.once('close', (code, reason) => {
      closed(code, String(reason)).catch((error: unknown) =>
        app.log.error({ err: error, reqId: requestId }, 'live connection failed to close'),
      );
    });
  };
}

/**
 * Pings every open socket of `server` each `intervalMs`, from one timer rather than one per connection; a
 * socket that has not answered the last ping by the next is cut off (graphql-ws's rule: a pong within the
 * interval). `watch` each socket as it opens; the answer stops the timer.
 */
function keepAlive(server: FastifyInstance['websocketServer'], intervalMs: number) {
  const unanswered = new WeakSet<WebSocket>();
  function answered(this: WebSocket) {
    unanswered.delete(this);
  }
  const timer =
    intervalMs > 0 && Number.isFinite(intervalMs)
      ? setInterval(() => {
          for (const socket of server.clients) {
            if (socket.readyState !== socket.OPEN) continue;
            if (unanswered.has(socket)) socket.terminate();
            else {
              unanswered.add(socket);
              socket.ping();
            }
          }
        }, intervalMs).unref()
      : null;
  return {
    watch: (socket: WebSocket) => socket.on('pong', answered),
    stop: () => clearInterval(timer ?? undefined),
  };
}

/**
 * Registers @fastify/websocket and GET /graphql: Apollo's handler for HTTP GETs, graphql-ws for upgrades.
 * The upgrade passes Fastify's hooks as any request does (draining, the rate limit by address); the
 * connection is then graphql-ws's, on the socket alone. Call before Apollo's own route is registered
 * (which then takes POST only).
 */
export async function installLiveWebSocket(app: FastifyInstance, live: LiveServices, httpGet: ApolloGetHandler): Promise<void> {
  const connections = live.connections;
  let stopKeepAlive = () => {};
  await app.register(fastifyWebsocket, {
    // A subscribe message is a document and its variables: POST /graphql's body limit.
    options: { maxPayload: 1024 * 1024, handleProtocols },
    preClose(done) {
      const server = this.websocketServer;
      stopKeepAlive();
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
  const open = liveServer(app, live);
  const alive = keepAlive(app.websocketServer, live.settings.keepAliveMs);
  stopKeepAlive = alive.stop;
  // The response @fastify/websocket made for each upgrade, which Node keeps on the socket until released.
  const upgradeResponses = new WeakMap<FastifyRequest, ServerResponse>();
  app.route({
    method: 'GET',
    url: '/graphql',
    onRequest: (request, reply, done) => {
      if (request.ws) upgradeResponses.set(request, reply.raw);
      done();
    },
    handler: (request, reply) => httpGet(request, reply),
    wsHandler: (socket, request) => {
      // Nothing of the upgrade's HTTP objects stays with the connection: the response is released from the
      // socket, and @fastify/websocket's error listener, which closes over Fastify's request and reply, gives
      // way to the one `open` adds.
      const response = upgradeResponses.get(request);
      if (response?.socket) response.detachSocket(response.socket);
      socket.removeAllListeners('error');
      alive.watch(socket);
      open(socket, upgradeRequest(request));
    },
  });
}
