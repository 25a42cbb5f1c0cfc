import type { FastifyReply } from 'fastify';
import { setContentLanguage } from '../../http/content-language.ts';
import {
  archiveExperience,
  createExperience,
  experienceEtag,
  getExperienceDocument,
  unarchiveExperience,
  updateExperience,
  type WrittenExperience,
} from '../../domain/catalog/experience-writes.ts';
import { listCustomQuestions } from '../../domain/questions/questions.ts';
import type { RestApp } from '../plugin.ts';
import {
  archiveExperienceSchema,
  createExperienceSchema,
  getExperienceSchema,
  listCustomQuestionsSchema,
  unarchiveExperienceSchema,
  updateExperienceSchema,
} from '../schemas/experiences.ts';

function written(reply: FastifyReply, result: WrittenExperience) {
  reply.header('etag', result.etag);
  return result.experience;
}

export function experienceRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/experiences/:experienceId',
    { schema: getExperienceSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request, reply) => {
      const experience = await getExperienceDocument(request.caller, { ...request.params, language: request.query.language });
      setContentLanguage(reply, [experience.contentLanguage]);
      reply.header('etag', experienceEtag(experience.version));
      return experience;
    },
  );

  app.post('/v1/brands/:brandId/experiences', { schema: createExperienceSchema }, async (request, reply) => {
    const result = await createExperience(request.caller, { brandId: request.params.brandId, document: request.body });
    reply.code(201).header('location', `/v1/brands/${request.params.brandId}/experiences/${result.experience.id}`);
    return written(reply, result);
  });

  app.patch('/v1/brands/:brandId/experiences/:experienceId', { schema: updateExperienceSchema }, async (request, reply) => {
    const { brandId, experienceId } = request.params;
    const ifMatch = request.headers['if-match'];
    return written(reply, await updateExperience(request.caller, { brandId, experienceId, ifMatch, patch: request.body }));
  });

  app.post('/v1/brands/:brandId/experiences/:experienceId/archive', { schema: archiveExperienceSchema }, async (request, reply) => {
    const { brandId, experienceId } = request.params;
    return written(reply, await archiveExperience(request.caller, { brandId, experienceId, ifMatch: request.headers['if-match'] }));
  });

  app.post('/v1/brands/:brandId/experiences/:experienceId/unarchive', { schema: unarchiveExperienceSchema }, async (request, reply) => {
    const { brandId, experienceId } = request.params;
    return written(reply, await unarchiveExperience(request.caller, { brandId, experienceId, ifMatch: request.headers['if-match'] }));
  });

  app.get(
    '/v1/brands/:brandId/experiences/:experienceId/custom-questions',
    { schema: listCustomQuestionsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request) => ({
      data: await listCustomQuestions(request.caller, request.params),
    }),
  );
}
