/**
 * Holds: a `processing` booking keeps its places (and the credit it redeemed) until it is paid or its
 * hold lapses. Lapsed holds are released by checkout transactions (before they count places) and by a
 * timer; since the state lives in the database, a restarted process simply carries on.
 */
import { inTransaction, type Db } from '../db/client.ts';
import { releasePlaces } from '../db/queries/capacity.ts';
import {
  cancelIntentsWithoutHolds,
  lapsedHolds,
  markBookingsFailed,
  processingBookings,
  returnCreditRedemptions,
  type HeldBooking,
} from '../db/queries/holds.ts';

function placesBySession(held: readonly HeldBooking[]): Map<string, number> {
  const places = new Map<string, number>();
  for (const booking of held) places.set(booking.sessionId, (places.get(booking.sessionId) ?? 0) + booking.places);
  return places;
}

/**
 * Each of `bookingIds` still `processing` becomes `failed`: its places go back to the session and its
 * credit redemptions to their codes. Returns the ids actually failed (others had moved on). Payment
 * intents are left to the caller. Call inside a transaction (`db` is the transaction).
 */
export function failProcessingBookings(db: Db, bookingIds: readonly string[], now: Date): string[] {
  return failHeld(db, processingBookings(db, bookingIds), now);
}

function failHeld(db: Db, held: readonly HeldBooking[], now: Date): string[] {
  if (held.length === 0) return [];
  const ids = held.map((booking) => booking.id);
  markBookingsFailed(db, ids, now.toISOString());
  for (const [sessionId, count] of placesBySession(held)) releasePlaces(db, sessionId, count);
  returnCreditRedemptions(db, ids);
  return ids;
}

/**
 * Fails every `processing` booking whose hold lapsed at or before `now`, then cancels their payment
 * intents that have nothing left to pay for. Returns the failed booking ids. Call inside a transaction.
 */
export function expireDueHolds(db: Db, now: Date): string[] {
  const lapsed = lapsedHolds(db, now.toISOString());
  const failed = failHeld(db, lapsed, now);
  const intents = new Set(lapsed.flatMap((booking) => (booking.paymentIntentId ? [booking.paymentIntentId] : [])));
  cancelIntentsWithoutHolds(db, [...intents], now.toISOString());
  return failed;
}

export interface HoldSweeperDeps {
  db: Db;
  now: () => Date;
  /** Where a failed sweep is reported (a pino logger fits). */
  log: { error(details: object, message: string): void };
}

/**
 * Sweeps lapsed holds every `intervalMs`, so places return even when no checkout comes along. The timer
 * does not keep the process alive; call the returned function to stop it.
 */
export function startHoldSweeper(deps: HoldSweeperDeps, intervalMs = 5000): () => void {
  const timer = setInterval(() => {
    try {
      inTransaction(deps.db, (tx) => expireDueHolds(tx, deps.now()));
    } catch (error) {
      deps.log.error({ err: error }, 'sweeping lapsed holds failed');
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
