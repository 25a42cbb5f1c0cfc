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
import { events, webhookDeliveries, webhookEndpoints } from './schema/index.ts';
import { namedSql } from './named-sql.ts';
import type { PgExecutor } from './store-binding.ts';

export interface Outbox {
  events: EventInsert[];
  deliveries: PendingDeliveryInsert[];
  /** Ids of the events delivered to every live endpoint of their brand subscribed to their type. */
  toSubscribers: string[];
}

/** The channel every gateway LISTENs on; the payload is empty (a hint, not data). */
export const EVENTS_CHANNEL = 'tessera_events';

const EVENTS_LOCK = sql`SELECT pg_advisory_xact_lock(hashtextextended('tessera:events', 0)), pg_notify(${EVENTS_CHANNEL}, '')`;

/** The outbox of the unit of work (or savepoint) running on each executor. */
const outboxes = new WeakMap<PgExecutor, Outbox>();

export function openOutbox(executor: PgExecutor): Outbox {
  const outbox: Outbox = { events: [], deliveries: [], toSubscribers: [] };
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
  parent.toSubscribers.push(...child.toSubscribers);
}

/**
 * The unit's events, in the order they were recorded, and their deliveries: one named statement of a fixed
 * text (each column an array, unnested), prepared once per connection. The lock is a CTE the events' INSERT
 * reads its rows through, so it is taken before the first number is drawn; the deliveries join the numbers
 * the INSERT returns, those named by event id and those going to every endpoint subscribed to the event. A
 * data-modifying CTE runs to completion whether or not the main query reads it.
 */
const writeEvents = namedSql(
  'write_events',
  sql`WITH events_lock AS MATERIALIZED (${EVENTS_LOCK}),
    written AS (
      INSERT INTO ${events} (id, brand_id, type, resource_id, payload, created_at)
      SELECT e.id, e.brand_id, e.type, e.resource_id, e.payload, e.created_at
      FROM events_lock,
        unnest(${sql.placeholder('ids')}::text[], ${sql.placeholder('brandIds')}::text[], ${sql.placeholder('types')}::text[],
          ${sql.placeholder('resourceIds')}::text[], ${sql.placeholder('payloads')}::json[], ${sql.placeholder('createdAt')}::timestamptz[])
          WITH ORDINALITY AS e (id, brand_id, type, resource_id, payload, created_at, n)
      ORDER BY e.n
      RETURNING id, sequence, brand_id, type, resource_id, created_at
    )
    INSERT INTO ${webhookDeliveries} (id, endpoint_id, event_sequence, resource_id, next_attempt_at, status, attempts, created_at)
    SELECT s.*, 'pending', 0, s.next_attempt_at FROM (
      SELECT d.id, d.endpoint_id, w.sequence, d.resource_id, d.at
      FROM ${deliveriesOf('d')}
      JOIN written w ON w.id = d.event_id
      UNION ALL
      SELECT gen_random_uuid()::text, ep.id, w.sequence, w.resource_id, w.created_at
      FROM written w
      JOIN ${webhookEndpoints} ep ON ep.brand_id = w.brand_id AND ep.deleted_at IS NULL AND ep.event_types::jsonb ? w.type
      WHERE w.id = ANY(${sql.placeholder('toSubscribers')}::text[])
    ) AS s (id, endpoint_id, event_sequence, resource_id, next_attempt_at)`,
);

/** Deliveries of events committed before this unit: their numbers read from the table. */
const writeDeliveries = namedSql(
  'write_deliveries',
  sql`INSERT INTO ${webhookDeliveries} (id, endpoint_id, event_sequence, resource_id, status, attempts, next_attempt_at, created_at)
    SELECT d.id, d.endpoint_id, e.sequence, d.resource_id, 'pending', 0, d.at, d.at
    FROM ${deliveriesOf('d')}
    JOIN ${events} e ON e.id = d.event_id`,
);

/** The deliveries' placeholders unnested as rows `alias` (id, endpoint_id, event_id, resource_id, at). */
function deliveriesOf(alias: string) {
  return sql`unnest(${sql.placeholder('deliveryIds')}::text[], ${sql.placeholder('endpointIds')}::text[], ${sql.placeholder('eventIds')}::text[],
    ${sql.placeholder('deliveryResourceIds')}::text[], ${sql.placeholder('deliveryAt')}::timestamptz[]) AS ${sql.raw(alias)} (id, endpoint_id, event_id, resource_id, at)`;
}

const deliveryValues = (deliveries: readonly PendingDeliveryInsert[]) => ({
  deliveryIds: deliveries.map((d) => d.id),
  endpointIds: deliveries.map((d) => d.endpointId),
  eventIds: deliveries.map((d) => d.eventId),
  deliveryResourceIds: deliveries.map((d) => d.resourceId),
  deliveryAt: deliveries.map((d) => d.at),
});

/**
 * Writes what `outbox` holds, under the events lock, in the transaction about to commit (or, outside a
 * unit of work, in one of its own): the events in the order they were recorded, then their deliveries,
 * each naming its event by id or going to the endpoints subscribed to it (`writeEvents`). `beforeLast` is called just before the last statement it sends (the unit
 * runner sends its COMMIT behind that one), not at all if it sends none.
 */
export async function writeOutbox(tx: PgExecutor, outbox: Outbox, beforeLast: () => void = () => {}): Promise<void> {
  const { events: recorded, deliveries } = outbox;
  const ids = new Set(recorded.map((e) => e.id));
  const ownDeliveries: PendingDeliveryInsert[] = [];
  const otherDeliveries: PendingDeliveryInsert[] = [];
  for (const delivery of deliveries) (ids.has(delivery.eventId) ? ownDeliveries : otherDeliveries).push(delivery);
  if (recorded.length > 0) {
    if (otherDeliveries.length === 0) beforeLast();
    await writeEvents(tx, {
      ids: recorded.map((e) => e.id),
      brandIds: recorded.map((e) => e.brandId),
      types: recorded.map((e) => e.type),
      resourceIds: recorded.map((e) => e.resourceId),
      payloads: recorded.map((e) => JSON.stringify(e.payload)),
      createdAt: recorded.map((e) => e.createdAt),
      ...deliveryValues(ownDeliveries),
      toSubscribers: outbox.toSubscribers,
    });
  }
  if (otherDeliveries.length > 0) {
    beforeLast();
    await writeDeliveries(tx, deliveryValues(otherDeliveries));
  }
}
