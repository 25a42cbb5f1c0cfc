import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { PricingBreakdown } from '../json-types.ts';
import { bookings, carts, creditCodes, creditRedemptions, participants, paymentIntents } from '../schema.ts';

export type IntentStatus = (typeof paymentIntents.$inferSelect)['status'];

/** What handling a payment outcome needs of an intent (never its secret hash). */
export interface IntentRow {
  id: string;
  cartId: string;
  processor: string;
  processorReference: string;
  status: IntentStatus;
}

const intentColumns = {
  id: paymentIntents.id,
  cartId: paymentIntents.cartId,
  processor: paymentIntents.processor,
  processorReference: paymentIntents.processorReference,
  status: paymentIntents.status,
};

export function findIntentByReference(db: Db, processor: string, reference: string): IntentRow | undefined {
  return db
    .select(intentColumns)
    .from(paymentIntents)
    .where(and(eq(paymentIntents.processor, processor), eq(paymentIntents.processorReference, reference)))
    .get();
}

export function findIntentBySecretHash(db: Db, secretHash: string): IntentRow | undefined {
  return db.select(intentColumns).from(paymentIntents).where(eq(paymentIntents.secretHash, secretHash)).get();
}

export function findIntentById(db: Db, id: string): IntentRow | undefined {
  return db.select(intentColumns).from(paymentIntents).where(eq(paymentIntents.id, id)).get();
}

export function setIntentStatus(db: Db, id: string, status: IntentStatus, at: string): void {
  db.update(paymentIntents).set({ status, updatedAt: at }).where(eq(paymentIntents.id, id)).run();
}

/** What a payment outcome decides on for each booking paid by an intent. */
export interface IntentBookingRow {
  id: string;
  brandId: string;
  sessionId: string;
  status: (typeof bookings.$inferSelect)['status'];
  currency: string;
  amountMinor: number;
  amountRefundedMinor: number;
  /** Participants whose `cancelledAt` is null: the places the booking needs. */
  activeParticipants: number;
  pricing: PricingBreakdown;
}

/** The bookings an intent pays for, in cart item order. */
export function bookingsOfIntent(db: Db, intentId: string): IntentBookingRow[] {
  const rows = db
    .select({
      id: bookings.id,
      brandId: bookings.brandId,
      sessionId: bookings.sessionId,
      status: bookings.status,
      currency: bookings.currency,
      amountMinor: bookings.amountMinor,
      amountRefundedMinor: bookings.amountRefundedMinor,
      pricing: bookings.pricing,
    })
    .from(bookings)
    .where(eq(bookings.paymentIntentId, intentId))
    .orderBy(asc(bookings.cartPosition), asc(bookings.id))
    .all();
  if (rows.length === 0) return [];
  const active = new Map(
    db
      .select({ bookingId: participants.bookingId, n: count() })
      .from(participants)
      .where(and(inArray(participants.bookingId, rows.map((r) => r.id)), isNull(participants.cancelledAt)))
      .groupBy(participants.bookingId)
      .all()
      .map((r) => [r.bookingId, r.n]),
  );
  return rows.map((r) => ({ ...r, activeParticipants: active.get(r.id) ?? 0 }));
}

/** Marks the booking's still-active participants cancelled at `at`. */
export function cancelActiveParticipants(db: Db, bookingId: string, at: string): void {
  db.update(participants)
    .set({ cancelledAt: at })
    .where(and(eq(participants.bookingId, bookingId), isNull(participants.cancelledAt)))
    .run();
}

export function markCartPaid(db: Db, cartId: string, at: string): void {
  db.update(carts).set({ status: 'paid', updatedAt: at }).where(eq(carts.id, cartId)).run();
}

/**
 * Takes `amountMinor` from the brand's credit code `code` again for a booking (whose earlier redemption
 * was given back when its hold lapsed): false, and nothing changed, when the code is gone or its balance
 * no longer covers it.
 */
export function redeemCreditAgain(db: Db, input: { id: string; bookingId: string; brandId: string; code: string; amountMinor: number }): boolean {
  const row = db
    .select({ id: creditCodes.id })
    .from(creditCodes)
    .where(and(eq(creditCodes.brandId, input.brandId), eq(creditCodes.code, input.code)))
    .get();
  if (!row) return false;
  const taken = db
    .update(creditCodes)
    .set({ balanceMinor: sql`${creditCodes.balanceMinor} - ${input.amountMinor}` })
    .where(and(eq(creditCodes.id, row.id), sql`${creditCodes.balanceMinor} >= ${input.amountMinor}`))
    .run();
  if (taken.changes !== 1) return false;
  db.insert(creditRedemptions).values({ id: input.id, bookingId: input.bookingId, creditCodeId: row.id, amountMinor: input.amountMinor }).run();
  return true;
}

/**
 * Runs `fn` in a savepoint of the current transaction: if it throws, its writes are undone and the
 * error goes on, while the enclosing transaction carries on with what it did before.
 */
export function withSavepoint<T>(tx: Db, fn: (sp: Db) => T): T {
  return tx.transaction((sp) => fn(sp as unknown as Db));
}
