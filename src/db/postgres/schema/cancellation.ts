import { sql } from 'drizzle-orm';
import { check, index, integer, json, pgTable, text } from 'drizzle-orm/pg-core';
import type { RefundEffectJson } from '../../../domain/shared/json-types.ts';
import { refundStatuses } from '../../../domain/shared/values.ts';
import { bookings } from './bookings.ts';
import { createdAt, instant } from './columns.ts';

/**
 * The refund ledger. A refund is `pending` from the moment its amount is reserved on the booking until
 * the processor answers; a `failed` one gives the amount back.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    amountMinor: integer('amount_minor').notNull(),
    status: text('status', { enum: refundStatuses }).notNull(),
    processorReference: text('processor_reference'),
    /** What settling the refund does besides the ledger (cancellations, the asker's bookkeeping). */
    effect: json('effect').$type<RefundEffectJson>().notNull().default({ cancel: false, participantIds: null, also: null }),
    /** Processor calls made for it so far, whatever their outcome. */
    attempts: integer('attempts').notNull().default(0),
    /**
     * When the reconciler may next ask the processor about a `pending` refund (it also waits for a grace
     * period after `created_at`); moved forward as a lease while it asks. Null once settled.
     */
    nextAttemptAt: instant('next_attempt_at'),
    /** Why the last processor call gave no answer. */
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [
    index('refunds_booking_idx').on(t.bookingId),
    index('refunds_due_idx').on(t.status, t.nextAttemptAt),
    check('refunds_positive', sql`${t.amountMinor} > 0`),
  ],
);
