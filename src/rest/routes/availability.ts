import { listAvailability } from '../../domain/availability/sessions.ts';
import type { RestApp } from '../plugin.ts';
import { listAvailabilitySchema } from '../schemas/availability.ts';

export function availabilityRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/experiences/:experienceId/availability',
    { schema: listAvailabilitySchema, config: { publishable: 'availability' } },
    async (request) => ({
      data: await listAvailability(request.caller, { ...request.params, ...request.query }),
    }),
  );
}
