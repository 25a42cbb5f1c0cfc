import { joinWaitlist } from '../../domain/waitlists/join.ts';
import { leaveWaitlist, listWaitlistEntries } from '../../domain/waitlists/waitlists.ts';
import type { RestApp } from '../plugin.ts';
import { joinWaitlistSchema, leaveWaitlistSchema, listWaitlistEntriesSchema } from '../schemas/waitlists.ts';

export function waitlistRoutes(app: RestApp) {
  app.post(
    '/v1/brands/:brandId/waitlists/:waitlistId/entries',
    { schema: joinWaitlistSchema, config: { publishable: 'waitlist' } },
    async (request, reply) => {
      const entry = await joinWaitlist(request.caller, { ...request.params, ...request.body });
      reply.code(201);
      return entry;
    },
  );
  app.get('/v1/brands/:brandId/waitlists/:waitlistId/entries', { schema: listWaitlistEntriesSchema }, async (request) => ({
    data: await listWaitlistEntries(request.caller, {
      ...request.params,
      sessionStartDateTime: request.query.sessionStartDateTime,
      statuses: request.query.status,
    }),
  }));
  app.delete(
    '/v1/brands/:brandId/waitlists/:waitlistId/entries/:entryId',
    { schema: leaveWaitlistSchema, config: { publishable: 'waitlist' } },
    async (request) => leaveWaitlist(request.caller, request.params),
  );
}
