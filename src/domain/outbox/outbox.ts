/**
 * The transactional outbox. A state change records its event with `recordEvent` inside its own
 * transaction, so the event exists exactly when the change does (a rolled-back change leaves none).
 * The same call queues one pending delivery per webhook endpoint of the brand subscribed to the type;
 * the dispatcher sends them later, outside any transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Stores } from '../shared/database.ts';
/** Every event type, exactly as partners subscribe to and filter by them. */
export const eventTypes = [
  'booking.created',
  'booking.confirmed',
  'booking.failed',
  'booking.cancelled',
  'booking.participants_cancelled',
  'booking.refunded',
  'booking.rescheduled',
  'waitlist.entry_created',
  'waitlist.offered',
  'waitlist.converted',
  'waitlist.expired',
  'experience.created',
  'experience.updated',
  'experience.archived',
  'listing.created',
  'listing.updated',
  'listing.published',
  'brand.updated',
  'host.created',
  'host.updated',
  'coupon.created',
  'coupon.updated',
  'credit_code.created',
  'credit_code.updated',
  'session.created',
  'session.updated',
  'session.cancelled',
] as const;

export type EventType = (typeof eventTypes)[number];

export const isEventType = (value: string): value is EventType => (eventTypes as readonly string[]).includes(value);

export interface StoredEvent {
  id: string;
  brandId: string;
  type: EventType;
  /** The booking, waitlist entry, listing, brand, experience or session the event is about. */
  resourceId: string;
  /** The resource as the API shows it, taken in the transaction of the change. */
  payload: Record<string, unknown>;
  createdAt: string;
}

/**
 * Names the event of `type` about `resourceId` before it is recorded. Live changes leave ids random;
 * the demo seed passes stable ones, so the same demo gets the same event ids on every run.
 */
export type EventIdSource = (type: EventType, resourceId: string) => string;

export interface NewEvent {
  /** A random UUID when absent. */
  id?: string;
  brandId: string;
  type: EventType;
  resourceId: string;
  payload: Record<string, unknown>;
  /** When the change happened, ISO 8601 UTC; also when its deliveries first fall due. */
  at: string;
}

/**
 * Records `event` and queues a `pending` delivery for each live endpoint of its brand subscribed to
 * its type. `tx` must be the transaction making the change.
 */
export async function recordEvent(tx: Stores, event: NewEvent): Promise<StoredEvent> {
  const row = {
    id: event.id ?? randomUUID(),
    brandId: event.brandId,
    type: event.type,
    resourceId: event.resourceId,
    payload: event.payload,
    createdAt: event.at,
  };
  await tx.events.insertEventForSubscribers(row);
  return row;
}

/** What partners receive for an event: the events feed shows it and webhooks POST it, byte for byte the same. */
export interface EventEnvelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export function eventEnvelope(event: { id: string; type: string; createdAt: string; payload: Record<string, unknown> }): EventEnvelope {
  return { id: event.id, type: event.type, createdAt: event.createdAt, data: event.payload };
}
