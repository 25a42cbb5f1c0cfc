import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.ts';

/**
 * Fastify options for a graceful `close()`: idle keep-alive connections are closed at once, connections
 * with a request in flight stay open until it is answered, and the listening socket stops accepting.
 * Fastify's own 503 during close (`return503OnClosing`) is off because its body is not the API's error
 * shape; `refuseWhileDraining` answers those requests instead.
 */
export const drainOptions = { forceCloseConnections: 'idle', return503OnClosing: false } as const;

/**
 * Requests that still reach a draining server (pipelined, or sent on a keep-alive connection busy when
 * the drain began) are answered `503 SERVICE_UNAVAILABLE` with `Connection: close`, so clients and
 * load balancers retry them elsewhere, and the drain does not take on new work.
 */
export function refuseWhileDraining(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    reply.header('connection', 'close').header('retry-after', '1');
    return sendError(reply, request, 'SERVICE_UNAVAILABLE', 'The server is shutting down; retry the request');
  });
  // The requests in flight when the drain began: their connections close once answered, instead of
  // idling as keep-alive until the timeout (which would hold the drain up that long).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (draining) reply.header('connection', 'close');
    return payload;
  });
}
