import { and, asc, eq, gt, inArray, is, isNull, lte } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { EventInsert, EventRow, EventsStore, PendingDeliveryInsert } from '../../../../domain/outbox/store.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { writeLock } from '../../write-lock.ts';

/**
 * Readers page events by `sequence` and trust it to only grow: an event committed after a reader's page
 * must land after the page's cursor, never before it, or the reader would skip it for good (see
 * src/domain/outbox/feed.ts). On SQLite the single writer gives that for free. On PostgreSQL an identity
 * hands out numbers when rows are inserted, not when they commit: a transaction that took 10 may commit
 * after one that took 11 was read. So an event's transaction holds the write lock (src/db/postgres/
 * write-lock.ts; a unit of work has taken it already) to its COMMIT or ROLLBACK: transactions writing
 * events then take their numbers and commit one after another, in number order, on every gateway of the
 * database. (Numbers a rolled back or retried transaction took are not reused: the sequence may have
 * gaps, which no cursor minds.)
 */
export async function insertEvent(db: PgExecutor, event: EventInsert): Promise<EventRow> {
  // A unit of work holds the write lock already; outside one, the lock and the insert need a transaction of their own.
  if (!is(db, PgTransaction))
    return db.transaction(async (tx) => {
      await tx.execute(writeLock);
      return insertEvent(tx, event);
    });
  const [row] = await db.insert(events).values(event).returning();
  return row!;
}

export async function liveEndpointsOfBrand(db: PgExecutor, brandId: string): Promise<Array<{ id: string; eventTypes: string[] }>> {
  return db
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.brandId, brandId), isNull(webhookEndpoints.deletedAt)));
}

/** One statement for all. */
export async function insertPendingDeliveries(db: PgExecutor, rows: readonly PendingDeliveryInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(webhookDeliveries).values(
    rows.map((row) => ({
      id: row.id,
      endpointId: row.endpointId,
      eventSequence: row.eventSequence,
      resourceId: row.resourceId,
      status: 'pending' as const,
      attempts: 0,
      nextAttemptAt: row.at,
      createdAt: row.at,
    })),
  );
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

export const eventsStore = {
  insertEvent,
  liveEndpointsOfBrand,
  insertPendingDeliveries,
  findEventPage,
  hasEventsUpTo,
} satisfies PostgresStore<EventsStore>;
