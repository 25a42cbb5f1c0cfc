import { and, asc, eq, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import type { AttemptResult, DueDelivery, WebhookDispatchStore } from '../../../../domain/webhooks/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const earlier = alias(webhookDeliveries, 'earlier');

export function findDueDeliveries(db: Db, now: string, limit: number): DueDelivery[] {
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
    .orderBy(asc(webhookDeliveries.eventSequence), asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(limit)
    .all();
}

/**
 * Claims due deliveries as `findDueDeliveries` finds them, moving each one's next attempt to `until`,
 * in one write transaction (BEGIN IMMEDIATE: another process on the file claims before or after).
 */
export function claimDueDeliveries(db: Db, now: string, limit: number, until: string): DueDelivery[] {
  return db.transaction(
    () => {
      const due = findDueDeliveries(db, now, limit);
      for (const delivery of due)
        db.update(webhookDeliveries).set({ nextAttemptAt: until }).where(eq(webhookDeliveries.id, delivery.id)).run();
      return due.map((delivery) => ({ ...delivery, nextAttemptAt: until }));
    },
    { behavior: 'immediate' },
  );
}

export function recordAttempt(db: Db, id: string, result: AttemptResult): void {
  db.update(webhookDeliveries)
    .set({
      status: result.status,
      attempts: result.attempts,
      lastAttemptAt: result.attemptedAt,
      lastStatusCode: result.statusCode,
      lastError: result.error,
      deliveredAt: result.status === 'delivered' ? result.finishedAt : null,
      ...(result.nextAttemptAt ? { nextAttemptAt: result.nextAttemptAt } : {}),
    })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
    .run();
}

export const webhookDispatchStore = {
  findDueDeliveries,
  claimDueDeliveries,
  recordAttempt,
} satisfies SqliteStore<WebhookDispatchStore>;
