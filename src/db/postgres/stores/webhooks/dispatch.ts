import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AttemptResult, DueDelivery, WebhookDispatchStore } from '../../../../domain/webhooks/store.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { claimRows } from '../claims.ts';

const earlier = alias(webhookDeliveries, 'earlier');
const leased = alias(webhookDeliveries, 'leased');

/** No cap: every due delivery of an endpoint may be leased at once. */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

/** Text keys ordered byte by byte, as SQLite does, whatever the database's collation. */
const deliveryIdBytes = sql`${webhookDeliveries.id} COLLATE "C"`;

/**
 * The due deliveries of live endpoints with their place among their endpoint's (1 for the first due)
 * and how many of the endpoint's are leased at `now`. A delivery whose endpoint still has an earlier
 * pending delivery for the same resource waits (leased ones included), so each resource's events reach
 * an endpoint strictly in order; hence at most one per (endpoint, resource). The earlier pending delivery
 * is looked up in the (endpoint_id, resource_id, event_sequence) index, the leased ones in the lease index.
 */
function rankedDue(db: PgExecutor, now: string, endpointIds: string[] | null) {
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
  const inFlight = db
    .select({ n: sql<number>`count(*)` })
    .from(leased)
    .where(and(gt(leased.leasedUntil, now), eq(leased.endpointId, webhookDeliveries.endpointId), eq(leased.status, 'pending')));
  return db
    .select({
      id: webhookDeliveries.id,
      place: sql<number>`row_number() OVER (PARTITION BY ${webhookDeliveries.endpointId}
        ORDER BY ${webhookDeliveries.eventSequence}, ${webhookDeliveries.nextAttemptAt}, ${deliveryIdBytes})`.as('place'),
      busy: sql<number>`(${inFlight})`.as('busy'),
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
        isNull(webhookEndpoints.deletedAt),
        endpointIds ? inArray(webhookDeliveries.endpointId, endpointIds) : undefined,
        notExists(blocked),
      ),
    )
    .as('ranked');
}

/**
 * Up to `limit` of the due deliveries within their endpoint's cap, in event order. Deliveries of one
 * event (one per endpoint): the one due first first, then by delivery id in byte order, as on SQLite.
 * The status and due time are asked again of the delivery row itself, so a claim that waited for a row
 * another one leased meanwhile checks it as it now is.
 */
function dueDeliveries(db: PgExecutor, now: string, limit: number, perEndpoint: number, endpointIds: string[] | null = null) {
  const ranked = rankedDue(db, now, endpointIds);
  return db
    .select({
      id: webhookDeliveries.id,
      attempts: webhookDeliveries.attempts,
      createdAt: webhookDeliveries.createdAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      endpointId: webhookEndpoints.id,
      url: webhookEndpoints.url,
      secretCiphertext: webhookEndpoints.secretCiphertext,
      endpointDisabled: sql<boolean>`${webhookEndpoints.disabledAt} IS NOT NULL`,
      event: { id: events.id, type: events.type, createdAt: events.createdAt, payload: events.payload },
    })
    .from(ranked)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, ranked.id))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.sequence, webhookDeliveries.eventSequence))
    .where(
      and(
        lte(sql`${ranked.place} + ${ranked.busy}`, perEndpoint),
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
      ),
    )
    .orderBy(asc(webhookDeliveries.eventSequence), asc(webhookDeliveries.nextAttemptAt), asc(deliveryIdBytes))
    .limit(limit);
}

export async function findDueDeliveries(db: PgExecutor, now: string, limit: number, perEndpoint = UNCAPPED): Promise<DueDelivery[]> {
  return dueDeliveries(db, now, limit, perEndpoint);
}

/**
 * Claims due deliveries as `findDueDeliveries` finds them (claims.ts), locking the delivery rows. With a
 * cap, the claim first locks the endpoints it claims for (NO KEY UPDATE, SKIP LOCKED: one another gateway
 * is claiming for is passed over until the next look), so the claims of one endpoint run one after
 * another, each counting the leases of the one before: two gateways never lease past the cap together.
 * Fan-out's foreign-key checks (KEY SHARE) do not wait for that lock.
 */
export async function claimDueDeliveries(
  db: PgExecutor,
  now: string,
  limit: number,
  until: string,
  perEndpoint = UNCAPPED,
): Promise<DueDelivery[]> {
  return claimRows(
    db,
    webhookDeliveries,
    async (tx) => {
      if (perEndpoint !== UNCAPPED) {
        const dueEndpoints = tx
          .select({ endpointId: webhookDeliveries.endpointId })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)));
        const locked = await tx
          .select({ id: webhookEndpoints.id })
          .from(webhookEndpoints)
          .where(and(inArray(webhookEndpoints.id, dueEndpoints), isNull(webhookEndpoints.deletedAt)))
          .for('no key update', { skipLocked: true });
        if (locked.length === 0) return [];
        // A fresh statement: it sees every lease committed by the claims that held these endpoints before.
        return dueDeliveries(
          tx,
          now,
          limit,
          perEndpoint,
          locked.map((row) => row.id),
        ).for('update', { of: webhookDeliveries, skipLocked: true });
      }
      return dueDeliveries(tx, now, limit, perEndpoint).for('update', { of: webhookDeliveries, skipLocked: true });
    },
    until,
    { leasedUntil: until },
  );
}

/**
 * The endpoint first, then the delivery: the order deleting or disabling an endpoint locks them in, so
 * the two never wait for each other. The endpoint row is written (and locked) only when its failing state
 * changes: the first failure after a success, or the first success after failures.
 */
export async function recordAttempt(db: PgExecutor, id: string, result: AttemptResult): Promise<{ failingSince: string | null }> {
  return db.transaction(async (tx) => {
    const endpointOfPending = tx
      .select({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
    const succeeded = result.error === null;
    await tx
      .update(webhookEndpoints)
      .set({ failingSince: succeeded ? null : result.attemptedAt })
      .where(
        and(
          inArray(webhookEndpoints.id, endpointOfPending),
          succeeded ? isNotNull(webhookEndpoints.failingSince) : isNull(webhookEndpoints.failingSince),
          // A disabled (or deleted) endpoint's state stays as it was when it stopped; its attempts in flight no longer count.
          isNull(webhookEndpoints.disabledAt),
          isNull(webhookEndpoints.deletedAt),
        ),
      );
    const [recorded] = await tx
      .update(webhookDeliveries)
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
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
      .returning({ endpointId: webhookDeliveries.endpointId });
    if (!recorded || succeeded) return { failingSince: null };
    const [endpoint] = await tx
      .select({ failingSince: webhookEndpoints.failingSince })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, recorded.endpointId));
    return { failingSince: endpoint?.failingSince ?? null };
  });
}

export async function giveUpDelivery(db: PgExecutor, id: string, reason: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: reason, leasedUntil: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
}

/** Gives up the endpoint's pending deliveries with `reason` (it was deleted or disabled). */
export async function giveUpPendingDeliveries(db: PgExecutor, endpointId: string, reason: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: reason, leasedUntil: null })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
}

export async function disableFailingEndpoint(
  db: PgExecutor,
  id: string,
  failingSinceBy: string,
  at: string,
  reason: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const disabled = await tx
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
      .returning({ id: webhookEndpoints.id });
    if (disabled.length === 0) return false;
    await giveUpPendingDeliveries(tx, id, reason);
    return true;
  });
}

export const webhookDispatchStore = {
  findDueDeliveries,
  claimDueDeliveries,
  recordAttempt,
  giveUpDelivery,
  disableFailingEndpoint,
} satisfies PostgresStore<WebhookDispatchStore>;
