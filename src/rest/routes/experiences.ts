import { setContentLanguage } from '../../http/content-language.ts';
import { getExperience } from '../../domain/catalog/experiences.ts';
import { listCustomQuestions } from '../../domain/questions/questions.ts';
import type { RestApp } from '../plugin.ts';
import { getExperienceSchema, listCustomQuestionsSchema } from '../schemas/experiences.ts';

export function experienceRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/experiences/:experienceId',
    { schema: getExperienceSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request, reply) => {
      const experience = await getExperience(request.caller, { ...request.params, language: request.query.language });
      setContentLanguage(reply, [experience.contentLanguage]);
      return experience;
    },
  );

  app.get(
    '/v1/brands/:brandId/experiences/:experienceId/custom-questions',
    { schema: listCustomQuestionsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request) => ({
      data: await listCustomQuestions(request.caller, request.params),
    }),
  );
}
