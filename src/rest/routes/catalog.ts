import { exportCatalog, importCatalog, MAX_CATALOG_BYTES } from '../../domain/catalog/catalog-document.ts';
import type { RestApp } from '../plugin.ts';
import { exportCatalogSchema, importCatalogSchema } from '../schemas/catalog.ts';

export function catalogRoutes(app: RestApp) {
  app.get('/v1/brands/:brandId/catalog', { schema: exportCatalogSchema }, async (request) => exportCatalog(request.caller, request.params));
  app.put('/v1/brands/:brandId/catalog', { schema: importCatalogSchema, bodyLimit: MAX_CATALOG_BYTES }, async (request) => ({
    data: await importCatalog(request.caller, { brandId: request.params.brandId, document: request.body, dryRun: request.query.dryRun }),
  }));
}
