import { and, asc, desc, eq, isNull, sql, type Column, type SQL } from 'drizzle-orm';
import type { DeliveryFilter, DeliveryKey, DeliveryLogRow, WebhookEndpointRow, WebhooksStore } from '../../../../domain/webhooks/store.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import { readOwned, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { giveUpPendingDeliveries } from './dispatch.ts';

/** Text keys compared and ordered byte by byte, as SQLite does, whatever the database's collation. */
const bytes = (column: Column) => sql`${column} COLLATE "C"`;

/** An endpoint as the port gives it: every column but the write order. */
const endpointColumns = {
  id: webhookEndpoints.id,
  brandId: webhookEndpoints.brandId,
  url: webhookEndpoints.url,
  eventTypes: webhookEndpoints.eventTypes,
  secretCiphertext: webhookEndpoints.secretCiphertext,
  createdAt: webhookEndpoints.createdAt,
  deletedAt: webhookEndpoints.deletedAt,
  failingSince: webhookEndpoints.failingSince,
  disabledAt: webhookEndpoints.disabledAt,
} satisfies Record<keyof WebhookEndpointRow, Column>;

export async function insertWebhookEndpoint(
  db: PgExecutor,
  row: Parameters<WebhooksStore['insertWebhookEndpoint']>[0],
): Promise<WebhookEndpointRow> {
  const [inserted] = await db.insert(webhookEndpoints).values(row).returning(endpointColumns);
  return inserted!;
}

/**
 * The brand's endpoints that are not deleted, oldest first; endpoints of the same millisecond in the
 * order they were written (SQLite's rowid, the write order column here).
 */
export async function liveWebhookEndpoints(db: PgExecutor, brandId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.brandId, brandId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.writeOrder));
}

export async function findWebhookEndpoint(db: PgExecutor, id: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await readOwned(db, db.select(endpointColumns).from(webhookEndpoints).where(eq(webhookEndpoints.id, id)));
  return row;
}

export async function deleteWebhookEndpointRow(db: PgExecutor, id: string, at: string, reason: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ deletedAt: at })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)));
  await giveUpPendingDeliveries(db, id, reason);
}

export async function disableWebhookEndpointRow(db: PgExecutor, id: string, at: string, reason: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ disabledAt: at })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt), isNull(webhookEndpoints.disabledAt)));
  await giveUpPendingDeliveries(db, id, reason);
}

export async function enableWebhookEndpointRow(db: PgExecutor, id: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ disabledAt: null, failingSince: null })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)));
}

function filterWhere(filter: DeliveryFilter): SQL | undefined {
  return and(
    eq(webhookEndpoints.brandId, filter.brandId),
    filter.endpointId ? eq(webhookDeliveries.endpointId, filter.endpointId) : undefined,
    filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
  );
}

/** Before `key` in newest-first order (by event, then delivery id in byte order). */
const olderThan = (key: DeliveryKey) =>
  sql`(${webhookDeliveries.eventSequence}, ${bytes(webhookDeliveries.id)}) < (${key.eventSequence}, ${key.id})`;

export async function findDeliveryPage(
  db: PgExecutor,
  filter: DeliveryFilter,
  after: DeliveryKey | null,
  limit: number,
): Promise<DeliveryLogRow[]> {
  const rows = await db
    .select({ delivery: webhookDeliveries, eventId: events.id, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.sequence, webhookDeliveries.eventSequence))
    .where(and(filterWhere(filter), after ? olderThan(after) : undefined))
    .orderBy(desc(webhookDeliveries.eventSequence), desc(bytes(webhookDeliveries.id)))
    .limit(limit);
  return rows.map((row) => ({ ...row.delivery, eventId: row.eventId, eventType: row.eventType }));
}

export async function countDeliveries(
  db: PgExecutor,
  filter: DeliveryFilter,
  after: DeliveryKey | null,
): Promise<{ total: number; before: number }> {
  const before = after ? sql<number>`coalesce(sum(CASE WHEN ${olderThan(after)} THEN 0 ELSE 1 END), 0)` : sql<number>`0`;
  const [row] = await db
    .select({ total: sql<number>`count(*)`.mapWith(Number), before: before.mapWith(Number) })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(filterWhere(filter));
  return { total: row?.total ?? 0, before: row?.before ?? 0 };
}

/**
 * Up to `limit` endpoints' sealed secrets (deleted ones too) with ids after `afterId`, in id order (byte
 * order, as on SQLite): a primary key range where the database's collation is C.
 */
export async function sealedSecretsPage(
  db: PgExecutor,
  afterId: string | null,
  limit: number,
): Promise<Array<{ id: string; secretCiphertext: string }>> {
  return db
    .select({ id: webhookEndpoints.id, secretCiphertext: webhookEndpoints.secretCiphertext })
    .from(webhookEndpoints)
    .where(afterId === null ? undefined : sql`${bytes(webhookEndpoints.id)} > ${afterId}`)
    .orderBy(asc(bytes(webhookEndpoints.id)))
    .limit(limit);
}

export async function replaceSealedSecret(db: PgExecutor, id: string, previous: string, next: string): Promise<boolean> {
  const result = await db
    .update(webhookEndpoints)
    .set({ secretCiphertext: next })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.secretCiphertext, previous)));
  return result.rowCount === 1;
}

export const webhooksStore = {
  insertWebhookEndpoint,
  liveWebhookEndpoints,
  findWebhookEndpoint,
  deleteWebhookEndpointRow,
  disableWebhookEndpointRow,
  enableWebhookEndpointRow,
  findDeliveryPage,
  countDeliveries,
  sealedSecretsPage,
  replaceSealedSecret,
} satisfies PostgresStore<WebhooksStore>;
