import { listHosts } from '../../domain/catalog/hosts.ts';
import type { RestApp } from '../plugin.ts';
import { listHostsSchema } from '../schemas/hosts.ts';

export function hostRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/hosts',
    { schema: listHostsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request) => ({
      data: await listHosts(request.caller, { brandId: request.params.brandId }),
    }),
  );
}
