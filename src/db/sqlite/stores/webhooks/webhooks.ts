import { and, asc, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import type { DeliveryFilter, DeliveryKey, DeliveryLogRow, WebhookEndpointRow, WebhooksStore } from '../../../../domain/webhooks/store.ts';
import type { SqliteStore } from '../../store-binding.ts';
import { giveUpPendingDeliveries } from './dispatch.ts';

export function insertWebhookEndpoint(db: Db, row: typeof webhookEndpoints.$inferInsert): WebhookEndpointRow {
  return db.insert(webhookEndpoints).values(row).returning().get();
}

export function liveWebhookEndpoints(db: Db, brandId: string): WebhookEndpointRow[] {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.brandId, brandId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(asc(webhookEndpoints.createdAt), asc(sql`${webhookEndpoints}.rowid`))
    .all();
}

export function findWebhookEndpoint(db: Db, id: string): WebhookEndpointRow | undefined {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
}

export function deleteWebhookEndpointRow(db: Db, id: string, at: string, reason: string): void {
  db.update(webhookEndpoints)
    .set({ deletedAt: at })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
    .run();
  giveUpPendingDeliveries(db, id, reason);
}

export function disableWebhookEndpointRow(db: Db, id: string, at: string, reason: string): void {
  db.update(webhookEndpoints)
    .set({ disabledAt: at })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt), isNull(webhookEndpoints.disabledAt)))
    .run();
  giveUpPendingDeliveries(db, id, reason);
}

export function enableWebhookEndpointRow(db: Db, id: string): void {
  db.update(webhookEndpoints)
    .set({ disabledAt: null, failingSince: null })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
    .run();
}

function filterWhere(filter: DeliveryFilter): SQL | undefined {
  return and(
    eq(webhookEndpoints.brandId, filter.brandId),
    filter.endpointId ? eq(webhookDeliveries.endpointId, filter.endpointId) : undefined,
    filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
  );
}

const olderThan = (key: DeliveryKey) =>
  sql`(${webhookDeliveries.eventSequence}, ${webhookDeliveries.id}) < (${key.eventSequence}, ${key.id})`;

export function findDeliveryPage(db: Db, filter: DeliveryFilter, after: DeliveryKey | null, limit: number): DeliveryLogRow[] {
  return db
    .select({ delivery: webhookDeliveries, eventId: events.id, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.sequence, webhookDeliveries.eventSequence))
    .where(and(filterWhere(filter), after ? olderThan(after) : undefined))
    .orderBy(desc(webhookDeliveries.eventSequence), desc(webhookDeliveries.id))
    .limit(limit)
    .all()
    .map((row) => ({ ...row.delivery, eventId: row.eventId, eventType: row.eventType }));
}

export function countDeliveries(db: Db, filter: DeliveryFilter, after: DeliveryKey | null): { total: number; before: number } {
  const before = after ? sql<number>`coalesce(sum(CASE WHEN ${olderThan(after)} THEN 0 ELSE 1 END), 0)` : sql<number>`0`;
  const row = db
    .select({ total: sql<number>`count(*)`, before })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(filterWhere(filter))
    .get();
  return { total: row?.total ?? 0, before: row?.before ?? 0 };
}

/** Up to `limit` endpoints' sealed secrets (deleted ones too) with ids after `afterId`, in id order: a primary key range. */
export function sealedSecretsPage(db: Db, afterId: string | null, limit: number): Array<{ id: string; secretCiphertext: string }> {
  return db
    .select({ id: webhookEndpoints.id, secretCiphertext: webhookEndpoints.secretCiphertext })
    .from(webhookEndpoints)
    .where(afterId === null ? undefined : gt(webhookEndpoints.id, afterId))
    .orderBy(asc(webhookEndpoints.id))
    .limit(limit)
    .all();
}

export function replaceSealedSecret(db: Db, id: string, previous: string, next: string): boolean {
  const result = db
    .update(webhookEndpoints)
    .set({ secretCiphertext: next })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.secretCiphertext, previous)))
    .run();
  return result.changes === 1;
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
} satisfies SqliteStore<WebhooksStore>;
