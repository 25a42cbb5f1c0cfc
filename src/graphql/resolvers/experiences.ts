import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const experienceResolvers: Resolvers = {
  Query: {
    experience: (_, { brandId, id, language }, ctx) => ctx.loaders.experience.load({ brandId, experienceId: id, language }),
  },
  Experience: {
    customQuestions: (experience, _, ctx) => ctx.loaders.customQuestions.load(experience),
  },
  PaymentMethod: enumValues.PaymentMethod,
  QuestionFieldType: enumValues.QuestionFieldType,
  QuestionScope: enumValues.QuestionScope,
  ConditionsMatchType: enumValues.ConditionsMatchType,
  ConditionRule: enumValues.ConditionRule,
};
