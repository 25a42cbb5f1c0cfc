import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { AnswerValueJson, PricingBreakdown, QuestionSnapshotJson } from '../../../domain/shared/json-types.ts';
import { bookingStatuses, paymentMethods } from '../../../domain/shared/values.ts';
import { sessions } from './availability.ts';
import { brands, experiences } from './catalog.ts';
import { carts, creditCodes, paymentIntents } from './checkout.ts';

/** One booking per cart item. `amountRefundedMinor` always equals the sum of its live refund ledger rows. */
export const bookings = sqliteTable(
  'bookings',
  {
    id: text('id').primaryKey(),
    brandId: text('brand_id')
      .notNull()
      .references(() => brands.id),
    cartId: text('cart_id').references(() => carts.id),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    /** The session's local start, copied so back-office date filters are one index range. */
    sessionStartLocal: text('session_start_local').notNull(),
    paymentIntentId: text('payment_intent_id').references(() => paymentIntents.id),
    confirmationCode: text('confirmation_code').notNull(),
    cartConfirmationCode: text('cart_confirmation_code'),
    /** Position of the item in its cart (0-based), so a cart lists its bookings in item order. */
    cartPosition: integer('cart_position').notNull().default(0),
    status: text('status', { enum: bookingStatuses }).notNull(),
    currency: text('currency').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    amountRefundedMinor: integer('amount_refunded_minor').notNull().default(0),
    /** How the amount was reached (tiers, add-ons, discounts, taxes), in minor units. */
    pricing: text('pricing', { mode: 'json' }).$type<PricingBreakdown>().notNull(),
    paymentMethod: text('payment_method', { enum: paymentMethods }).notNull(),
    /** What the guest still owes, collected outside Tessera (pay upon arrival, pay later, room or member charge); 0 when paid by card. */
    amountDueMinor: integer('amount_due_minor').notNull().default(0),
    /** The room or member number charged (room-charge, member-number); null otherwise. */
    chargedTo: text('charged_to'),
    purchaserId: text('purchaser_id').notNull(),
    purchaserFirstName: text('purchaser_first_name').notNull(),
    purchaserLastName: text('purchaser_last_name').notNull(),
    purchaserEmail: text('purchaser_email'),
    purchaserPhone: text('purchaser_phone'),
    notes: text('notes'),
    internalNotes: text('internal_notes'),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    /**
     * An unpaid hold a publishable key made from places on sale: while `processing`, its active participants
     * count in its session's `publishable_held` (the brand's publishable share).
     */
    publishableHold: integer('publishable_hold', { mode: 'boolean' }).notNull().default(false),
    /** While `processing`: when the hold lapses and the booking fails. */
    holdExpiresAt: text('hold_expires_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('bookings_brand_code_idx').on(t.brandId, t.confirmationCode),
    index('bookings_cart_idx').on(t.cartId),
    // A payment's bookings are found by their intent, on every processor event.
    index('bookings_payment_intent_idx').on(t.paymentIntentId),
    index('bookings_brand_created_idx').on(t.brandId, t.createdAt, t.id),
    index('bookings_brand_session_start_idx').on(t.brandId, t.sessionStartLocal),
    index('bookings_hold_idx').on(t.status, t.holdExpiresAt),
    check('bookings_refund_within_amount', sql`${t.amountRefundedMinor} >= 0 AND ${t.amountRefundedMinor} <= ${t.amountMinor}`),
  ],
);

export const participants = sqliteTable(
  'participants',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    position: integer('position').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    emailAddress: text('email_address'),
    phoneNumber: text('phone_number'),
    priceTierName: text('price_tier_name').notNull(),
    priceMinor: integer('price_minor').notNull(),
    cancelledAt: text('cancelled_at'),
  },
  (t) => [index('participants_booking_idx').on(t.bookingId, t.position)],
);

/** Recorded answers to custom questions, each with the question as it was when answered. */
export const answers = sqliteTable(
  'answers',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    /** Null for purchaser-scoped answers. */
    participantId: text('participant_id').references(() => participants.id),
    question: text('question', { mode: 'json' }).$type<QuestionSnapshotJson>().notNull(),
    answer: text('answer', { mode: 'json' }).$type<AnswerValueJson[]>().notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('answers_booking_idx').on(t.bookingId)],
);

/** Credit taken from a credit code by a booking; given back if the booking never gets paid. */
export const creditRedemptions = sqliteTable('credit_redemptions', {
  id: text('id').primaryKey(),
  bookingId: text('booking_id')
    .notNull()
    .references(() => bookings.id),
  creditCodeId: text('credit_code_id')
    .notNull()
    .references(() => creditCodes.id),
  amountMinor: integer('amount_minor').notNull(),
});

/** Every move of a booking to another session of its experience: from where, to where, when, by which key. */
export const bookingReschedules = sqliteTable(
  'booking_reschedules',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    /** 1 for the booking's first move, 2 for its second...: a move counts the ones before it. */
    sequence: integer('sequence').notNull(),
    fromSessionId: text('from_session_id')
      .notNull()
      .references(() => sessions.id),
    fromStartLocal: text('from_start_local').notNull(),
    toSessionId: text('to_session_id')
      .notNull()
      .references(() => sessions.id),
    toStartLocal: text('to_start_local').notNull(),
    /** The API key that asked for the move. */
    apiKeyId: text('api_key_id').notNull(),
    at: text('at').notNull(),
  },
  (t) => [uniqueIndex('booking_reschedules_booking_sequence_idx').on(t.bookingId, t.sequence)],
);
