import { and, asc, eq, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AttemptResult, DueDelivery, WebhookDispatchStore } from '../../../../domain/webhooks/store.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { claimRows } from '../claims.ts';

const earlier = alias(webhookDeliveries, 'earlier');

/**
 * Up to `limit` pending deliveries due at `now`, in event order, of live endpoints. A delivery whose
 * endpoint still has an earlier pending delivery for the same resource waits (leased ones included),
 * so each resource's events reach an endpoint strictly in order; hence at most one per
 * (endpoint, resource). The earlier pending delivery is looked up in the (endpoint_id, resource_id,
 * event_sequence) index. Deliveries of one event (one per endpoint): the one due first first, then by
 * delivery id in byte order, as on SQLite.
 */
function dueDeliveries(db: PgExecutor, now: string, limit: number) {
  const blocked = db
    .select({ one: sql`1` })
    .from(earlier)
    .where(
      and(
        eq(earlier.endpointId, webhookDeliveries.endpointId),
        eq(earlier.resourceId, webhookDeliveries.resourceId),
        eq(earlier.status, 'pending'),
        lt(earlier.eventSequence, webhookDeliveries.eventSequence),
      ),
    );
  return db
    .select({
      id: webhookDeliveries.id,
      attempts: webhookDeliveries.attempts,
      createdAt: webhookDeliveries.createdAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      endpointId: webhookEndpoints.id,
      url: webhookEndpoints.url,
      secretCiphertext: webhookEndpoints.secretCiphertext,
      event: { id: events.id, type: events.type, createdAt: events.createdAt, payload: events.payload },
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.sequence, webhookDeliveries.eventSequence))
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
        isNull(webhookEndpoints.deletedAt),
        notExists(blocked),
      ),
    )
    .orderBy(asc(webhookDeliveries.eventSequence), asc(webhookDeliveries.nextAttemptAt), asc(sql`${webhookDeliveries.id} COLLATE "C"`))
    .limit(limit);
}

export async function findDueDeliveries(db: PgExecutor, now: string, limit: number): Promise<DueDelivery[]> {
  return dueDeliveries(db, now, limit);
}

/** Claims due deliveries as `findDueDeliveries` finds them (claims.ts), locking only the delivery rows. */
export async function claimDueDeliveries(db: PgExecutor, now: string, limit: number, until: string): Promise<DueDelivery[]> {
  return claimRows(
    db,
    webhookDeliveries,
    (tx) => dueDeliveries(tx, now, limit).for('update', { of: webhookDeliveries, skipLocked: true }),
    until,
  );
}

export async function recordAttempt(db: PgExecutor, id: string, result: AttemptResult): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      status: result.status,
      attempts: result.attempts,
      lastAttemptAt: result.attemptedAt,
      lastStatusCode: result.statusCode,
      lastError: result.error,
      deliveredAt: result.status === 'delivered' ? result.finishedAt : null,
      ...(result.nextAttemptAt ? { nextAttemptAt: result.nextAttemptAt } : {}),
    })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
}

export const webhookDispatchStore = {
  findDueDeliveries,
  claimDueDeliveries,
  recordAttempt,
} satisfies PostgresStore<WebhookDispatchStore>;
