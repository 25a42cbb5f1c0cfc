/**
 * What operators ask of the database: is it answering, is its schema current, does it take writes, how long
 * are the queues. Every count here is one range of an existing index (`status` leads each of them).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, asc, count, eq, gt, isNotNull, isNull, max, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
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
import type { OperationsStore, QueueSizes, UnpaidPlaces } from '../../../../domain/operations/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const journalFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../drizzle/sqlite/migrations/meta/_journal.json');

let newestMigration: number | undefined;

/** The `when` of the newest migration shipped with this build (drizzle records it as `created_at`). */
function newestShippedMigration(): number {
  if (newestMigration === undefined) {
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ when: number }> };
    newestMigration = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return newestMigration;
}

export function pingDatabase(db: Db): void {
  db.get(sql`SELECT 1`);
}

export function migrationsCurrent(db: Db): boolean {
  const table = db.get<{ name: string } | undefined>(
    sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'`,
  );
  if (!table) return false;
  const row = db.get<{ newest: number | null }>(sql`SELECT max(created_at) AS newest FROM __drizzle_migrations`);
  return row.newest !== null && Number(row.newest) >= newestShippedMigration();
}

/** Writes the heartbeat's one row, which no answer reads: it moves no data version (src/db/unversioned-tables.ts). */
export function recordHeartbeat(db: Db, at: string): void {
  db.insert(readinessHeartbeat)
    .values({ id: 1, writtenAt: at })
    .onConflictDoUpdate({ target: readinessHeartbeat.id, set: { writtenAt: at } })
    .run();
}

export function queueSizes(db: Db): QueueSizes {
  const one = (row: { n: number } | undefined) => row?.n ?? 0;
  return {
    holdsActive: one(db.select({ n: count() }).from(bookings).where(eq(bookings.status, 'processing')).get()),
    waitlistOffersActive: one(db.select({ n: count() }).from(waitlistEntries).where(eq(waitlistEntries.status, 'offered')).get()),
    webhookDeliveriesPending: one(db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending')).get()),
    webhookDeliveriesFailed: one(db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'failed')).get()),
    webhookEndpointsDisabled: one(
      db
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(and(isNotNull(webhookEndpoints.disabledAt), isNull(webhookEndpoints.deletedAt)))
        .get(),
    ),
  };
}

export function newestEventSequence(db: Db): number {
  return (
    db
      .select({ newest: max(events.sequence) })
      .from(events)
      .get()?.newest ?? 0
  );
}

export function eventCountsAfter(db: Db, after: number): Array<{ type: string; n: number; newest: number }> {
  return db
    .select({ type: events.type, n: count(), newest: max(events.sequence) })
    .from(events)
    .where(gt(events.sequence, after))
    .groupBy(events.type)
    .all()
    .map((row) => ({ type: row.type, n: row.n, newest: row.newest ?? after }));
}

export function unpaidPlacesHeld(db: Db): UnpaidPlaces[] {
  return db
    .select({ brandId: bookings.brandId, keyKind: carts.holdKeyKind, places: count() })
    .from(participants)
    .innerJoin(bookings, eq(bookings.id, participants.bookingId))
    .leftJoin(carts, eq(carts.id, bookings.cartId))
    .where(and(eq(bookings.status, 'processing'), isNull(participants.cancelledAt)))
    .groupBy(bookings.brandId, carts.holdKeyKind)
    .orderBy(asc(bookings.brandId), asc(carts.holdKeyKind))
    .all();
}

export const operationsStore = {
  pingDatabase,
  migrationsCurrent,
  recordHeartbeat,
  queueSizes,
  unpaidPlacesHeld,
  newestEventSequence,
  eventCountsAfter,
} satisfies SqliteStore<OperationsStore>;
