/**
 * Events in commit order without serializing writers. Readers page events by `sequence` and trust it
 * to only grow (src/domain/outbox/feed.ts, the webhook dispatcher, the metrics' counts): an event
 * committed after a reader's page must land after the page's cursor, or the reader skips it for good.
 * An identity hands out numbers when rows are inserted, not when they commit, so a unit of work does not
 * insert its events as it records them: they wait in its outbox, and as the unit ends it takes the
 * events lock (one advisory lock key, held to COMMIT), inserts them with their deliveries, and commits.
 * Units number and commit their events one after another, in number order, on every gateway; the rest
 * of their work runs at the same time. The lock is the last a unit takes, after every row it writes, so
 * no unit holding it waits for another: nothing deadlocks on it.
 *
 * The same statement queues a notification on EVENTS_CHANNEL, which the server delivers to every
 * listening connection (one per gateway, event-hints.ts) when the unit commits, and drops when it rolls
 * back: the hint behind `Database.onEventsCommitted`. Notifications of one transaction on one channel
 * with one payload are folded into one.
 */
import { sql } from 'drizzle-orm';
import type { EventInsert, PendingDeliveryInsert } from '../../domain/outbox/store.ts';
import { events, webhookDeliveries } from './schema/index.ts';
import type { PgExecutor } from './store-binding.ts';

export interface Outbox {
  events: EventInsert[];
  deliveries: PendingDeliveryInsert[];
}

/** The channel every gateway LISTENs on; the payload is empty (a hint, not data). */
export const EVENTS_CHANNEL = 'tessera_events';

const EVENTS_LOCK = sql`SELECT pg_advisory_xact_lock(hashtextextended('tessera:events', 0)), pg_notify(${EVENTS_CHANNEL}, '')`;

/** The outbox of the unit of work (or savepoint) running on each executor. */
const outboxes = new WeakMap<PgExecutor, Outbox>();

export function openOutbox(executor: PgExecutor): Outbox {
  const outbox: Outbox = { events: [], deliveries: [] };
  outboxes.set(executor, outbox);
  return outbox;
}

/** The outbox of the unit of work `executor` belongs to; none outside one. */
export function outboxOf(executor: PgExecutor): Outbox | undefined {
  return outboxes.get(executor);
}

/** What a savepoint recorded joins its unit's outbox once the savepoint is kept. */
export function keepInto(parent: Outbox, child: Outbox): void {
  parent.events.push(...child.events);
  parent.deliveries.push(...child.deliveries);
}

/**
 * Writes what `outbox` holds, under the events lock, in the transaction about to commit (or, outside a
 * unit of work, in one of its own): the events in the order they were recorded, then their deliveries,
 * each naming its event by id. Two statements at most.
 */
export async function writeOutbox(tx: PgExecutor, outbox: Outbox): Promise<void> {
  if (outbox.events.length > 0) {
    await tx.execute(EVENTS_LOCK);
    await tx.insert(events).values(outbox.events);
  }
  if (outbox.deliveries.length === 0) return;
  const rows = sql.join(
    outbox.deliveries.map((d) => sql`(${d.id}, ${d.endpointId}, ${d.eventId}, ${d.resourceId}, ${d.at}::timestamptz)`),
    sql`, `,
  );
  await tx.execute(sql`
    INSERT INTO ${webhookDeliveries} (id, endpoint_id, event_sequence, resource_id, status, attempts, next_attempt_at, created_at)
    SELECT d.id, d.endpoint_id, e.sequence, d.resource_id, 'pending', 0, d.at, d.at
    FROM (VALUES ${rows}) AS d (id, endpoint_id, event_id, resource_id, at)
    JOIN ${events} e ON e.id = d.event_id`);
}
