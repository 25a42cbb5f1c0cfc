/**
 * Webhook endpoints: where a brand wants its events POSTed. The signing secret is returned once, at
 * creation, and kept only encrypted; deleting an endpoint stops every delivery to it, disabling one
 * (the dispatcher does when it has failed too long) stops them until it is enabled again.
 */
import { randomUUID } from 'node:crypto';
import { type WebhookEndpointRow } from './store.ts';
import type { WebhookEndpointStatus } from '../shared/values.ts';
import { ENDPOINT_DISABLED } from './dispatcher.ts';
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { eventTypes, isEventType, type EventType } from '../outbox/outbox.ts';
import { encryptSecret, newSigningSecret } from './secrets.ts';
import type { WebhookCallerDeps } from './settings.ts';
import { checkWebhookUrl } from './urls.ts';

export interface WebhookEndpoint {
  id: string;
  url: string;
  /** The event types delivered to it. */
  events: string[];
  createdAt: string;
  /** `disabled`: it gets no deliveries until enabled again. */
  status: WebhookEndpointStatus;
  /** When its current run of failed attempts began; null while its last attempt succeeded. */
  failingSince: string | null;
  /** When it was disabled; null while enabled. */
  disabledAt: string | null;
}

export interface CreatedWebhookEndpoint {
  endpoint: WebhookEndpoint;
  /** The signing secret: returned here only, never again. */
  secret: string;
}

/** Subscribes to every event type (expanded when the endpoint is created). */
export const ALL_EVENTS = '*';

const toEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.eventTypes,
  createdAt: row.createdAt,
  status: row.disabledAt ? 'disabled' : 'enabled',
  failingSince: row.failingSince,
  disabledAt: row.disabledAt,
});

/**
 * The event types `events` subscribes to: a non-empty list of known types without repeats, or `["*"]`
 * for all of them. VALIDATION_FAILED naming `events` (or the bad entry, `events.2`) otherwise.
 */
export function subscribedEventTypes(events: readonly string[]): EventType[] {
  if (events.length === 0) throw invalid('events', 'events must list at least one event type, or "*" for all');
  // More entries than there are types can only repeat one: refused before looking at them.
  if (events.length > eventTypes.length) throw invalid('events', `events must list at most ${eventTypes.length} event types`);
  if (events.length === 1 && events[0] === ALL_EVENTS) return [...eventTypes];
  events.forEach((type, index) => {
    if (type === ALL_EVENTS) throw invalid(`events.${index}`, '"*" subscribes to every event type and must be the only entry');
    if (!isEventType(type)) throw invalid(`events.${index}`, `events.${index} must be one of ${eventTypes.join(', ')} or "*"`);
  });
  if (new Set(events).size !== events.length) throw invalid('events', 'events must not list a type twice');
  return events as EventType[];
}

export async function createWebhookEndpoint(
  deps: WebhookCallerDeps,
  input: { brandId: string; url: string; events: readonly string[] },
): Promise<CreatedWebhookEndpoint> {
  const brand = await loadBrand(deps, input.brandId);
  const types = subscribedEventTypes(input.events);
  const url = await checkWebhookUrl(deps.webhooks, input.url);
  const id = randomUUID();
  const secret = newSigningSecret();
  const row = await deps.db.webhooks.insertWebhookEndpoint({
    id,
    brandId: brand.id,
    url,
    eventTypes: types,
    secretCiphertext: encryptSecret(deps.webhooks.encryptionKeys, secret, id),
    createdAt: deps.now().toISOString(),
  });
  return { endpoint: toEndpoint(row), secret };
}

/** The brand's endpoints (deleted ones excluded), oldest first; secrets are never listed. */
export async function listWebhookEndpoints(deps: CallerDeps, input: { brandId: string }): Promise<WebhookEndpoint[]> {
  const brand = await loadBrand(deps, input.brandId);
  return (await deps.db.webhooks.liveWebhookEndpoints(brand.id)).map(toEndpoint);
}

/** The endpoint if it is a live one of `brandId`; NOT_FOUND otherwise (other brands' are never revealed). */
function liveEndpointOf(row: WebhookEndpointRow | undefined, brandId: string, id: string): WebhookEndpointRow {
  if (!row || row.brandId !== brandId || row.deletedAt) throw notFound('Webhook endpoint', id);
  return row;
}

/**
 * Deletes the endpoint: it receives nothing more, and its pending deliveries become `failed`
 * ("endpoint deleted"). Its delivery log stays readable.
 */
export async function deleteWebhookEndpoint(deps: CallerDeps, input: { brandId: string; endpointId: string }): Promise<WebhookEndpoint> {
  const brand = await loadBrand(deps, input.brandId);
  const at = deps.now().toISOString();
  return deps.db.transaction(async (tx) => {
    const row = liveEndpointOf(await tx.webhooks.findWebhookEndpoint(input.endpointId), brand.id, input.endpointId);
    await tx.webhooks.deleteWebhookEndpointRow(row.id, at, 'endpoint deleted');
    return toEndpoint(row);
  });
}

/**
 * Enables or disables the endpoint. Disabling gives up its pending deliveries (`failed`, "endpoint
 * disabled") and those of later events; enabling delivers the events from then on, with a fresh start
 * (not failing). Setting the status it has changes nothing. NOT_FOUND when it is not a live endpoint of the brand.
 */
export async function updateWebhookEndpoint(
  deps: CallerDeps,
  input: { brandId: string; endpointId: string; status: WebhookEndpointStatus },
): Promise<WebhookEndpoint> {
  const brand = await loadBrand(deps, input.brandId);
  const at = deps.now().toISOString();
  return deps.db.transaction(async (tx) => {
    const row = liveEndpointOf(await tx.webhooks.findWebhookEndpoint(input.endpointId), brand.id, input.endpointId);
    const disabled = row.disabledAt !== null;
    if (input.status === 'disabled' && !disabled) await tx.webhooks.disableWebhookEndpointRow(row.id, at, ENDPOINT_DISABLED);
    if (input.status === 'enabled' && disabled) await tx.webhooks.enableWebhookEndpointRow(row.id);
    return toEndpoint((await tx.webhooks.findWebhookEndpoint(row.id))!);
  });
}
