/**
 * Holds: a `processing` booking keeps its places (and the credit it redeemed) until it is paid or its
 * hold lapses. Lapsed holds are released by checkout transactions (before they count places) and by a
 * timer; since the state lives in the database, a restarted process simply carries on.
 */
import type { Database, Stores } from '../shared/database.ts';
import { type HeldBooking } from './store.ts';
import type { BookingRow } from '../bookings/store.ts';
import { recordBookingEvents } from '../bookings/booking-events.ts';
import { expireDueOffers, releaseSessionPlaces } from '../waitlists/offers.ts';

type HeldPlaces = Pick<HeldBooking, 'sessionId' | 'places' | 'publishableHold'>;

function placesBySession(held: readonly HeldPlaces[]): Map<string, number> {
  const places = new Map<string, number>();
  for (const booking of held) places.set(booking.sessionId, (places.get(booking.sessionId) ?? 0) + booking.places);
  return places;
}

/**
 * Whether a booking's active places count in its session's publishable share now: those a publishable key
 * left unpaid (`publishableHold`), while they are: a card hold until paid, a booking confirmed with the amount
 * due (a method the brand collects) until cancelled or moved by the brand.
 */
export const countsInShare = (booking: Pick<BookingRow, 'status' | 'publishableHold' | 'paymentMethod'>): boolean =>
  booking.publishableHold &&
  (booking.status === 'processing' || (booking.status === 'confirmed' && booking.paymentMethod !== 'credit-card'));

/**
 * The places of publishable holds leave their sessions' publishable share, in the unit that ends the holds
 * (failed here, paid in payments.ts, cancelled in cancellation/effects.ts, moved in bookings/reschedule.ts),
 * so the share is free again at once.
 */
export async function leavePublishableShare(db: Stores, held: readonly HeldPlaces[]): Promise<void> {
  const shared = placesBySession(held.filter((booking) => booking.publishableHold));
  for (const [sessionId, count] of shared) await db.capacity.leavePublishableShare(sessionId, count);
}

/**
 * Each of `bookingIds` still `processing` becomes `failed` (recording `booking.failed`): its places go
 * back to the session and its credit redemptions to their codes. Returns the ids actually failed
 * (others had moved on). Payment intents are left to the caller. Call inside a transaction (`db` is
 * the transaction).
 */
export async function failProcessingBookings(
  db: Stores,
  bookingIds: readonly string[],
  now: Date,
  offerTtlSeconds: number,
  deferOffersTo?: Set<string>,
): Promise<string[]> {
  return failHeld(db, await db.holds.processingBookings(bookingIds), now, offerTtlSeconds, deferOffersTo);
}

/** The freed places go to the sessions' waitlists first (`releaseSessionPlaces`, which `deferOffersTo` is passed to). */
async function failHeld(
  db: Stores,
  held: readonly HeldBooking[],
  now: Date,
  offerTtlSeconds: number,
  deferOffersTo?: Set<string>,
): Promise<string[]> {
  if (held.length === 0) return [];
  const ids = held.map((booking) => booking.id);
  await db.holds.markBookingsFailed(ids, now.toISOString());
  await recordBookingEvents(db, ids, ['booking.failed'], now.toISOString());
  await leavePublishableShare(db, held);
  for (const [sessionId, count] of placesBySession(held))
    await releaseSessionPlaces(db, sessionId, count, now, offerTtlSeconds, deferOffersTo);
  await db.holds.returnCreditRedemptions(ids);
  return ids;
}

/**
 * Fails every `processing` booking whose hold lapsed at or before `now`, then cancels their payment
 * intents that have nothing left to pay for. Returns the failed booking ids. Call inside a transaction.
 */
export async function expireDueHolds(db: Stores, now: Date, offerTtlSeconds: number): Promise<string[]> {
  const lapsed = await db.holds.lapsedHolds(now.toISOString());
  const failed = await failHeld(db, lapsed, now, offerTtlSeconds);
  const intents = new Set(lapsed.flatMap((booking) => (booking.paymentIntentId ? [booking.paymentIntentId] : [])));
  await db.holds.cancelIntentsWithoutHolds([...intents], now.toISOString());
  return failed;
}

export interface HoldSweeperDeps {
  db: Database;
  now: () => Date;
  /** How long places offered to a waitlist entry stay held for it. */
  waitlistOfferTtlSeconds: number;
  /** Where a failed sweep is reported (a pino logger fits). */
  log: { error(details: object, message: string): void };
}

/**
 * One sweep: lapsed holds, then lapsed waitlist offers, each in its own transaction so one failing
 * does not hold the other back. Freed places are offered to the next waiting entries in both.
 */
export async function sweepOnce(deps: HoldSweeperDeps): Promise<void> {
  const sweeps: Array<[string, (tx: Stores, now: Date) => unknown]> = [
    ['sweeping lapsed holds failed', async (tx, now) => expireDueHolds(tx, now, deps.waitlistOfferTtlSeconds)],
    ['sweeping lapsed waitlist offers failed', async (tx, now) => expireDueOffers(tx, now, deps.waitlistOfferTtlSeconds)],
  ];
  for (const [failure, sweep] of sweeps) {
    try {
      await deps.db.transaction(async (tx) => sweep(tx, deps.now()));
    } catch (error) {
      deps.log.error({ err: error }, failure);
    }
  }
}

/**
 * Sweeps lapsed holds and lapsed waitlist offers at once, then every `intervalMs`, so places return
 * even when no checkout comes along, and holds that lapsed while no server ran are failed on start.
 * The timer does not keep the process alive; call the returned function to stop it.
 */
export async function startHoldSweeper(deps: HoldSweeperDeps, intervalMs = 5000): Promise<() => void> {
  await sweepOnce(deps);
  const timer = setInterval(() => void sweepOnce(deps), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
