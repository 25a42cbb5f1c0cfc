import { listExperienceReviews } from '../../domain/catalog/reviews.ts';
import type { NumberedPages } from '../../domain/shared/pagination.ts';
import type { RestApp } from '../plugin.ts';
import { listReviewsSchema } from '../schemas/reviews.ts';

/** The page numbers as root-relative URLs of this same operation. */
function links(experienceId: string, limit: number, pages: NumberedPages) {
  const url = (page: number) => `/v1/experiences/${experienceId}/reviews?page=${page}&limit=${limit}`;
  return { first: url(pages.first), previous: url(pages.previous), next: url(pages.next), last: url(pages.last) };
}

export function reviewRoutes(app: RestApp) {
  app.get(
    '/v1/experiences/:experienceId/reviews',
    { schema: listReviewsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request) => {
      const { experienceId } = request.params;
      const { page, limit } = request.query;
      const result = await listExperienceReviews(request.caller, { experienceId, page, limit });
      return [{ items: result.items, links: links(experienceId, result.limit, result.pages) }];
    },
  );
}
