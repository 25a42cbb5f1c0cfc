/**
 * Write requests admitted at the door: one gateway takes at most WRITE_QUEUE_LIMIT write requests (REST
 * POST, PUT, PATCH and DELETE; GraphQL mutations) at once, running or waiting for the database, and
 * answers the next 503 OVERLOADED with Retry-After at once, before it costs a read, a connection or a
 * place in a queue. Without it a burst queues without end: every write waits behind all the others
 * (measured: a minute), its client gives up, and the write still happens. Reads are never counted, so
 * they keep being served while writes are refused.
 */
import type { FastifyInstance } from 'fastify';
import { DatabaseOverloadedError } from '../domain/shared/database.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Counts this request as a write in flight until its answer is sent; false, and not counted, when the gateway has as many as it takes. */
    admitWrite(): boolean;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A read's: nothing to count. */
function readsAreNotCounted(): boolean {
  return true;
}

/** Why a write was refused at the door, for the log. */
export const writesInFlight = (limit: number) => `${limit} write requests are already in flight (WRITE_QUEUE_LIMIT)`;

/** Returns whether the gateway is at its limit now (readiness reports it). */
export function installWriteAdmission(app: FastifyInstance, limit: number, graphqlPaths: readonly string[]): () => boolean {
  let inFlight = 0;
  // GET, HEAD and OPTIONS read: never counted, and no admission made for them (a callback hook, no promise).
  app.decorateRequest('admitWrite', readsAreNotCounted);
  app.addHook('onRequest', (request, reply, done) => {
    if (!WRITE_METHODS.has(request.method)) return done();
    let admitted = false;
    request.admitWrite = () => {
      if (admitted) return true;
      if (inFlight >= limit) return false;
      inFlight += 1;
      admitted = true;
      // Sent, or the client left: either way the write no longer waits here.
      reply.raw.once('close', () => (inFlight -= 1));
      return true;
    };
    // GraphQL and MCP carry reads and writes alike on POST: mutations are admitted once parsed (src/graphql/write-admission.ts),
    // MCP's write tools as they are called (src/mcp/server.ts); a live stream's POST writes nothing.
    if (!graphqlPaths.includes(request.routeOptions.url ?? '') && !request.admitWrite())
      return done(new DatabaseOverloadedError(writesInFlight(limit)));
    done();
  });
  return () => inFlight >= limit;
}
