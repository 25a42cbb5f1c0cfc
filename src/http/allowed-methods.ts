/**
 * Which methods a path takes, for the answer to a request whose method it does not take: 405
 * METHOD_NOT_ALLOWED with an `Allow` header, rather than the 404 of a path that does not exist. Routes are
 * recorded in a router of their own as they are added (Fastify's own answers only "no route").
 *
 * A path that is a route of its own for some methods is not also a parameter of another route's: `GET
 * /v1/bookings/cancel` is the cancel route asked with the wrong method (405, `Allow: POST`), not a booking
 * whose id is "cancel" (Fastify would route it to `GET /v1/bookings/:bookingId` and answer that the id is
 * not a UUID).
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_PARAM_LENGTH } from './settings.ts';

type Refuse = (request: FastifyRequest, reply: FastifyReply, path: string, allowed: string[]) => unknown;

/**
 * Call before any route is added; returns the methods a path takes (none: an unknown path). A request
 * that reached a parametric route although its path is a route of its own for other methods is answered
 * by `refuse` with those methods.
 */
export function trackAllowedMethods(app: FastifyInstance, refuse: Refuse): (path: string) => string[] {
  const router = FindMyWay({ maxParamLength: MAX_PARAM_LENGTH });
  const methods = new Set<HTTPMethod>();
  /** Routes without parameters: the only paths another route's parameter may shadow. */
  const staticPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    // A catch-all (`*`) would make every path known: it takes no method of its own here.
    if (route.url.includes('*')) return;
    if (!route.url.includes(':')) staticPaths.add(route.url);
    for (const method of [route.method].flat().map((m) => m.toUpperCase() as HTTPMethod)) {
      if (router.hasRoute(method, route.url)) continue;
      router.on(method, route.url, () => {});
      methods.add(method);
    }
  });
  const matches = (path: string) =>
    [...methods].flatMap((method) => {
      const found = router.find(method, path);
      return found ? [{ method, exact: Object.keys(found.params).length === 0 }] : [];
    });
  const allowed = (path: string) => {
    const found = matches(path);
    // Where the path is a route of its own, only its methods count.
    const exact = found.filter((match) => match.exact);
    return (exact.length > 0 ? exact : found).map((match) => match.method).sort();
  };
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.includes(':')) return;
    const path = request.url.split('?')[0] ?? '/';
    // Most requests: a parameter that is no route of its own, so nothing to look up.
    if (!staticPaths.has(path)) return;
    const takes = allowed(path);
    if (!takes.includes(request.method as HTTPMethod)) return refuse(request, reply, path, takes);
  });
  return allowed;
}
