/**
 * Which methods a path takes, for the answer to a request whose method it does not take: 405
 * METHOD_NOT_ALLOWED with an `Allow` header, rather than the 404 of a path that does not exist. Routes are
 * recorded in a router of their own as they are added (Fastify's own answers only "no route").
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { MAX_PARAM_LENGTH } from './settings.ts';

/** Call before any route is added; returns the methods a path takes (none: an unknown path). */
export function trackAllowedMethods(app: FastifyInstance): (path: string) => string[] {
  const router = FindMyWay({ maxParamLength: MAX_PARAM_LENGTH });
  const methods = new Set<HTTPMethod>();
  app.addHook('onRoute', (route) => {
    // A catch-all (`*`) would make every path known: it takes no method of its own here.
    if (route.url.includes('*')) return;
    for (const method of [route.method].flat().map((m) => m.toUpperCase() as HTTPMethod)) {
      if (router.hasRoute(method, route.url)) continue;
      router.on(method, route.url, () => {});
      methods.add(method);
    }
  });
  return (path) => [...methods].filter((method) => router.find(method, path) !== null).sort();
}
