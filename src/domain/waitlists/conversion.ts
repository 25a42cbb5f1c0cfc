/**
 * A checkout item naming `waitlistEntryId` takes the places its offer holds. The entry must be
 * `offered` to this brand's session, its offer still running, and the item at most the party the
 * places were held for; it becomes `converted` with the booking. A cart posted again while unpaid
 * replaces its booking: the entry it converted may then be named again, and the new booking takes
 * the replaced one's places (released, and offered to others only after the checkout).
 *
 * Once converted the entry is done: should its booking later fail (hold lapsed, payment failed), the
 * places are freed like any others.
 */
import type { Stores } from '../shared/database.ts';
import { type WaitlistEntryRow } from './store.ts';
import { DomainError } from '../shared/errors.ts';
import { recordEntryEvent } from './offers.ts';

export interface OfferClaim {
  entryId: string;
  brandId: string;
  sessionId: string;
  cartId: string;
  /** Participants of the item. */
  count: number;
  now: Date;
  /** The item's path in the body, `data.<i>`. */
  field: string;
}

const unavailable = (claim: OfferClaim, why: string) =>
  new DomainError('WAITLIST_OFFER_NOT_AVAILABLE', `Waitlist entry ${claim.entryId} ${why}`, { field: `${claim.field}.waitlistEntryId` });

async function ownEntry(db: Stores, claim: OfferClaim): Promise<WaitlistEntryRow> {
  const entry = (await db.waitlists.findEntryWithContext(claim.entryId))?.entry;
  // Another brand's entry answers as an unknown one: nothing about it is revealed.
  if (!entry || entry.brandId !== claim.brandId) throw unavailable(claim, 'does not exist');
  if (entry.sessionId !== claim.sessionId) throw unavailable(claim, "waits for another session than this item's");
  if (claim.count > entry.partySize) {
    throw new DomainError(
      'PARTICIPANT_COUNT_OUT_OF_RANGE',
      `Waitlist entry ${entry.id} was offered ${entry.partySize} places, not ${claim.count}`,
      {
        field: `${claim.field}.participants`,
        count: claim.count,
        max: entry.partySize,
      },
    );
  }
  return entry;
}

const offerRunning = (entry: WaitlistEntryRow, now: Date) =>
  entry.status === 'offered' && entry.offerExpiresAt !== null && Date.parse(entry.offerExpiresAt) > now.getTime();

/** Whether the entry was converted into a booking of this cart whose hold is still running (a re-post replaces it). */
async function convertedInCart(db: Stores, entry: WaitlistEntryRow, claim: OfferClaim): Promise<boolean> {
  if (entry.status !== 'converted' || !entry.convertedBookingId) return false;
  const booking = await db.waitlists.findBookingHold(entry.convertedBookingId);
  return (
    booking?.cartId === claim.cartId &&
    booking.status === 'processing' &&
    (booking.holdExpiresAt === null || Date.parse(booking.holdExpiresAt) > claim.now.getTime())
  );
}

/**
 * Before the checkout transaction: the places the item may count on besides those on sale (the
 * offer's hold; none for a re-post, whose places the cart's own hold already counts), or the refusal.
 */
export async function placesHeldForItem(db: Stores, claim: OfferClaim): Promise<number> {
  const entry = await ownEntry(db, claim);
  if (offerRunning(entry, claim.now)) return entry.partySize;
  if (await convertedInCart(db, entry, claim)) return 0;
  throw unavailable(claim, entry.status === 'offered' ? 'has an offer that ran out' : `is ${entry.status}, not offered places`);
}

/**
 * In the checkout transaction: takes the item's places from the offer's hold (the rest of the hold
 * goes on sale, its session collected in `freed` for the checkout to offer before committing), or for
 * a re-post the places its replaced booking gave back. `replaced`: the cart's bookings this checkout
 * replaced.
 */
export async function takeOfferedPlaces(tx: Stores, claim: OfferClaim, replaced: ReadonlySet<string>, freed: Set<string>): Promise<void> {
  const entry = await ownEntry(tx, claim);
  if (offerRunning(entry, claim.now)) {
    await tx.waitlists.takeHeldPlaces(entry.sessionId, entry.partySize, claim.count);
    if (entry.partySize > claim.count) freed.add(entry.sessionId);
    return;
  }
  if (entry.status === 'converted' && entry.convertedBookingId && replaced.has(entry.convertedBookingId)) {
    if (await tx.capacity.takePlaces(entry.sessionId, claim.count)) return;
    throw new DomainError('CAPACITY_EXCEEDED', 'The places of the replaced booking are no longer free', {
      field: `${claim.field}.participants`,
    });
  }
  throw unavailable(claim, entry.status === 'offered' ? 'has an offer that ran out' : `is ${entry.status}, not offered places`);
}

/** The entry becomes `converted` into `bookingId` (which must exist), recording `waitlist.converted`. */
export async function markConverted(tx: Stores, entryId: string, bookingId: string, at: string): Promise<void> {
  await tx.waitlists.setEntryStatus(entryId, ['offered', 'converted'], 'converted', at, { convertedBookingId: bookingId });
  await recordEntryEvent(tx, 'waitlist.converted', entryId, at);
}
