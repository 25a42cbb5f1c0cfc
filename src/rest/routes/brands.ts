import { getBrandSettings, type BrandSettingsInclude } from '../../domain/catalog/brands.ts';
import { brandSettingsEtag, updateBrandSettings } from '../../domain/catalog/brand-settings-writes.ts';
import type { RestApp } from '../plugin.ts';
import { getBrandSettingsSchema, updateBrandSettingsSchema } from '../schemas/brands.ts';

export function brandRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/settings',
    { schema: getBrandSettingsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request, reply) => {
      const include = request.query.include?.split(',') as BrandSettingsInclude[] | undefined;
      const data = await getBrandSettings(request.caller, { brandId: request.params.brandId, include });
      if (request.caller.principal.kind !== 'publishable') reply.header('etag', await brandSettingsEtag(request.caller, data.id));
      return { data };
    },
  );
  app.patch('/v1/brands/:brandId/settings', { schema: updateBrandSettingsSchema }, async (request, reply) => {
    const ifMatch = request.headers['if-match'];
    const { settings, etag } = await updateBrandSettings(request.caller, { brandId: request.params.brandId, patch: request.body, ifMatch });
    reply.header('etag', etag);
    return { data: settings };
  });
}
