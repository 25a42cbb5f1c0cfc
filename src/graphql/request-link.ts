/**
 * Apollo gives plugins the operation's context, not the HTTP request that carried it; observability and
 * the response cache need that request. Apollo hands each operation a shallow copy of the context, so
 * the link is a (symbol-keyed) property the copy keeps, not the object's identity.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const REQUEST = Symbol('fastify request');

/** Wraps the Apollo context function so plugins can find the Fastify request of a context. */
export function linkContext<C extends object>(build: (request: FastifyRequest, reply: FastifyReply) => Promise<C>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<C> => {
    const context = await build(request, reply);
    return Object.assign(context, { [REQUEST]: request });
  };
}

/** The Fastify request a context was built for; undefined for contexts built elsewhere (tests, other servers). */
export function requestOf(context: object): FastifyRequest | undefined {
  return (context as { [REQUEST]?: FastifyRequest })[REQUEST];
}
