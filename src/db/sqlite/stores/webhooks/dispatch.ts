import { and, asc, eq, gt, isNotNull, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import type { AttemptResult, DueDelivery, WebhookDispatchStore } from '../../../../domain/webhooks/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const earlier = alias(webhookDeliveries, 'earlier');
const leased = alias(webhookDeliveries, 'leased');

/** No cap: every due delivery of an endpoint may be leased at once. */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

/**
 * The due deliveries with their place among their endpoint's (1 for the first due) and how many of the
 * endpoint's are leased at `now`: the ones whose place plus that count is within the cap may be leased.
 */
function rankedDue(db: Db, now: string) {
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
  // Read through the lease index: only deliveries in flight have a lease in the future.
  const inFlight = db
    .select({ n: sql<number>`count(*)` })
    .from(leased)
    .where(and(gt(leased.leasedUntil, now), eq(leased.endpointId, webhookDeliveries.endpointId), eq(leased.status, 'pending')));
  return db
    .select({
      id: webhookDeliveries.id,
      place: sql<number>`row_number() OVER (PARTITION BY ${webhookDeliveries.endpointId}
        ORDER BY ${webhookDeliveries.eventSequence}, ${webhookDeliveries.nextAttemptAt}, ${webhookDeliveries.id})`.as('place'),
      busy: sql<number>`(${inFlight})`.as('busy'),
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
        isNull(webhookEndpoints.deletedAt),
        notExists(blocked),
      ),
    )
    .as('ranked');
}

export function findDueDeliveries(db: Db, now: string, limit: number, perEndpoint = UNCAPPED): DueDelivery[] {
  const ranked = rankedDue(db, now);
  return db
    .select({
      id: webhookDeliveries.id,
      attempts: webhookDeliveries.attempts,
      createdAt: webhookDeliveries.createdAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      endpointId: webhookEndpoints.id,
      url: webhookEndpoints.url,
      secretCiphertext: webhookEndpoints.secretCiphertext,
      endpointDisabled: sql<boolean>`${isNotNull(webhookEndpoints.disabledAt)}`.mapWith(Boolean),
      event: { id: events.id, type: events.type, createdAt: events.createdAt, payload: events.payload },
    })
    .from(ranked)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, ranked.id))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.sequence, webhookDeliveries.eventSequence))
    .where(lte(sql`${ranked.place} + ${ranked.busy}`, perEndpoint))
    .orderBy(asc(webhookDeliveries.eventSequence), asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(limit)
    .all();
}

/**
 * Claims due deliveries as `findDueDeliveries` finds them, leasing each until `until`, in one write
 * transaction (BEGIN IMMEDIATE: another process on the file claims before or after, and sees these leases).
 */
export function claimDueDeliveries(db: Db, now: string, limit: number, until: string, perEndpoint = UNCAPPED): DueDelivery[] {
  return db.transaction(
    () => {
      const due = findDueDeliveries(db, now, limit, perEndpoint);
      for (const delivery of due)
        db.update(webhookDeliveries).set({ nextAttemptAt: until, leasedUntil: until }).where(eq(webhookDeliveries.id, delivery.id)).run();
      return due.map((delivery) => ({ ...delivery, nextAttemptAt: until }));
    },
    { behavior: 'immediate' },
  );
}

/** As on PostgreSQL: the endpoint's failing state (written only when it changes), then the delivery. */
export function recordAttempt(db: Db, id: string, result: AttemptResult): { failingSince: string | null } {
  return db.transaction(
    () => {
      const pending = db
        .select({ endpointId: webhookDeliveries.endpointId })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
        .get();
      if (!pending) return { failingSince: null };
      const succeeded = result.error === null;
      db.update(webhookEndpoints)
        .set({ failingSince: succeeded ? null : result.attemptedAt })
        .where(
          and(
            eq(webhookEndpoints.id, pending.endpointId),
            succeeded ? isNotNull(webhookEndpoints.failingSince) : isNull(webhookEndpoints.failingSince),
            // A disabled (or deleted) endpoint's state stays as it was when it stopped; its attempts in flight no longer count.
            isNull(webhookEndpoints.disabledAt),
            isNull(webhookEndpoints.deletedAt),
          ),
        )
        .run();
      db.update(webhookDeliveries)
        .set({
          status: result.status,
          attempts: result.attempts,
          lastAttemptAt: result.attemptedAt,
          lastStatusCode: result.statusCode,
          lastError: result.error,
          deliveredAt: result.status === 'delivered' ? result.finishedAt : null,
          leasedUntil: null,
          ...(result.nextAttemptAt ? { nextAttemptAt: result.nextAttemptAt } : {}),
        })
        .where(eq(webhookDeliveries.id, id))
        .run();
      if (succeeded) return { failingSince: null };
      const endpoint = db
        .select({ failingSince: webhookEndpoints.failingSince })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, pending.endpointId))
        .get();
      return { failingSince: endpoint?.failingSince ?? null };
    },
    { behavior: 'immediate' },
  );
}

export function giveUpDelivery(db: Db, id: string, reason: string): void {
  db.update(webhookDeliveries)
    .set({ status: 'failed', lastError: reason, leasedUntil: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
    .run();
}

/** Gives up the endpoint's pending deliveries with `reason` (it was deleted or disabled). */
export function giveUpPendingDeliveries(db: Db, endpointId: string, reason: string): void {
  db.update(webhookDeliveries)
    .set({ status: 'failed', lastError: reason, leasedUntil: null })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')))
    .run();
}

export function disableFailingEndpoint(db: Db, id: string, failingSinceBy: string, at: string, reason: string): boolean {
  return db.transaction(
    () => {
      const disabled = db
        .update(webhookEndpoints)
        .set({ disabledAt: at })
        .where(
          and(
            eq(webhookEndpoints.id, id),
            isNull(webhookEndpoints.deletedAt),
            isNull(webhookEndpoints.disabledAt),
            lte(webhookEndpoints.failingSince, failingSinceBy),
          ),
        )
        .run();
      if (disabled.changes === 0) return false;
      giveUpPendingDeliveries(db, id, reason);
      return true;
    },
    { behavior: 'immediate' },
  );
}

export const webhookDispatchStore = {
  findDueDeliveries,
  claimDueDeliveries,
  recordAttempt,
  giveUpDelivery,
  disableFailingEndpoint,
} satisfies SqliteStore<WebhookDispatchStore>;
