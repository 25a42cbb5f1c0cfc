/**
 * Every request's deadline: REQUEST_TIMEOUT_MS after it arrived, or the moment its client goes away,
 * whichever comes first. The domain's units of work for the request carry it (UnitOptions.signal), so a
 * write still queued or not yet committed when it passes is dropped and writes nothing: no hold is made
 * for a client that already gave up, and a burst does not leave a queue of work nobody waits for.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../domain/shared/database.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted when the client leaves before its answer is sent, or REQUEST_TIMEOUT_MS after the request arrived. */
    deadline: AbortSignal;
  }
}

export function installDeadlines(app: FastifyInstance, timeoutMs: number): void {
  app.decorateRequest('deadline', null as unknown as AbortSignal);
  app.addHook('onRequest', async (request, reply) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    // The response closes when it has been sent, or earlier when the connection does (the client left).
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (!reply.raw.writableFinished) controller.abort();
    });
    request.deadline = controller.signal;
  });
}

/** `db` whose units of work carry the request's deadline. */
export function withDeadline(db: Database, deadline: AbortSignal): Database {
  return { ...db, transaction: (work, options) => db.transaction(work, { signal: deadline, ...options }) };
}
