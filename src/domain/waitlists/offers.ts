/**
 * Freed places go to the waitlist first. Whenever places of a session come free (participants or
 * bookings cancelled, holds lapsed, payments failed, offers lapsed or left), the session's waiting
 * entries are walked in line order and each party that fits in what is on sale is `offered`: its
 * places move into the session's `heldForOffers`, which only a checkout naming the entry can take,
 * until the offer runs out. A larger party is skipped, not blocking smaller ones behind it.
 *
 * Every function here runs inside the transaction of the change that freed the places, so a place is
 * never lost between two transactions nor sold twice (the sessions CHECK backs the arithmetic).
 */
import type { Stores } from '../shared/database.ts';
import type { SessionRow } from '../availability/store.ts';
import { recordEvent, type EventIdSource, type EventType } from '../outbox/outbox.ts';
import { remainingPlaces } from '../availability/sessions.ts';
import { entryView, type WaitlistEntry } from './entry-view.ts';

/** The entry as REST shows it: the brand is the event's, not a field of the resource. */
export function entryPayload(view: WaitlistEntry): Record<string, unknown> {
  const { brandId: _brand, ...resource } = view;
  return resource;
}

/** Records a waitlist event with the entry as it is now in `tx`; `eventId` names it (a random id without it). */
export async function recordEntryEvent(
  tx: Stores,
  type: Extract<EventType, `waitlist.${string}`>,
  entryId: string,
  at: string,
  eventId?: EventIdSource,
): Promise<WaitlistEntry> {
  const view = await entryView(tx, entryId);
  await recordEvent(tx, {
    id: eventId?.(type, view.id),
    brandId: view.brandId,
    type,
    resourceId: view.id,
    payload: entryPayload(view),
    at,
  });
  return view;
}

/**
 * An offer lasts `ttlSeconds` but never beyond the session's start: after that, nobody can book it.
 */
function offerExpiry(now: Date, ttlSeconds: number, startsAt: string): string {
  return new Date(Math.min(now.getTime() + ttlSeconds * 1000, Date.parse(startsAt))).toISOString();
}

/**
 * Offers the session's places on sale to its waiting entries, first in line first, each party that
 * fits; returns the ids of the entries offered. Nothing is offered once the session has started or was cancelled.
 */
export async function offerFreedPlaces(
  tx: Stores,
  sessionId: string,
  now: Date,
  ttlSeconds: number,
  /** The session as the unit just wrote it, when it has it; read (and locked) otherwise. */
  written?: SessionRow,
): Promise<string[]> {
  const session = written ?? (await tx.waitlists.findSessionById(sessionId));
  if (!session || session.cancelledAt !== null || Date.parse(session.startsAt) <= now.getTime()) return [];
  let free = remainingPlaces(session);
  const offered: string[] = [];
  if (free <= 0) return offered;
  const at = now.toISOString();
  const offerExpiresAt = offerExpiry(now, ttlSeconds, session.startsAt);
  for (const entry of await tx.waitlists.waitingEntriesOfSession(sessionId)) {
    if (free <= 0) break;
    if (entry.partySize > free) continue;
    if (!(await tx.waitlists.holdForOffer(sessionId, entry.partySize))) break;
    if (!(await tx.waitlists.setEntryStatus(entry.id, ['waiting'], 'offered', at, { offeredAt: at, offerExpiresAt }))) {
      // It left the line meanwhile (a unit that had it committed first): its places go back.
      await tx.waitlists.releaseOfferHold(sessionId, entry.partySize);
      continue;
    }
    await recordEntryEvent(tx, 'waitlist.offered', entry.id, at);
    offered.push(entry.id);
    free -= entry.partySize;
  }
  return offered;
}

/**
 * Gives `count` reserved places of a session back and offers them to its waitlist, in the caller's
 * transaction. `deferTo`: collect the session instead of offering at once, for a caller that may take
 * the places back itself first (a cart replacing its own checkout) and offers what is left before
 * committing (`offerFreedPlaces` for each collected session). Returns the session as the release left
 * it when nothing changed it after (no offer made, none deferred); undefined otherwise.
 */
export async function releaseSessionPlaces(
  tx: Stores,
  sessionId: string,
  count: number,
  now: Date,
  ttlSeconds: number,
  deferTo?: Set<string>,
): Promise<SessionRow | undefined> {
  if (count === 0) return undefined;
  const session = await tx.capacity.releasePlaces(sessionId, count);
  if (deferTo) {
    deferTo.add(sessionId);
    return undefined;
  }
  return (await offerFreedPlaces(tx, sessionId, now, ttlSeconds, session)).length === 0 ? session : undefined;
}

/**
 * Offers that ran out at or before `now` become `expired` (recording `waitlist.expired`); their places
 * go to the next entries in line, or back on sale. Returns the expired entry ids.
 */
export async function expireDueOffers(tx: Stores, now: Date, ttlSeconds: number): Promise<string[]> {
  const at = now.toISOString();
  const expired: string[] = [];
  const sessions = new Set<string>();
  for (const offer of await tx.waitlists.dueOffers(at)) {
    if (!(await tx.waitlists.setEntryStatus(offer.id, ['offered'], 'expired', at))) continue;
    await tx.waitlists.releaseOfferHold(offer.sessionId, offer.partySize);
    await recordEntryEvent(tx, 'waitlist.expired', offer.id, at);
    expired.push(offer.id);
    sessions.add(offer.sessionId);
  }
  for (const sessionId of sessions) await offerFreedPlaces(tx, sessionId, now, ttlSeconds);
  return expired;
}
