import type { PublishableUse } from '../domain/access/publishable.ts';
import type { CallerDeps } from '../domain/shared/deps.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, set by the REST plugin before validation. */
    caller: CallerDeps;
  }
  interface FastifyContextConfig {
    /** Open to publishable keys, as this use (src/domain/access/publishable.ts); absent: secret keys only. */
    publishable?: PublishableUse;
  }
}
