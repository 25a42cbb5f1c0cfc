import { experienceReviewConnection } from '../../domain/catalog/reviews.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const reviewResolvers: Resolvers = {
  Query: {
    experienceReviews: (_, { experienceId, first, after }, ctx) => experienceReviewConnection(ctx.caller(), { experienceId, first, after }),
  },
  Review: {
    experience: (review, _, ctx) => ctx.loaders.experience.load({ experienceId: review.experience.id }),
  },
  Experience: {
    reviews: (experience, { first, after }, ctx) => experienceReviewConnection(ctx.caller(), { experienceId: experience.id, first, after }),
  },
};
