import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import type { EventInsert, EventRow, EventsStore, PendingDeliveryInsert } from '../../../../domain/outbox/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

// Every state change records an event and looks up its brand's endpoints: both prepared once.
const eventInsert = preparedPerDb((db) =>
  db
    .insert(events)
    .values({
      id: sql.placeholder('id'),
      brandId: sql.placeholder('brandId'),
      type: sql.placeholder('type'),
      resourceId: sql.placeholder('resourceId'),
      payload: sql.placeholder('payload'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare(),
);

export function insertEvent(db: Db, event: EventInsert): void {
  eventInsert(db).run(event);
}

const liveEndpoints = preparedPerDb((db) =>
  db
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.brandId, sql.placeholder('brandId')), isNull(webhookEndpoints.deletedAt)))
    .prepare(),
);

export function liveEndpointsOfBrand(db: Db, brandId: string): Array<{ id: string; eventTypes: string[] }> {
  return liveEndpoints(db).all({ brandId });
}

// A brand has a few endpoints at most: one prepared single-row insert per delivery, naming its event by id.
const pendingDeliveryInsert = preparedPerDb((db) =>
  db
    .insert(webhookDeliveries)
    .values({
      id: sql.placeholder('id'),
      endpointId: sql.placeholder('endpointId'),
      eventSequence: sql`(SELECT ${events.sequence} FROM ${events} WHERE ${events.id} = ${sql.placeholder('eventId')})`,
      resourceId: sql.placeholder('resourceId'),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: sql.placeholder('at'),
      createdAt: sql.placeholder('at'),
    })
    .prepare(),
);

export function insertPendingDeliveries(db: Db, rows: readonly PendingDeliveryInsert[]): void {
  for (const row of rows) pendingDeliveryInsert(db).run({ ...row });
}

export function insertEventForSubscribers(db: Db, event: EventInsert): void {
  insertEvent(db, event);
  for (const endpoint of liveEndpointsOfBrand(db, event.brandId)) {
    if (!endpoint.eventTypes.includes(event.type)) continue;
    pendingDeliveryInsert(db).run({
      id: randomUUID(),
      endpointId: endpoint.id,
      eventId: event.id,
      resourceId: event.resourceId,
      at: event.createdAt,
    });
  }
}

export function findEventPage(db: Db, brandId: string, after: number, types: readonly string[] | null, limit: number): EventRow[] {
  return db
    .select()
    .from(events)
    .where(and(eq(events.brandId, brandId), gt(events.sequence, after), types ? inArray(events.type, [...types]) : undefined))
    .orderBy(asc(events.sequence))
    .limit(limit)
    .all();
}

export function hasEventsUpTo(db: Db, brandId: string, upTo: number, types: readonly string[] | null): boolean {
  const row = db
    .select({ sequence: events.sequence })
    .from(events)
    .where(and(eq(events.brandId, brandId), lte(events.sequence, upTo), types ? inArray(events.type, [...types]) : undefined))
    .limit(1)
    .get();
  return row !== undefined;
}

// Every live hub of the gateway pages with it: a seek on the primary key, prepared once.
const eventsAfter = preparedPerDb((db) =>
  db
    .select()
    .from(events)
    .where(gt(events.sequence, sql.placeholder('after')))
    .orderBy(asc(events.sequence))
    .limit(sql.placeholder('limit'))
    .prepare(),
);

export function findEventsAfter(db: Db, after: number, limit: number): EventRow[] {
  return eventsAfter(db).all({ after, limit });
}

// A live hub's first listener asks it: prepared once as well.
const lastSequence = preparedPerDb((db) =>
  db.select({ sequence: events.sequence }).from(events).orderBy(desc(events.sequence)).limit(1).prepare(),
);

export function lastEventSequence(db: Db): number {
  return lastSequence(db).get()?.sequence ?? 0;
}

export const eventsStore = {
  insertEvent,
  insertEventForSubscribers,
  liveEndpointsOfBrand,
  insertPendingDeliveries,
  findEventPage,
  hasEventsUpTo,
  findEventsAfter,
  lastEventSequence,
} satisfies SqliteStore<EventsStore>;
