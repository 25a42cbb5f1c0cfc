import { bigint, index, json, pgTable, text } from 'drizzle-orm/pg-core';
import { brands } from './catalog.ts';
import { createdAt } from './columns.ts';

/**
 * The transactional outbox: every state change writes its event in the same transaction. `sequence`
 * orders events and pages the events query.
 */
export const events = pgTable(
  'events',
  {
    /**
     * An identity, as SQLite's AUTOINCREMENT: `bigint`, since every gateway of a deployment writes into
     * one sequence for years. Numbers in TypeScript, exact up to 2^53.
     */
    sequence: bigint('sequence', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    id: text('id').notNull().unique(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    type: text('type').notNull(),
    /** The booking or waitlist entry the event is about; deliveries keep its events in order. */
    resourceId: text('resource_id').notNull(),
    /**
     * The resource as the API shows it, when the event happened: `json`, not `jsonb`, so the feed and
     * the webhook bodies keep the keys in the order the API writes them.
     */
    payload: json('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('events_brand_sequence_idx').on(t.brandId, t.sequence)],
);
