import { Type } from 'typebox';
import { eventTypes } from '../../domain/outbox/outbox.ts';
import { webhookEndpointStatuses } from '../../domain/shared/values.ts';
import { ALL_EVENTS } from '../../domain/webhooks/endpoints.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../../domain/webhooks/urls.ts';
import { BrandParams, DateTime, Uuid, errorResponses, ref } from './common.ts';

export const WebhookEndpoint = Type.Object(
  {
    id: Uuid,
    url: Type.String({ description: 'Where events are POSTed (normalized, e.g. `https://example.com/hooks`)' }),
    events: Type.Array(Type.String(), { description: 'Event types delivered to it (`["*"]` at creation lists every type here)' }),
    createdAt: DateTime,
    status: Type.Enum([...webhookEndpointStatuses], {
      description: '`disabled` after every attempt failed for 3 days (`WEBHOOK_DISABLE_AFTER_SECONDS`), or when the brand disabled it',
    }),
    failingSince: Type.Union([DateTime, Type.Null()], {
      description: 'When its current run of failed attempts began (the first failure since its last success); null while it succeeds',
    }),
    disabledAt: Type.Union([DateTime, Type.Null()], { description: 'When it was disabled; null while enabled' }),
  },
  { $id: 'WebhookEndpoint', description: 'Where a brand receives events' },
);

const tags = ['Integrations'];

export const createWebhookEndpointSchema = {
  tags,
  operationId: 'createWebhookEndpoint',
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
    201: Type.Object(
      {
        endpoint: ref(WebhookEndpoint),
        secret: Type.String({ description: 'The signing secret (`whsec_...`), shown only in this answer' }),
      },
      { description: 'The endpoint and its signing secret' },
    ),
  },
};

export const listWebhookEndpointsSchema = {
  tags,
  operationId: 'listWebhookEndpoints',
  summary: "List a brand's webhook endpoints",
  description: 'Oldest first; deleted endpoints are left out and secrets are never shown.',
  params: BrandParams,
  response: { 200: Type.Object({ data: Type.Array(ref(WebhookEndpoint)) }, { description: 'The live endpoints, oldest first' }) },
};

export const deleteWebhookEndpointSchema = {
  tags,
  operationId: 'deleteWebhookEndpoint',
  summary: 'Delete a webhook endpoint',
  description: 'It receives nothing more; its pending deliveries are given up (`failed`, "endpoint deleted").',
  params: Type.Object({ brandId: Uuid, endpointId: Uuid }),
  response: { 200: Type.Object({ endpoint: ref(WebhookEndpoint) }, { description: 'The endpoint deleted' }), ...errorResponses(404) },
};

export const updateWebhookEndpointSchema = {
  tags,
  operationId: 'updateWebhookEndpoint',
  summary: 'Enable or disable a webhook endpoint',
  description:
    'A disabled endpoint (by this, or by Tessera after every attempt failed for 3 days) gets no deliveries: its ' +
    'pending ones and those of later events are given up (`failed`, "endpoint disabled"). Enabled again, it gets ' +
    'the events from then on; catch up on the others with the events feed.',
  params: Type.Object({ brandId: Uuid, endpointId: Uuid }),
  body: Type.Object(
    { status: Type.Enum([...webhookEndpointStatuses], { description: '`enabled` to deliver to it again, `disabled` to stop' }) },
    { additionalProperties: false },
  ),
  response: { 200: Type.Object({ endpoint: ref(WebhookEndpoint) }, { description: 'The endpoint as it is now' }), ...errorResponses(404) },
};
