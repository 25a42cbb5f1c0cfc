import { getOrganization } from '../../domain/access/organizations.ts';
import type { RestApp } from '../plugin.ts';
import { getOrganizationSchema } from '../schemas/organizations.ts';

export function organizationRoutes(app: RestApp) {
  app.get('/v1/organizations/:organizationId', { schema: getOrganizationSchema }, async (request) => ({
    data: await getOrganization(request.caller, request.params.organizationId),
  }));
}
