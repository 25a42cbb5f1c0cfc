import { Type } from 'typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/shared/pagination.ts';
import { DateTime, ImageRef, Uuid, errorResponses, ref } from './common.ts';

/**
 * The spec's Person: a reviewer, or the host who led the reviewed session. Personal data follows the key
 * (src/domain/access/personal-data.ts): to a publishable key a reviewer's last name is its initial and the
 * contact fields are absent.
 */
export const Person = Type.Object({
  id: Type.String(),
  firstName: Type.String(),
  lastName: Type.String({ description: 'A reviewer\'s initial ("M.") for a publishable key' }),
  fullName: Type.String({ description: '"First Last"' }),
  emailAddress: Type.Optional(Type.String({ description: 'Absent for a publishable key' })),
  phoneNumber: Type.Optional(Type.String({ description: 'Empty when unknown; absent for a publishable key' })),
  profilePicture: ImageRef,
});

export const Review = Type.Object(
  {
    id: Type.String(),
    rating: Type.Number(),
    recommendability: Type.Number(),
    text: Type.String(),
    reviewer: Person,
    reviewedAt: DateTime,
    experience: Type.Object({ id: Type.String(), title: Type.String() }),
    hostedBy: Person,
    experiencedDate: DateTime,
  },
  { $id: 'Review', description: 'A guest review of an experience' },
);

const link = (description: string) => Type.String({ description: `${description} Root-relative URL, usable as-is.` });

export const Links = Type.Object(
  {
    first: link('Page 1.'),
    previous: link('Page N-1, clamped to [1, last].'),
    next: link('Page N+1, clamped to [1, last]: on the last page it equals `last`; stop there.'),
    last: link('The last page holding reviews (page 1 when there are none).'),
  },
  { $id: 'ReviewLinks', description: 'The pages around this one' },
);

export const listReviewsSchema = {
  tags: ['Experiences'],
  operationId: 'listExperienceReviews',
  summary: 'Get reviews for experience',
  description:
    'Reviews newest first, one page per request. The body is an array with exactly one element. ' +
    'Walk pages by following `links.next` until it equals `links.last` (or a page holds fewer than `limit` items). ' +
    'A page past the end holds no items; its links follow the same rules (previous and next clamp to last).',
  params: Type.Object({ experienceId: Uuid }),
  querystring: Type.Object({
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: '1-based page number' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Reviews per page' })),
  }),
  response: {
    200: Type.Array(Type.Object({ items: Type.Array(ref(Review)), links: ref(Links) }), {
      minItems: 1,
      maxItems: 1,
      description: 'One page of reviews, newest first',
    }),
    ...errorResponses(404),
  },
};
