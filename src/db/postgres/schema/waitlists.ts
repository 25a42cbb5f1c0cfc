import { sql } from 'drizzle-orm';
import { index, integer, json, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { WaitlistPerson } from '../../../domain/shared/json-types.ts';
import { waitlistEntryStatuses } from '../../../domain/shared/values.ts';
import { sessions } from './availability.ts';
import { bookings } from './bookings.ts';
import { brands, experiences } from './catalog.ts';
import { createdAt, instant } from './columns.ts';

/** One waitlist per experience; its entries name a session (see the waitlists issue). */
export const waitlists = pgTable('waitlists', {
  id: text('id').primaryKey(),
  experienceId: text('experience_id')
    .notNull()
    .unique()
    .references(() => experiences.id),
  createdAt: createdAt(),
});

/** A party waiting for places on one sold-out session. Live entries are `waiting` and `offered`. */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: text('id').primaryKey(),
    waitlistId: text('waitlist_id')
      .notNull()
      .references(() => waitlists.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    status: text('status', { enum: waitlistEntryStatuses }).notNull(),
    /** First come, first served: 1, 2, 3... per session, in joining order. */
    position: integer('position').notNull(),
    partySize: integer('party_size').notNull(),
    purchaser: json('purchaser').$type<WaitlistPerson>().notNull(),
    /** Lower-cased purchaser email: one live entry per email and session. */
    purchaserEmailKey: text('purchaser_email_key').notNull(),
    participants: json('participants').$type<WaitlistPerson[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull(),
    offeredAt: instant('offered_at'),
    /** While `offered`: when the held places go to the next entry. */
    offerExpiresAt: instant('offer_expires_at'),
    convertedBookingId: text('converted_booking_id').references(() => bookings.id),
    /**
     * Who joined with a publishable key: the client's HMAC (never its address), counted against its
     * budget of live entries' places in the brand. Null for a secret key's entries, which are not bounded.
     */
    holdClient: text('hold_client'),
  },
  (t) => [
    uniqueIndex('waitlist_entries_session_position_idx').on(t.sessionId, t.position),
    uniqueIndex('waitlist_entries_live_email_idx')
      .on(t.sessionId, t.purchaserEmailKey)
      .where(sql`status IN ('waiting', 'offered')`),
    index('waitlist_entries_waitlist_idx').on(t.waitlistId, t.position),
    index('waitlist_entries_offer_expiry_idx').on(t.status, t.offerExpiresAt),
    index('waitlist_entries_hold_client_idx').on(t.brandId, t.holdClient),
  ],
);
