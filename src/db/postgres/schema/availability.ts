import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { experiences } from './catalog.ts';
import { instant } from './columns.ts';

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    /** Local start in the experience's zone, `YYYY-MM-DDTHH:MM:SS` (no offset): text, as it is no instant. */
    startLocal: text('start_local').notNull(),
    /** The same instant, for clocks and ordering across zones. */
    startsAt: instant('starts_at').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    capacity: integer('capacity').notNull(),
    /**
     * Places taken by active participants of `processing` and `confirmed` bookings. Changed only in the
     * transactions that change those participants; the CHECK makes overselling impossible even for a bug.
     */
    reserved: integer('reserved').notNull().default(0),
    /** Places held for waitlist entries that were offered them; only those entries may take them. */
    heldForOffers: integer('held_for_offers').notNull().default(0),
    /**
     * Of `reserved`, the places of `processing` bookings a publishable key made that count against the
     * brand's publishable share (`bookings.publishable_hold`): taken with them, given back when they are
     * paid, fail or are cancelled. Kept with `reserved` so the share is guarded by the same one statement.
     */
    publishableHeld: integer('publishable_held').notNull().default(0),
    /**
     * When the brand cancelled the session (weather, a sick guide), ISO 8601 UTC; null while it runs. A cancelled
     * session is no longer sold: the statements that take places require it null.
     */
    cancelledAt: instant('cancelled_at'),
  },
  (t) => [
    uniqueIndex('sessions_experience_start_idx').on(t.experienceId, t.startLocal),
    check(
      'sessions_reserved_within_capacity',
      sql`${t.reserved} >= 0 AND ${t.heldForOffers} >= 0 AND ${t.reserved} + ${t.heldForOffers} <= ${t.capacity}`,
    ),
    check('sessions_publishable_held_within_reserved', sql`${t.publishableHeld} >= 0 AND ${t.publishableHeld} <= ${t.reserved}`),
  ],
);
