import { createListing, getListing, publishListing, updateListingDraft } from '../../domain/catalog/listing-writes.ts';
import type { RestApp } from '../plugin.ts';
import { createListingSchema, getListingSchema, publishListingSchema, updateListingDraftSchema } from '../schemas/listing-writes.ts';

export function listingWriteRoutes(app: RestApp) {
  app.get(
    '/v1/brands/:brandId/listings/:listingId',
    { schema: getListingSchema, config: { responseCache: true, publishable: 'catalogue' } },
    async (request, reply) => {
      const { listing, etag } = await getListing(request.caller, { ...request.params, version: request.query.version });
      reply.header('etag', etag);
      return { data: listing };
    },
  );
  app.post('/v1/brands/:brandId/listings', { schema: createListingSchema }, async (request, reply) => {
    const { listing, etag } = await createListing(request.caller, { brandId: request.params.brandId, body: request.body });
    reply.code(201).header('etag', etag);
    return { data: listing };
  });
  app.patch('/v1/brands/:brandId/listings/:listingId', { schema: updateListingDraftSchema }, async (request, reply) => {
    const ifMatch = request.headers['if-match'];
    const { listing, etag } = await updateListingDraft(request.caller, { ...request.params, patch: request.body, ifMatch });
    reply.header('etag', etag);
    return { data: listing };
  });
  app.post('/v1/brands/:brandId/listings/:listingId/publish', { schema: publishListingSchema }, async (request, reply) => {
    const { listing, etag } = await publishListing(request.caller, { ...request.params, ifMatch: request.headers['if-match'] });
    reply.header('etag', etag);
    return { data: listing };
  });
}
