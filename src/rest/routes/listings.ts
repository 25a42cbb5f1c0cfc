import { setContentLanguage } from '../../http/content-language.ts';
import { getFeaturedListings } from '../../domain/catalog/listings.ts';
import type { RestApp } from '../plugin.ts';
import { getFeaturedListingsSchema } from '../schemas/listings.ts';

export function listingRoutes(app: RestApp) {
  app.get(
    '/v3/listings/featured',
    { schema: getFeaturedListingsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request, reply) => {
      const { unlisted, locale, version } = request.query;
      const data = await getFeaturedListings(request.caller, { unlisted, locale, version });
      setContentLanguage(
        reply,
        data.map((listing) => listing.contentLanguage),
      );
      return { data };
    },
  );
}
