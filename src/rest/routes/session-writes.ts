import { cancelSession, scheduleSessions, updateSession } from '../../domain/availability/session-writes.ts';
import type { RestApp } from '../plugin.ts';
import { cancelSessionSchema, scheduleSessionsEnvelope, scheduleSessionsSchema, updateSessionSchema } from '../schemas/session-writes.ts';
import { validateBodyAs } from '../validation.ts';

/** A brand's schedule: sessions created, changed and cancelled (secret keys only: no publishable use). */
export function sessionWriteRoutes(app: RestApp) {
  app.post(
    '/v1/brands/:brandId/experiences/:experienceId/sessions',
    { schema: scheduleSessionsSchema, validatorCompiler: validateBodyAs(scheduleSessionsEnvelope) },
    async (request, reply) => {
      const { sessions, existing } = await scheduleSessions(request.caller, { ...request.params, body: request.body });
      reply.code(201);
      return { data: sessions, existing };
    },
  );
  app.patch('/v1/brands/:brandId/sessions/:sessionId', { schema: updateSessionSchema }, async (request) => ({
    data: await updateSession(request.caller, { ...request.params, capacity: request.body.capacity }),
  }));
  app.post('/v1/brands/:brandId/sessions/:sessionId/cancel', { schema: cancelSessionSchema }, async (request) => {
    const { session, bookings, errors } = await cancelSession(request.caller, { ...request.params, reason: request.body?.reason });
    return { data: session, bookings, errors };
  });
}
