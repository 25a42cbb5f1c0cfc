import { Type } from 'typebox';
import { eventTypes } from '../../domain/outbox/outbox.ts';
import { ALL_EVENTS } from '../../domain/webhooks/endpoints.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../../domain/webhooks/urls.ts';
import { BrandParams, DateTime, Uuid, errorResponses } from './common.ts';

const WebhookEndpoint = Type.Object({
  id: Uuid,
  url: Type.String({ description: 'Where events are POSTed (normalized, e.g. `https://example.com/hooks`)' }),
  events: Type.Array(Type.String(), { description: 'Event types delivered to it (`["*"]` at creation lists every type here)' }),
  createdAt: DateTime,
});

const tags = ['Integrations'];

export const createWebhookEndpointSchema = {
  tags,
  summary: 'Register a webhook endpoint',
  description:
    'Events of the types listed are POSTed to `url`, signed with the secret returned here, which is shown ' +
    'this once only: store it. In production the URL must be https and resolve to public addresses only.',
  params: BrandParams,
  body: Type.Object(
    {
      url: Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH, description: 'An absolute http(s) URL' }),
      events: Type.Array(Type.Enum([...eventTypes, ALL_EVENTS]), {
        minItems: 1,
        maxItems: eventTypes.length,
        uniqueItems: true,
        description: 'Event types to receive, or `["*"]` for every type',
      }),
    },
    { additionalProperties: false },
  ),
  response: {
    201: Type.Object({
      endpoint: WebhookEndpoint,
      secret: Type.String({ description: 'The signing secret (`whsec_...`), shown only in this answer' }),
    }),
    ...errorResponses(403),
  },
};

export const listWebhookEndpointsSchema = {
  tags,
  summary: "List a brand's webhook endpoints",
  description: 'Oldest first; deleted endpoints are left out and secrets are never shown.',
  params: BrandParams,
  response: { 200: Type.Object({ data: Type.Array(WebhookEndpoint) }), ...errorResponses(403) },
};

export const deleteWebhookEndpointSchema = {
  tags,
  summary: 'Delete a webhook endpoint',
  description: 'It receives nothing more; its pending deliveries are given up (`failed`, "endpoint deleted").',
  params: Type.Object({ brandId: Uuid, endpointId: Uuid }),
  response: { 200: Type.Object({ endpoint: WebhookEndpoint }), ...errorResponses(403, 404) },
};
