import { getBrandSettings, type BrandSettingsInclude } from '../../domain/catalog/brands.ts';
import type { RestApp } from '../plugin.ts';
import { getBrandSettingsSchema } from '../schemas/brands.ts';

export function brandRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/settings',
    { schema: getBrandSettingsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request) => {
      const include = request.query.include?.split(',') as BrandSettingsInclude[] | undefined;
      return { data: await getBrandSettings(request.caller, { brandId: request.params.brandId, include }) };
    },
  );
}
