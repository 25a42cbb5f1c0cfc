import { getFeaturedListings } from '../../domain/catalog/listings.ts';
import type { RestApp } from '../plugin.ts';
import { getFeaturedListingsSchema } from '../schemas/listings.ts';

export function listingRoutes(app: RestApp) {
  app.get(
    '/v3/listings/featured',
    { schema: getFeaturedListingsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request) => {
      const { unlisted, locale, version } = request.query;
      return { data: await getFeaturedListings(request.caller, { unlisted, locale, version }) };
    },
  );
}
