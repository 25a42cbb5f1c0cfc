/** The delivery log: every attempt's outcome per endpoint and event, for a brand's back office. */
import { type DeliveryFilter, type DeliveryKey, type DeliveryLogRow, type WebhookDeliveryStatus } from './store.ts';
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { connection, decodeCursor, encodeCursor, pageSize, type Edge, type PageInfo } from '../shared/pagination.ts';

export type { WebhookDeliveryStatus };

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  /** Attempts whose outcome is known. */
  attempts: number;
  lastAttemptAt: string | null;
  /** HTTP status of the last answer; null when there was none (timeout, connection error). */
  lastStatusCode: number | null;
  lastError: string | null;
  /** While pending: when the next attempt is due. */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export interface WebhookDeliveryConnection {
  edges: Array<Edge<WebhookDelivery>>;
  pageInfo: PageInfo;
  totalCount: number;
}

const toDelivery = (row: DeliveryLogRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpointId,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  lastAttemptAt: row.lastAttemptAt,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
  deliveredAt: row.deliveredAt,
  createdAt: row.createdAt,
});

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const deliveryCursor = (key: DeliveryKey) => encodeCursor([String(key.eventSequence), key.id]);

function deliveryKey(cursor: string, field: string): DeliveryKey {
  const [sequence = '', id = ''] = decodeCursor(cursor, 2, field);
  if (!/^[1-9]\d{0,15}$/.test(sequence) || !uuid.test(id)) throw invalid(field, `${field} is not a cursor issued by this API`);
  return { eventSequence: Number(sequence), id };
}

/**
 * The brand's deliveries, newest event first, as a Relay connection; optionally of one endpoint (also
 * a deleted one; NOT_FOUND when it is not the brand's) and in one status.
 */
export async function listWebhookDeliveries(
  deps: CallerDeps,
  input: {
    brandId: string;
    endpointId?: string | null;
    status?: WebhookDeliveryStatus | null;
    first?: number | null;
    after?: string | null;
  },
): Promise<WebhookDeliveryConnection> {
  const first = pageSize(input.first, 'first');
  const after = input.after == null ? null : deliveryKey(input.after, 'after');
  const brand = await loadBrand(deps, input.brandId);
  if (input.endpointId && (await deps.db.webhooks.findWebhookEndpoint(input.endpointId))?.brandId !== brand.id) {
    throw notFound('Webhook endpoint', input.endpointId);
  }
  const filter: DeliveryFilter = { brandId: brand.id, endpointId: input.endpointId, status: input.status };
  // One row more than asked tells whether another page follows.
  const rows = await deps.db.webhooks.findDeliveryPage(filter, after, first + 1);
  const page = rows.slice(0, first);
  const { total, before } = await deps.db.webhooks.countDeliveries(filter, after);
  const edges = page.map((row) => ({ cursor: deliveryCursor(row), node: toDelivery(row) }));
  return { ...connection(edges, { hasNextPage: rows.length > first, hasPreviousPage: before > 0 }), totalCount: total };
}
