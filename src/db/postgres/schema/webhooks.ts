import { bigint, index, integer, json, pgTable, text } from 'drizzle-orm/pg-core';
import { webhookDeliveryStatuses } from '../../../domain/shared/values.ts';
import { brands } from './catalog.ts';
import { createdAt, instant } from './columns.ts';
import { events } from './outbox.ts';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    url: text('url').notNull(),
    /** Event types delivered to this endpoint. */
    eventTypes: json('event_types').$type<string[]>().notNull(),
    /** The signing secret, encrypted (AES-256-GCM) with the server's key: it must be readable to sign. */
    secretCiphertext: text('secret_ciphertext').notNull(),
    createdAt: createdAt(),
    /** Deleted endpoints keep their delivery log and receive nothing more. */
    deletedAt: instant('deleted_at'),
    /** When its current run of failed attempts began (the first failure since its last success); null while it succeeds. */
    failingSince: instant('failing_since'),
    /** Disabled endpoints (failing too long, or by the brand) get no attempts until enabled again. */
    disabledAt: instant('disabled_at'),
    /**
     * The order endpoints were written in, which SQLite keeps as its rowid: endpoints created in the same
     * millisecond are listed in creation order. The only column of this schema SQLite's lacks; the
     * stores never hand it out.
     */
    writeOrder: bigint('write_order', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
  },
  (t) => [index('webhook_endpoints_brand_idx').on(t.brandId)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    eventSequence: bigint('event_sequence', { mode: 'number' })
      .notNull()
      .references(() => events.sequence),
    /** Copied from the event: an endpoint gets one resource's events strictly in order. */
    resourceId: text('resource_id').notNull(),
    status: text('status', { enum: webhookDeliveryStatuses }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull(),
    lastAttemptAt: instant('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: instant('delivered_at'),
    /** While an attempt is in flight: when its lease ends. It counts against its endpoint's concurrency until then. */
    leasedUntil: instant('leased_until'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_order_idx').on(t.endpointId, t.resourceId, t.eventSequence),
    // Few rows hold a lease at any moment: counting an endpoint's attempts in flight reads only those.
    index('webhook_deliveries_lease_idx').on(t.leasedUntil),
  ],
);
