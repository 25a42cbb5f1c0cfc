import { listAvailability, sessionsOfExperience } from '../../domain/availability/sessions.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const availabilityResolvers: Resolvers = {
  Query: {
    availability: (_, { brandId, experienceId, from, to }, ctx) => listAvailability(ctx.caller(), { brandId, experienceId, from, to }),
  },
  Experience: {
    sessions: (experience, { from, to }, ctx) => sessionsOfExperience(ctx.caller(), { experienceId: experience.id, from, to }),
  },
};
