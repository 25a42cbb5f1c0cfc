import { eventFeed } from '../../domain/outbox/feed.ts';
import type { RestApp } from '../plugin.ts';
import { listEventsSchema } from '../schemas/events.ts';

export function eventRoutes(app: RestApp) {
  app.get('/v1/brands/:brandId/events', { schema: listEventsSchema }, async (request) => {
    const { after, types, limit } = request.query;
    return eventFeed(request.caller, { brandId: request.params.brandId, after, types: types?.split(','), limit });
  });
}
