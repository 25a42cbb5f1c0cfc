/**
 * Every request's deadline: REQUEST_TIMEOUT_MS after it arrived, or the moment its client goes away,
 * whichever comes first. The domain's units of work for the request carry it (UnitOptions.signal), so a
 * write still queued or not yet committed when it passes is dropped and writes nothing: no hold is made
 * for a client that already gave up, and a burst does not leave a queue of work nobody waits for. Units
 * that finish what the request already committed carry none (`finishingUnit`).
 *
 * Made when first asked for (most requests, a cached answer among them, open no unit of work): the
 * timer then runs for what is left of REQUEST_TIMEOUT_MS since the request arrived, and a client that
 * has already gone finds it aborted. An AbortController, its signal, a timer and a listener per request
 * were a few percent of a cached answer's CPU.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../domain/shared/database.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted when the client leaves before its answer is sent, or REQUEST_TIMEOUT_MS after the request arrived. */
    readonly deadline: AbortSignal;
    /** The request's reply, for its deadline (set on arrival). */
    deadlineReply: FastifyReply | null;
    /** The deadline once made. */
    deadlineSignal: AbortSignal | null;
  }
}

function makeDeadline(reply: FastifyReply, timeoutMs: number): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  // Sent already: nothing is left to cut short. Closed unsent: the client left.
  if (response.writableFinished) return controller.signal;
  const left = timeoutMs - reply.elapsedTime;
  // The client left, or the time ran out before anything asked for the deadline (the request waited for
  // reads): it has passed already, so no unit of work starts for the request.
  if (left <= 0 || response.destroyed || reply.request.raw.socket?.destroyed) {
    controller.abort();
    return controller.signal;
  }
  const timer = setTimeout(() => controller.abort(), left);
  // The response closes when it has been sent, or earlier when the connection does (the client left).
  response.once('close', () => {
    clearTimeout(timer);
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

export function installDeadlines(app: FastifyInstance, timeoutMs: number): void {
  app.decorateRequest('deadlineReply', null);
  app.decorateRequest('deadlineSignal', null);
  app.decorateRequest('deadline', {
    getter(this: FastifyRequest): AbortSignal {
      if (!this.deadlineSignal) {
        // Outside a request's hooks (never in practice): the full timeout from now.
        this.deadlineSignal = this.deadlineReply ? makeDeadline(this.deadlineReply, timeoutMs) : AbortSignal.timeout(timeoutMs);
      }
      return this.deadlineSignal;
    },
  });
  // A callback hook: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    request.deadlineReply = reply;
    done();
  });
}

/**
 * `db` whose units of work carry the request's deadline, made when the first unit of work opens; a unit
 * whose options name its signal (`finishingUnit`: none) keeps it.
 */
export function withDeadline(db: Database, request: { readonly deadline: AbortSignal }): Database {
  return {
    ...db,
    transaction: (work, options) =>
      db.transaction(work, options && 'signal' in options ? options : { ...options, signal: request.deadline }),
  };
}
