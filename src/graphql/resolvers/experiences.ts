import { archiveExperience, createExperience, unarchiveExperience, updateExperience } from '../../domain/catalog/experience-writes.ts';
import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const experienceResolvers: Resolvers = {
  Query: {
    experience: (_, { brandId, id, language }, ctx) => ctx.loaders.experience.load({ brandId, experienceId: id, language }),
  },
  Mutation: {
    createExperience: (_, { brandId, input }, ctx) => createExperience(ctx.caller(), { brandId, document: input }),
    updateExperience: (_, { brandId, id, input, ifMatch }, ctx) =>
      updateExperience(ctx.caller(), { brandId, experienceId: id, patch: input, ifMatch, ifMatchField: 'ifMatch' }),
    archiveExperience: (_, { brandId, id, ifMatch }, ctx) =>
      archiveExperience(ctx.caller(), { brandId, experienceId: id, ifMatch, ifMatchField: 'ifMatch' }),
    unarchiveExperience: (_, { brandId, id, ifMatch }, ctx) =>
      unarchiveExperience(ctx.caller(), { brandId, experienceId: id, ifMatch, ifMatchField: 'ifMatch' }),
  },
  Experience: {
    customQuestions: (experience, _, ctx) => ctx.loaders.customQuestions.load(experience),
    addOns: async (experience, _, ctx) =>
      (await ctx.loaders.addOns.load(experience)).map(({ id, name, price }) => ({ addOnId: id, name, price })),
  },
  PaymentMethod: enumValues.PaymentMethod,
  ExperienceStatus: enumValues.ExperienceStatus,
  QuestionFieldType: enumValues.QuestionFieldType,
  QuestionScope: enumValues.QuestionScope,
  ConditionsMatchType: enumValues.ConditionsMatchType,
  ConditionRule: enumValues.ConditionRule,
};
