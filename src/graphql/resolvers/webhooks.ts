import { listWebhookDeliveries } from '../../domain/webhooks/deliveries.ts';
import {
  ALL_EVENTS,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from '../../domain/webhooks/endpoints.ts';
import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const webhookResolvers: Resolvers = {
  Query: {
    webhookEndpoints: (_, { brandId }, ctx) => listWebhookEndpoints(ctx.caller(), { brandId }),
    webhookDeliveries: (_, { brandId, endpointId, status, first, after }, ctx) =>
      listWebhookDeliveries(ctx.caller(), { brandId, endpointId, status, first, after }),
  },
  Mutation: {
    // The URL scalar hands over a URL object; the domain takes the text and normalizes it itself.
    // No `events` is GraphQL's spelling of REST's ["*"] (an enum value cannot be "*").
    createWebhookEndpoint: (_, { brandId, url, events }, ctx) =>
      createWebhookEndpoint({ ...ctx.caller(), webhooks: ctx.webhooks }, { brandId, url: String(url), events: events ?? [ALL_EVENTS] }),
    deleteWebhookEndpoint: async (_, { brandId, id }, ctx) => ({
      endpoint: await deleteWebhookEndpoint(ctx.caller(), { brandId, endpointId: id }),
    }),
    updateWebhookEndpoint: async (_, { brandId, id, status }, ctx) => ({
      endpoint: await updateWebhookEndpoint(ctx.caller(), { brandId, endpointId: id, status }),
    }),
  },
  WebhookDeliveryStatus: enumValues.WebhookDeliveryStatus,
  WebhookEndpointStatus: enumValues.WebhookEndpointStatus,
  EventType: enumValues.EventType,
};
