/**
 * GraphQL subscriptions over Server-Sent Events (the `graphql-sse` package, its distinct connections
 * mode) on /graphql/stream, for networks that let HTTP through but not WebSockets: one request per
 * subscription, `Accept: text/event-stream`, POST with the JSON body of POST /graphql (or GET with its
 * query parameters). It is an HTTP request like any other: CORS, the rate limit and the key in its
 * headers apply as they do to /graphql; it counts as a live connection of its key, and meets the same
 * document limits as the WebSocket. Refusals before the stream starts are answered with a status and
 * `{ errors }` (401, 403, 429, 400); errors of the operation itself arrive as its first event.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/fastify';
import { clientAddress } from '../../http/client-address.ts';
import { connectionOwner } from './connections.ts';
import type { LiveRequestLike, LiveServices } from './websocket.ts';

type Answer = [string, { status: number; statusText: string; headers: Record<string, string> }];

const statusOf: Record<string, [number, string]> = {
  UNAUTHENTICATED: [401, 'Unauthorized'],
  FORBIDDEN: [403, 'Forbidden'],
  RATE_LIMITED: [429, 'Too Many Requests'],
  TOO_MANY_CONNECTIONS: [429, 'Too Many Requests'],
  DATABASE_UNAVAILABLE: [503, 'Service Unavailable'],
};

function answer(errors: readonly { message: string; extensions?: Record<string, unknown> }[], status?: [number, string]): Answer {
  const code = errors[0]?.extensions?.code;
  const [number, text] = status ?? (typeof code === 'string' ? statusOf[code] : undefined) ?? [400, 'Bad Request'];
  return [
    JSON.stringify({ errors: errors.map(({ message, extensions }) => ({ message, extensions })) }),
    { status: number, statusText: text, headers: { 'content-type': 'application/json; charset=utf-8' } },
  ];
}

function refusal(code: string, message: string): Answer {
  return answer([{ message, extensions: { code } }]);
}

export function installLiveSse(app: FastifyInstance, live: LiveServices, path = '/graphql/stream'): void {
  const { operations, settings, connections } = live;

  const onSubscribe = async (fastifyRequest: FastifyRequest, reply: FastifyReply, params: object): Promise<Answer | ExecutionArgs> => {
    const request: LiveRequestLike = {
      id: String(fastifyRequest.id),
      headers: fastifyRequest.headers,
      ip: fastifyRequest.ip,
      routeOptions: { url: path },
    };
    try {
      const principal = await live.authenticate(fastifyRequest);
      if (!principal) return refusal('UNAUTHENTICATED', 'This operation needs an API key: send "Authorization: Bearer <key>"');
      const prepared = operations.prepare(params);
      if (Array.isArray(prepared)) return answer(prepared.map((error) => error.toJSON()));
      const release = connections.admit(connectionOwner(principal, clientAddress(request)));
      if (!release) {
        return refusal(
          'TOO_MANY_CONNECTIONS',
          `This API key already has ${settings.maxConnectionsPerKey} live connections open on this gateway.`,
        );
      }
      const untrack = connections.track(() => reply.raw.end());
      reply.raw.once('close', () => {
        release();
        untrack();
      });
      return { schema: live.schema, ...prepared, contextValue: await live.buildContext(request) };
    } catch (error) {
      const shown = operations.thrown(error, request.id);
      const code = shown[0]?.extensions?.code;
      return answer(shown, code === 'INTERNAL_SERVER_ERROR' ? [500, 'Internal Server Error'] : undefined);
    }
  };

  const handle = createHandler<Record<PropertyKey, unknown>>({
    schema: live.schema,
    onSubscribe: (req, params) => onSubscribe(req.raw, req.context.reply, params) as never,
    subscribe: (args) => operations.subscribe(args),
    onOperation: (_ctx, req, _args, result) => {
      if (Symbol.asyncIterator in result) req.context.reply.raw.once('close', connections.subscriptionStarted());
    },
    onNext: (_ctx, req, result) => {
      const reply = req.context.reply;
      // A client that does not read: end its stream (it reconnects and resumes) rather than queue without bound.
      if (reply.raw.writableLength > settings.maxBufferedBytes) reply.raw.end();
      const { errors } = result as ExecutionResult;
      return errors ? { ...(result as ExecutionResult), errors: operations.format(errors, String(req.raw.id)) as never } : undefined;
    },
  });

  app.route({
    method: ['GET', 'POST'],
    url: path,
    schema: { hide: true },
    handler: async (request, reply) => {
      // graphql-sse writes the answer itself (with the headers the hooks set, CORS and request id included).
      reply.hijack();
      try {
        await handle(request, reply);
      } catch (error) {
        request.log.error({ err: error }, 'live stream failed');
        if (!reply.raw.headersSent) {
          const [body, init] = answer(
            [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: request.id } }],
            [500, 'Internal Server Error'],
          );
          reply.raw.writeHead(init.status, { ...init.headers, 'x-request-id': String(request.id) });
          reply.raw.end(body);
        } else reply.raw.end();
      }
    },
  });
}
