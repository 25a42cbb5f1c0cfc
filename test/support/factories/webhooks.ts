import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { DEVELOPMENT_ENCRYPTION_KEY } from '../../../src/config.ts';
import { inTransaction, type Db } from '../../../src/db/client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../../src/db/schema.ts';
import { eventTypes, recordEvent, type EventType, type StoredEvent } from '../../../src/domain/events.ts';
import { encryptSecret, newSigningSecret } from '../../../src/domain/webhook-secrets.ts';

/** The key apps built by test/support/app.ts encrypt secrets with (no ENCRYPTION_KEY given). */
export const testWebhookKey = Buffer.from(DEVELOPMENT_ENCRYPTION_KEY, 'base64');

/** An endpoint stored as the API would store it; returns its row and its secret in clear. */
export function createWebhookEndpoint(
  db: Db,
  brandId: string,
  options: { url: string; events?: EventType[]; createdAt?: string; deletedAt?: string | null },
) {
  const id = randomUUID();
  const secret = newSigningSecret();
  const row = {
    id,
    brandId,
    url: options.url,
    eventTypes: options.events ?? [...eventTypes],
    secretCiphertext: encryptSecret(testWebhookKey, secret, id),
    createdAt: options.createdAt ?? new Date().toISOString(),
    deletedAt: options.deletedAt ?? null,
  };
  db.insert(webhookEndpoints).values(row).run();
  return { ...row, secret };
}

/** Records an event (and its pending deliveries) as a state change would, in its own transaction. */
export function recordTestEvent(
  db: Db,
  event: { brandId: string; type?: EventType; resourceId?: string; payload?: Record<string, unknown>; at?: Date },
): StoredEvent {
  const resourceId = event.resourceId ?? randomUUID();
  return inTransaction(db, (tx) =>
    recordEvent(tx, {
      brandId: event.brandId,
      type: event.type ?? 'booking.created',
      resourceId,
      payload: event.payload ?? { id: resourceId, status: 'processing' },
      at: (event.at ?? new Date()).toISOString(),
    }),
  );
}

export type DeliveryRow = typeof webhookDeliveries.$inferSelect & { eventId: string };

/** The deliveries to an endpoint, in event order, with their event's id. */
export function deliveriesOf(db: Db, endpointId: string): DeliveryRow[] {
  return db
    .select({ delivery: webhookDeliveries, eventId: events.id })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.sequence, webhookDeliveries.eventSequence))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(asc(webhookDeliveries.eventSequence))
    .all()
    .map((row) => ({ ...row.delivery, eventId: row.eventId }));
}
