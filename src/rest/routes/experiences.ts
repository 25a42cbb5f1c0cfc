import type { FastifyReply } from 'fastify';
import { setContentLanguage } from '../../http/content-language.ts';
import { getExperience } from '../../domain/catalog/experiences.ts';
import { archiveExperience, createExperience, updateExperience, type WrittenExperience } from '../../domain/catalog/experience-writes.ts';
import { listCustomQuestions } from '../../domain/questions/questions.ts';
import { invalid } from '../../domain/shared/errors.ts';
import type { RestApp } from '../plugin.ts';
import {
  archiveExperienceSchema,
  createExperienceSchema,
  getExperienceSchema,
  listCustomQuestionsSchema,
  updateExperienceSchema,
} from '../schemas/experiences.ts';

/** An experience's version as its strong ETag: version 3 is `"3"`. */
const etagOf = (version: number) => `"${version}"`;

/** The version an If-Match names (`"3"`, `W/"3"`); null without one or with `*` (any current version). */
function expectedVersion(ifMatch: string | undefined): number | null {
  if (ifMatch === undefined || ifMatch.trim() === '*') return null;
  const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(ifMatch);
  if (!match) throw invalid('If-Match', 'If-Match must be an ETag this API gave, e.g. "3"');
  return Number(match[1]);
}

function written(reply: FastifyReply, result: WrittenExperience) {
  reply.header('etag', etagOf(result.version));
  return result.experience;
}

export function experienceRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/experiences/:experienceId',
    { schema: getExperienceSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request, reply) => {
      const experience = await getExperience(request.caller, { ...request.params, language: request.query.language });
      setContentLanguage(reply, [experience.contentLanguage]);
      reply.header('etag', etagOf(experience.version));
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
    const change = { brandId, experienceId, expectedVersion: expectedVersion(request.headers['if-match']) };
    return written(reply, await updateExperience(request.caller, { ...change, patch: request.body }));
  });

  app.post('/v1/brands/:brandId/experiences/:experienceId/archive', { schema: archiveExperienceSchema }, async (request, reply) => {
    const { brandId, experienceId } = request.params;
    return written(
      reply,
      await archiveExperience(request.caller, { brandId, experienceId, expectedVersion: expectedVersion(request.headers['if-match']) }),
    );
  });

  app.get(
    '/v1/brands/:brandId/experiences/:experienceId/custom-questions',
    { schema: listCustomQuestionsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request) => ({
      data: await listCustomQuestions(request.caller, request.params),
    }),
  );
}
