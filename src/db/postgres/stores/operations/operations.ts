/**
 * What operators ask of the database: is it answering, is its schema current, does it take writes, how long
 * are the queues. Every count here is one range of an existing index (`status` leads each of them).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, asc, count, eq, gt, isNotNull, isNull, max, sql } from 'drizzle-orm';
import type { OperationsStore, QueueSizes, UnpaidPlaces } from '../../../../domain/operations/store.ts';
import {
  bookings,
  carts,
  events,
  participants,
  readinessHeartbeat,
  waitlistEntries,
  webhookDeliveries,
  webhookEndpoints,
} from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';

const journalFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../drizzle/postgres/migrations/meta/_journal.json');

let newestMigration: number | undefined;

/** The `when` of the newest migration shipped with this build (drizzle records it as `created_at`). */
function newestShippedMigration(): number {
  if (newestMigration === undefined) {
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ when: number }> };
    newestMigration = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return newestMigration;
}

/** A trivial statement: throws when the connection is closed or the server does not answer. */
export async function pingDatabase(db: PgExecutor): Promise<void> {
  await db.execute(sql`SELECT 1`);
}

/**
 * Whether the newest migration this build ships is recorded as applied, in the table Drizzle's migrator
 * keeps (`drizzle.__drizzle_migrations`, whose `created_at` is a bigint: read as text, hence `Number`).
 */
export async function migrationsCurrent(db: PgExecutor): Promise<boolean> {
  const table = await db.execute<{ name: string | null }>(sql`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS name`);
  if (!table.rows[0]?.name) return false;
  const row = await db.execute<{ newest: string | null }>(sql`SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations`);
  const newest = row.rows[0]?.newest ?? null;
  return newest !== null && Number(newest) >= newestShippedMigration();
}

export async function recordHeartbeat(db: PgExecutor, at: string): Promise<void> {
  await db
    .insert(readinessHeartbeat)
    .values({ id: 1, writtenAt: at })
    .onConflictDoUpdate({ target: readinessHeartbeat.id, set: { writtenAt: at } });
}

export async function queueSizes(db: PgExecutor): Promise<QueueSizes> {
  const one = (rows: Array<{ n: number }>) => rows[0]?.n ?? 0;
  return {
    holdsActive: one(await db.select({ n: count() }).from(bookings).where(eq(bookings.status, 'processing'))),
    waitlistOffersActive: one(await db.select({ n: count() }).from(waitlistEntries).where(eq(waitlistEntries.status, 'offered'))),
    webhookDeliveriesPending: one(await db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'))),
    webhookDeliveriesFailed: one(await db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'failed'))),
    webhookEndpointsDisabled: one(
      await db
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(and(isNotNull(webhookEndpoints.disabledAt), isNull(webhookEndpoints.deletedAt))),
    ),
  };
}

export async function newestEventSequence(db: PgExecutor): Promise<number> {
  const [row] = await db.select({ newest: max(events.sequence) }).from(events);
  return row?.newest ?? 0;
}

/** By type (byte order), as SQLite's grouping leaves them. */
export async function eventCountsAfter(db: PgExecutor, after: number): Promise<Array<{ type: string; n: number; newest: number }>> {
  const rows = await db
    .select({ type: events.type, n: count(), newest: max(events.sequence) })
    .from(events)
    .where(gt(events.sequence, after))
    .groupBy(events.type)
    .orderBy(asc(sql`${events.type} COLLATE "C"`));
  return rows.map((row) => ({ type: row.type, n: row.n, newest: row.newest ?? after }));
}

/** By brand id, then key kind, in byte order with null first, as SQLite orders them. */
export async function unpaidPlacesHeld(db: PgExecutor): Promise<UnpaidPlaces[]> {
  return db
    .select({ brandId: bookings.brandId, keyKind: carts.holdKeyKind, places: count() })
    .from(participants)
    .innerJoin(bookings, eq(bookings.id, participants.bookingId))
    .leftJoin(carts, eq(carts.id, bookings.cartId))
    .where(and(eq(bookings.status, 'processing'), isNull(participants.cancelledAt)))
    .groupBy(bookings.brandId, carts.holdKeyKind)
    .orderBy(sql`${bookings.brandId} COLLATE "C"`, sql`${carts.holdKeyKind} COLLATE "C" NULLS FIRST`);
}

export const operationsStore = {
  pingDatabase,
  migrationsCurrent,
  recordHeartbeat,
  queueSizes,
  unpaidPlacesHeld,
  newestEventSequence,
  eventCountsAfter,
} satisfies PostgresStore<OperationsStore>;
