import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { brands } from './catalog.ts';

/**
 * The transactional outbox: every state change writes its event in the same transaction. `sequence`
 * orders events and pages the events query.
 */
export const events = sqliteTable(
  'events',
  {
    sequence: integer('sequence').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    type: text('type').notNull(),
    /** The booking or waitlist entry the event is about; deliveries keep its events in order. */
    resourceId: text('resource_id').notNull(),
    /** The resource as the API shows it, when the event happened. */
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('events_brand_sequence_idx').on(t.brandId, t.sequence)],
);
