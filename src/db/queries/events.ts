import { and, asc, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../schema.ts';

export type EventRow = typeof events.$inferSelect;
export type EventInsert = Omit<typeof events.$inferInsert, 'sequence'>;

/** Inserts an event; returns it with the sequence the database gave it. */
export function insertEvent(db: Db, event: EventInsert): EventRow {
  return db.insert(events).values(event).returning().get();
}

/** Ids and subscribed types of the brand's endpoints that are not deleted. */
export function liveEndpointsOfBrand(db: Db, brandId: string): Array<{ id: string; eventTypes: string[] }> {
  return db
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.brandId, brandId), isNull(webhookEndpoints.deletedAt)))
    .all();
}

export interface PendingDeliveryInsert {
  id: string;
  endpointId: string;
  eventSequence: number;
  resourceId: string;
  at: string;
}

/** One `pending` delivery per row, due at once (`nextAttemptAt` = the event's time). */
export function insertPendingDeliveries(db: Db, rows: readonly PendingDeliveryInsert[]): void {
  if (rows.length === 0) return;
  db.insert(webhookDeliveries)
    .values(
      rows.map((r) => ({
        id: r.id,
        endpointId: r.endpointId,
        eventSequence: r.eventSequence,
        resourceId: r.resourceId,
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: r.at,
        createdAt: r.at,
      })),
    )
    .run();
}

/**
 * Up to `limit` of the brand's events after sequence `after`, oldest first, optionally of `types`
 * only: a seek on (brand_id, sequence).
 */
export function findEventPage(db: Db, brandId: string, after: number, types: readonly string[] | null, limit: number): EventRow[] {
  return db
    .select()
    .from(events)
    .where(and(eq(events.brandId, brandId), gt(events.sequence, after), types ? inArray(events.type, [...types]) : undefined))
    .orderBy(asc(events.sequence))
    .limit(limit)
    .all();
}

/** Whether the brand has an event at or before sequence `upTo` (of `types`, when given). */
export function hasEventsUpTo(db: Db, brandId: string, upTo: number, types: readonly string[] | null): boolean {
  const row = db
    .select({ sequence: events.sequence })
    .from(events)
    .where(and(eq(events.brandId, brandId), lte(events.sequence, upTo), types ? inArray(events.type, [...types]) : undefined))
    .limit(1)
    .get();
  return row !== undefined;
}
