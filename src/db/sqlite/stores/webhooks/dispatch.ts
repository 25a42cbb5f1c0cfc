import { and, asc, eq, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import type { WebhookDispatchStore } from '../../../port/webhooks.ts';
import type { SqliteStore } from '../../store-binding.ts';

/** A delivery ready to send, with what sending needs from its endpoint and event. */
export interface DueDelivery {
  id: string;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  endpointId: string;
  url: string;
  secretCiphertext: string;
  event: { id: string; type: string; createdAt: string; payload: Record<string, unknown> };
}

const earlier = alias(webhookDeliveries, 'earlier');

/**
 * Up to `limit` pending deliveries due at `now`, in event order, of live endpoints. A delivery whose
 * endpoint still has an earlier pending delivery for the same resource waits (leased ones included),
 * so each resource's events reach an endpoint strictly in order; hence at most one per
 * (endpoint, resource).
 */
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
    .orderBy(asc(webhookDeliveries.eventSequence))
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

export interface AttemptResult {
  attempts: number;
  /** When the attempt started. */
  attemptedAt: string;
  /** When its outcome was known. */
  finishedAt: string;
  statusCode: number | null;
  error: string | null;
  /** `delivered` and `failed` end the delivery; `pending` retries at `nextAttemptAt`. */
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: string | null;
}

/** Records an attempt's outcome, unless the delivery stopped being pending meanwhile (endpoint deleted). */
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
