import type { FastifyReply } from 'fastify';
import { listHosts } from '../../domain/catalog/hosts.ts';
import { createHost, getHost, updateHost, type WrittenHost } from '../../domain/catalog/host-writes.ts';
import type { RestApp } from '../plugin.ts';
import { createHostSchema, getHostSchema, listHostsSchema, updateHostSchema } from '../schemas/hosts.ts';

function written(reply: FastifyReply, { host, etag }: WrittenHost) {
  reply.header('etag', etag);
  return { data: host };
}

export function hostRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/hosts',
    { schema: listHostsSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request) => ({
      data: await listHosts(request.caller, { brandId: request.params.brandId }),
    }),
  );

  app.get(
    '/v1/brands/:brandId/hosts/:hostId',
    { schema: getHostSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request, reply) => {
      const { host, etag } = await getHost(request.caller, request.params);
      if (request.caller.principal.kind !== 'publishable') reply.header('etag', etag);
      return { data: host };
    },
  );

  app.post('/v1/brands/:brandId/hosts', { schema: createHostSchema }, async (request, reply) => {
    const result = await createHost(request.caller, { brandId: request.params.brandId, body: request.body });
    reply.code(201).header('location', `/v1/brands/${request.params.brandId}/hosts/${result.host.id}`);
    return written(reply, result);
  });

  app.patch('/v1/brands/:brandId/hosts/:hostId', { schema: updateHostSchema }, async (request, reply) => {
    const ifMatch = request.headers['if-match'];
    return written(reply, await updateHost(request.caller, { ...request.params, patch: request.body, ifMatch }));
  });
}
