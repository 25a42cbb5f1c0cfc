import { and, asc, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { EventInsert, EventRow, EventsStore, PendingDeliveryInsert } from '../../../../domain/outbox/store.ts';
import { events, webhookEndpoints } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { outboxOf, writeOutbox } from '../../outbox.ts';

/** In a unit of work, into its outbox (written as it commits: ../../outbox.ts); outside one, at once. */
export async function insertEvent(db: PgExecutor, event: EventInsert): Promise<void> {
  const outbox = outboxOf(db);
  if (outbox) outbox.events.push(event);
  else await db.transaction((tx) => writeOutbox(tx, { events: [event], deliveries: [], toSubscribers: [] }));
}

/** As `insertEvent`; the deliveries are written with the event, in the same statement. */
export async function insertEventForSubscribers(db: PgExecutor, event: EventInsert): Promise<void> {
  const outbox = outboxOf(db);
  if (outbox) {
    outbox.events.push(event);
    outbox.toSubscribers.push(event.id);
  } else await db.transaction((tx) => writeOutbox(tx, { events: [event], deliveries: [], toSubscribers: [event.id] }));
}

// Every unit recording an event asks: a named statement.
const liveEndpoints = preparedPerExecutor((db) =>
  db
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.brandId, sql.placeholder('brandId')), isNull(webhookEndpoints.deletedAt)))
    .prepare('live_endpoints'),
);

export async function liveEndpointsOfBrand(db: PgExecutor, brandId: string): Promise<Array<{ id: string; eventTypes: string[] }>> {
  return liveEndpoints(db).execute({ brandId });
}

/** As `insertEvent`: with the unit's events, or at once outside one. */
export async function insertPendingDeliveries(db: PgExecutor, rows: readonly PendingDeliveryInsert[]): Promise<void> {
  if (rows.length === 0) return;
  const outbox = outboxOf(db);
  if (outbox) outbox.deliveries.push(...rows);
  else await writeOutbox(db, { events: [], deliveries: [...rows], toSubscribers: [] });
}

export async function findEventPage(
  db: PgExecutor,
  brandId: string,
  after: number,
  types: readonly string[] | null,
  limit: number,
): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(and(eq(events.brandId, brandId), gt(events.sequence, after), types ? inArray(events.type, [...types]) : undefined))
    .orderBy(asc(events.sequence))
    .limit(limit);
}

export async function hasEventsUpTo(db: PgExecutor, brandId: string, upTo: number, types: readonly string[] | null): Promise<boolean> {
  const [row] = await db
    .select({ sequence: events.sequence })
    .from(events)
    .where(and(eq(events.brandId, brandId), lte(events.sequence, upTo), types ? inArray(events.type, [...types]) : undefined))
    .limit(1);
  return row !== undefined;
}

// Every live hub pages with it on each commit's notification: a seek on the primary key, a named statement.
const eventsAfter = preparedPerExecutor((db) =>
  db
    .select()
    .from(events)
    .where(gt(events.sequence, sql.placeholder('after')))
    .orderBy(asc(events.sequence))
    .limit(sql.placeholder('limit'))
    .prepare('events_after'),
);

export async function findEventsAfter(db: PgExecutor, after: number, limit: number): Promise<EventRow[]> {
  return eventsAfter(db).execute({ after, limit });
}

export async function lastEventSequence(db: PgExecutor): Promise<number> {
  const [row] = await db.select({ sequence: events.sequence }).from(events).orderBy(desc(events.sequence)).limit(1);
  return row?.sequence ?? 0;
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
} satisfies PostgresStore<EventsStore>;
