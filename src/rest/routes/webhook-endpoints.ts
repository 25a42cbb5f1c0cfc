import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from '../../domain/webhooks/endpoints.ts';
import type { WebhookSettings } from '../../domain/webhooks/settings.ts';
import type { RestApp } from '../plugin.ts';
import {
  createWebhookEndpointSchema,
  deleteWebhookEndpointSchema,
  listWebhookEndpointsSchema,
  updateWebhookEndpointSchema,
} from '../schemas/webhook-endpoints.ts';

export function webhookEndpointRoutes(app: RestApp, webhooks: WebhookSettings) {
  app.post('/v1/brands/:brandId/webhooks', { schema: createWebhookEndpointSchema }, async (request, reply) => {
    const created = await createWebhookEndpoint({ ...request.caller, webhooks }, { brandId: request.params.brandId, ...request.body });
    reply.code(201);
    return created;
  });
  app.get('/v1/brands/:brandId/webhooks', { schema: listWebhookEndpointsSchema }, async (request) => ({
    data: await listWebhookEndpoints(request.caller, { brandId: request.params.brandId }),
  }));
  app.delete('/v1/brands/:brandId/webhooks/:endpointId', { schema: deleteWebhookEndpointSchema }, async (request) => ({
    endpoint: await deleteWebhookEndpoint(request.caller, request.params),
  }));
  app.patch('/v1/brands/:brandId/webhooks/:endpointId', { schema: updateWebhookEndpointSchema }, async (request) => ({
    endpoint: await updateWebhookEndpoint(request.caller, { ...request.params, status: request.body.status }),
  }));
}
