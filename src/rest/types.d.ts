import type { CallerDeps } from '../domain/shared/deps.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, set by the REST plugin before validation. */
    caller: CallerDeps;
  }
}
