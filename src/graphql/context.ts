import { authenticateRequest } from '../auth/request-principal.ts';
import type { Headers } from '../auth/authenticate.ts';
import type { Principal } from '../domain/access/principal.ts';
import type { CallerDeps, Deps } from '../domain/shared/deps.ts';
import { DomainError } from '../domain/shared/errors.ts';
import type { WebhookSettings } from '../domain/webhooks/settings.ts';
import { createLoaders, type Loaders } from './loaders.ts';
import { readingEachBrandOnce } from '../domain/catalog/brands.ts';
import { withDeadline } from '../http/deadline.ts';
import { keysVersionFor } from '../http/data-version.ts';
import { clientAddress } from '../http/client-address.ts';
import { humanCheckRequestOf } from '../http/human-check-request.ts';

/** Per-request GraphQL context. `caller()` throws UNAUTHENTICATED when the request had no key. */
export interface GraphQLContext extends Deps {
  requestId: string;
  principal: Principal | null;
  caller(): Deps & { principal: Principal };
  loaders: Loaders;
  /** Webhook URL rules and the key encrypting signing secrets (only endpoint creation needs them). */
  webhooks: WebhookSettings;
}

/** What the context needs of an HTTP request, whichever server received it. */
export interface ContextRequest {
  id: string | number;
  headers: Headers;
  /** Set under an Idempotency-Key (src/rest/idempotency.ts): ids the same on every run of the request. */
  idempotency?: { requestIds: () => string };
  /** The request's deadline (src/http/deadline.ts): the operation's units of work carry it. */
  readonly deadline?: AbortSignal;
  /** The client's address as the HTTP server takes it (TRUST_PROXY): what a publishable key's holds are counted by, and the human check's. */
  ip?: string;
}

const ownLoaders = Symbol('loaders');

/**
 * The context's loaders, made on first use: most operations load nothing in batches, and a live
 * subscription runs each update with loaders of its own (src/graphql/live/operation.ts), so thousands of
 * idle subscribers keep none. A getter of the prototype, so Apollo's copy of the context (an object of the
 * same prototype with its own properties) makes loaders of its own too.
 */
const madeOnFirstUse = {
  get loaders(): Loaders {
    const context = this as unknown as GraphQLContext & { [ownLoaders]?: Loaders };
    return (context[ownLoaders] ??= createLoaders(context, context.caller));
  },
};

/**
 * The same context with loaders of its own, made on first use like the original's: a live subscription
 * runs each update with it, so no loader's cache outlives one update, and an update whose selection
 * loads nothing in batches makes none.
 */
export function withFreshLoaders(context: GraphQLContext): GraphQLContext {
  const { [ownLoaders]: _, ...own } = context as GraphQLContext & { [ownLoaders]?: Loaders };
  return Object.assign(Object.create(madeOnFirstUse) as GraphQLContext, own);
}

/**
 * Builds each request's context: the caller's principal (bad credentials fail the operations that need
 * a key, with their own error, rather than the whole request), fresh loaders, the shared dependencies.
 * Unexpected failures of the key lookup are thrown as they are, for the transport to log and mask.
 */
export function graphqlContextFactory(shared: Deps, webhooks: WebhookSettings) {
  return async (request: ContextRequest): Promise<GraphQLContext> => {
    // `in`, not the value: reading the deadline makes it (src/http/deadline.ts); the first unit of work does.
    const deps = readingEachBrandOnce(
      'deadline' in request ? { ...shared, db: withDeadline(shared.db, request as { deadline: AbortSignal }) } : shared,
      { database: shared.db, version: keysVersionFor(shared.db, request) },
    );
    let principal: Principal | null = null;
    let authError: DomainError | null = null;
    try {
      // The shared database: the API-key cache is kept per database object.
      principal = await authenticateRequest(shared.db, request);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      authError = error;
    }
    const caller = (): CallerDeps => {
      if (authError) throw authError;
      if (!principal) throw new DomainError('UNAUTHENTICATED', 'This operation needs an API key: send "Authorization: Bearer <key>"');
      return {
        ...deps,
        principal,
        ...(request.idempotency ? { requestIds: request.idempotency.requestIds } : {}),
        ...(request.ip === undefined ? {} : { clientAddress: clientAddress({ ip: request.ip }) }),
        humanCheckRequest: humanCheckRequestOf(request),
      };
    };
    const context: Omit<GraphQLContext, 'loaders'> = { ...deps, requestId: String(request.id), principal, caller, webhooks };
    return Object.assign(Object.create(madeOnFirstUse) as GraphQLContext, context);
  };
}
