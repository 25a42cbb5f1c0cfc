import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { requirePrincipal } from '../auth/authenticate.ts';
import { authenticateRequest } from '../auth/request-principal.ts';
import { assertKeyMayUse } from '../domain/access/publishable.ts';
import { readingEachBrandOnce } from '../domain/catalog/brands.ts';
import type { CallerDeps, Deps } from '../domain/shared/deps.ts';
import type { Principal } from '../domain/access/principal.ts';
import type { WebhookSettings } from '../domain/webhooks/settings.ts';
import { withDeadline } from '../http/deadline.ts';
import { keysVersionFor } from '../http/data-version.ts';
import { clientAddress } from '../http/client-address.ts';
import { humanCheckRequestOf } from '../http/human-check-request.ts';
import { availabilityRoutes } from './routes/availability.ts';
import { sessionWriteRoutes } from './routes/session-writes.ts';
import { bookingRoutes } from './routes/bookings.ts';
import { brandRoutes } from './routes/brands.ts';
import { cancellationRoutes } from './routes/cancellation.ts';
import { checkoutRoutes } from './routes/checkout.ts';
import { eventRoutes } from './routes/events.ts';
import { experienceRoutes } from './routes/experiences.ts';
import { hostRoutes } from './routes/hosts.ts';
import { couponRoutes } from './routes/coupons.ts';
import { creditCodeRoutes } from './routes/credit-codes.ts';
import { listingRoutes } from './routes/listings.ts';
import { listingWriteRoutes } from './routes/listing-writes.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { organizationRoutes } from './routes/organizations.ts';
import { paymentRoutes } from './routes/payments.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { waitlistRoutes } from './routes/waitlists.ts';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The REST face's caller once authenticated (the onRequest hook below). */
    restPrincipal: Principal | null;
    /** `caller` once made. */
    restCaller: CallerDeps | null;
  }
}

export type RestApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * REST bodies are JSON: without Fastify's text/plain parser, any other Content-Type is 415
 * UNSUPPORTED_MEDIA_TYPE instead of a string the body schema then refuses. (The payment webhook's scope
 * takes any body, as the processor sends it; /graphql keeps text/plain for Apollo's CSRF answer.)
 */
function refuseNonJsonBodies(app: RestApp): void {
  app.removeContentTypeParser('text/plain');
}

/** JSON merge patches (RFC 7396) come as `application/merge-patch+json`, parsed as JSON is. */
function acceptMergePatches(app: RestApp): void {
  app.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
}

/** The partner REST face: every route authenticates first, then validates, then calls the domain. */
export function restRoutes(deps: Deps, webhooks: WebhookSettings) {
  return async function rest(app: RestApp) {
    refuseNonJsonBodies(app);
    acceptMergePatches(app);
    // The caller (its brand reads, deadline, address, human check) is made when the handler first asks: an
    // answer the response cache replays, or a refusal by validation, never needs it.
    app.decorateRequest('restPrincipal', null);
    app.decorateRequest('restCaller', null);
    app.decorateRequest('caller', {
      getter(this: FastifyRequest): CallerDeps {
        this.restCaller ??= {
          ...readingEachBrandOnce(
            { ...deps, db: withDeadline(deps.db, this) },
            { database: deps.db, version: keysVersionFor(deps.db, this) },
          ),
          principal: requirePrincipal(this.restPrincipal),
          clientAddress: clientAddress(this),
          humanCheckRequest: humanCheckRequestOf(this),
        };
        return this.restCaller;
      },
      setter(this: FastifyRequest, caller: CallerDeps) {
        this.restCaller = caller;
      },
    });
    app.addHook('onRequest', async (request) => {
      const principal = requirePrincipal(await authenticateRequest(deps.db, request));
      assertKeyMayUse(principal, request.routeOptions.config.publishable, `call ${request.method} ${request.routeOptions.url}`);
      request.restPrincipal = principal;
    });
    organizationRoutes(app);
    brandRoutes(app);
    hostRoutes(app);
    couponRoutes(app);
    creditCodeRoutes(app);
    experienceRoutes(app);
    listingRoutes(app);
    listingWriteRoutes(app);
    reviewRoutes(app);
    availabilityRoutes(app);
    sessionWriteRoutes(app);
    catalogRoutes(app);
    bookingRoutes(app);
    cancellationRoutes(app);
    checkoutRoutes(app);
    waitlistRoutes(app);
    webhookEndpointRoutes(app, webhooks);
    eventRoutes(app);
  };
}

/** Routes that take no API key (a webhook signature or a client secret is their credential): outside `rest`'s auth hook. */
export function publicRoutes(deps: Deps) {
  return async function publicRest(app: RestApp) {
    refuseNonJsonBodies(app);
    paymentRoutes(app, deps);
  };
}
