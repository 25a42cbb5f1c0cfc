/**
 * A brand's own writes of its schedule (secret keys): sessions created one by one or from a recurring
 * schedule, a session's capacity changed, a session cancelled (weather, a sick guide). Each records its
 * event (`session.created`, `session.updated`, `session.cancelled`) in the unit of work that makes the
 * change, so the events feed, webhooks and live availability follow the schedule as they follow bookings.
 *
 * Places: a capacity never goes below the places taken (reserved by processing and confirmed bookings,
 * held for waitlist offers), and places it frees go to the session's waitlist first, as a cancellation's
 * do. A cancelled session takes no places from the moment its unit commits (the take statements require
 * it not cancelled), then each booking holding places on it is cancelled, and refunded in full when paid
 * by card, through the usual cancellation path (cancelBookings): its events, webhooks, processor refund
 * and freed places. A hold racing the cancel either committed first, and is among the bookings cancelled,
 * or finds the session cancelled and takes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Booking } from '../bookings/booking-view.ts';
import { loadBrand } from '../catalog/brands.ts';
import { cancelBookings, type CancelItemError } from '../cancellation/cancellation.ts';
import { MAX_CANCEL_ITEMS } from '../cancellation/input.ts';
import { recordEvent, type EventType } from '../outbox/outbox.ts';
import type { Stores } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { toDecimal } from '../shared/money.ts';
import { loadExperienceOfBrand } from '../catalog/experiences.ts';
import { offerFreedPlaces } from '../waitlists/offers.ts';
import { MAX_SESSION_CAPACITY, planSessions } from './schedule-input.ts';
import { assertNotCancelled, assertNotStarted, toSession, type Session } from './sessions.ts';
import type { NewSessionRow, SessionOfExperience } from './store.ts';

export interface ScheduleSessionsResult {
  /** The sessions this request created, by start. */
  sessions: Session[];
  /** Local starts asked for that the experience already had a session at (left as they are), by start. */
  existing: string[];
}

/** The session as events and answers show it (secret keys' view), with its experience. */
const sessionPayload = (row: SessionOfExperience) => ({
  ...toSession(row.session, row.timezoneId, row.waitlistId, null),
  experienceId: row.session.experienceId,
});

async function recordSessionEvent(
  tx: Stores,
  type: Extract<EventType, `session.${string}`>,
  row: SessionOfExperience,
  at: string,
  extra = {},
) {
  await recordEvent(tx, { brandId: row.brandId, type, resourceId: row.session.id, payload: { ...sessionPayload(row), ...extra }, at });
}

/**
 * Creates the sessions `body` asks for (schedule-input.ts) on the brand's experience, in one unit of work.
 * Idempotent by experience and local start: a start the experience already has a session at is left
 * alone and listed in `existing`, so posting the same schedule again creates nothing.
 */
export async function scheduleSessions(
  deps: CallerDeps,
  input: { brandId: string; experienceId: string; body: unknown },
): Promise<ScheduleSessionsResult> {
  const found = await loadExperienceOfBrand(deps, input.brandId, input.experienceId);
  if (!found) throw notFound('Experience', input.experienceId);
  const experience = found.row;
  const planned = planSessions(input.body, experience.timezoneId, experience.sessionDurationMinutes, deps.now());
  const rows = planned.map((session) => ({ id: randomUUID(), experienceId: experience.id, ...session }));
  const created = await deps.db.transaction((tx) => insertSessionsIn(deps, tx, rows));
  const createdStarts = new Set(created.map((row) => row.session.startLocal));
  return {
    sessions: created.map((row) => toSession(row.session, row.timezoneId, row.waitlistId, null)),
    existing: planned
      .map((s) => s.startLocal)
      .filter((start) => !createdStarts.has(start))
      .sort(compare),
  };
}

/**
 * Inserts the sessions in the caller's unit of work, each its experience has no session at yet (by local
 * start), recording `session.created` for each inserted; the inserted, by start.
 */
export async function insertSessionsIn(deps: CallerDeps, tx: Stores, rows: readonly NewSessionRow[]): Promise<SessionOfExperience[]> {
  const ids = await tx.sessionWrites.insertSessions(rows);
  const made = (await tx.sessions.findSessionsByIds(ids)).sort((a, b) => compare(a.session.startLocal, b.session.startLocal));
  const at = deps.now().toISOString();
  for (const row of made) await recordSessionEvent(tx, 'session.created', row, at);
  return made;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The brand's session, or NOT_FOUND (also for a session of another brand). */
async function sessionOfBrand(deps: CallerDeps, brandId: string, sessionId: string): Promise<SessionOfExperience> {
  const brand = await loadBrand(deps, brandId);
  const [row] = await deps.db.sessions.findSessionsByIds([sessionId]);
  if (!row || row.brandId !== brand.id) throw notFound('Session', sessionId);
  return row;
}

/** Reads the session again inside `tx`: from here on the row is the unit's (a racing take or offer waits for it). */
async function ownSession(tx: Stores, sessionId: string): Promise<SessionOfExperience> {
  const session = await tx.waitlists.findSessionById(sessionId);
  const [row] = await tx.sessions.findSessionsByIds([sessionId]);
  if (!session || !row) throw notFound('Session', sessionId);
  return { ...row, session };
}

/**
 * Sets the session's capacity. CAPACITY_BELOW_TAKEN (naming `capacity`) below the places taken; places it
 * adds are offered to the session's waitlist first, in the same unit. SESSION_CANCELLED, SESSION_STARTED.
 */
export async function updateSession(deps: CallerDeps, input: { brandId: string; sessionId: string; capacity: unknown }): Promise<Session> {
  const capacity = input.capacity;
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 0 || capacity > MAX_SESSION_CAPACITY) {
    throw invalid('capacity', `capacity must be a whole number from 0 to ${MAX_SESSION_CAPACITY}`);
  }
  await sessionOfBrand(deps, input.brandId, input.sessionId);
  const updated = await deps.db.transaction(async (tx) => (await setCapacityIn(deps, tx, input.sessionId, capacity)).row);
  return toSession(updated.session, updated.timezoneId, updated.waitlistId, null);
}

/**
 * Sets the session's capacity in the caller's unit of work (as updateSession does: never below the places
 * taken, freed places offered to its waitlist), recording `session.updated`; `changed` false when it was
 * that capacity already (nothing written, no event).
 */
export async function setCapacityIn(
  deps: CallerDeps,
  tx: Stores,
  sessionId: string,
  capacity: number,
): Promise<{ row: SessionOfExperience; changed: boolean }> {
  const now = deps.now();
  const row = await ownSession(tx, sessionId);
  const { session } = row;
  assertNotCancelled(session, 'sessionId');
  assertNotStarted(session, now, 'sessionId');
  if (capacity === session.capacity) return { row, changed: false };
  const taken = session.reserved + session.heldForOffers;
  if (capacity < taken || !(await tx.sessionWrites.setCapacity(session.id, capacity))) {
    throw new DomainError(
      'CAPACITY_BELOW_TAKEN',
      `The session has ${taken} places taken (booked, held or offered): capacity cannot be ${capacity}`,
      {
        field: 'capacity',
        taken,
      },
    );
  }
  if (capacity > session.capacity) await offerFreedPlaces(tx, session.id, now, deps.waitlistOfferTtlSeconds);
  const after = await ownSession(tx, session.id);
  await recordSessionEvent(tx, 'session.updated', after, now.toISOString(), { previousCapacity: session.capacity });
  return { row: after, changed: true };
}

export interface CancelSessionResult {
  session: Session;
  /** The bookings cancelled (and refunded) by this request, as they are now. */
  bookings: Booking[];
  /** Bookings that could not be cancelled (a processor that refused a refund...); cancel the session again to retry them. */
  errors: CancelItemError[];
}

/**
 * Cancels the session: it is no longer sold (availability leaves it out, holds and waitlist joins are
 * refused with SESSION_CANCELLED), its waitlist entries leave the line, and every booking holding places on
 * it is cancelled and refunded in full when paid by card. SESSION_NOT_CANCELLABLE once it has started.
 * Cancelling a cancelled session again cancels the bookings still holding places (a run cut short).
 */
export async function cancelSession(
  deps: CallerDeps,
  input: { brandId: string; sessionId: string; reason?: string | null },
): Promise<CancelSessionResult> {
  const reason = input.reason ?? null;
  if (reason !== null && (typeof reason !== 'string' || reason.length > 500))
    throw invalid('reason', 'reason must be text of at most 500 characters');
  await sessionOfBrand(deps, input.brandId, input.sessionId);
  const cancelled = await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const at = now.toISOString();
    const row = await ownSession(tx, input.sessionId);
    if (row.session.cancelledAt !== null) return row;
    if (Date.parse(row.session.startsAt) <= now.getTime()) {
      throw new DomainError(
        'SESSION_NOT_CANCELLABLE',
        `The session at ${row.session.startLocal} has already started: it cannot be cancelled`,
        {
          field: 'sessionId',
          reason: 'started',
        },
      );
    }
    await tx.sessionWrites.markCancelled(row.session.id, at);
    if (row.waitlistId) await releaseLine(tx, row.waitlistId, row.session.id, at);
    const after = await ownSession(tx, row.session.id);
    await recordSessionEvent(tx, 'session.cancelled', after, at, { reason });
    return after;
  });
  const { bookings, errors } = await cancelBookingsOf(deps, cancelled.session.id);
  return { session: toSession(cancelled.session, cancelled.timezoneId, cancelled.waitlistId, null), bookings, errors };
}

/** The session's waiting and offered entries leave the line (`cancelled`); offered places are let go. */
async function releaseLine(tx: Stores, waitlistId: string, sessionId: string, at: string): Promise<void> {
  for (const { entry } of await tx.waitlists.entriesOfWaitlist(waitlistId, { sessionId, statuses: ['waiting', 'offered'] })) {
    if (!(await tx.waitlists.setEntryStatus(entry.id, ['waiting', 'offered'], 'cancelled', at))) continue;
    if (entry.status === 'offered') await tx.waitlists.releaseOfferHold(sessionId, entry.partySize);
  }
}

/**
 * Every booking still holding places on the (cancelled) session, cancelled through cancelBookings, with a
 * refund of what remains paid by card. Read after the cancel committed: no booking can join them since.
 */
async function cancelBookingsOf(deps: CallerDeps, sessionId: string): Promise<{ bookings: Booking[]; errors: CancelItemError[] }> {
  const ids = await deps.db.sessionWrites.liveBookingsOfSession(sessionId);
  const found = await deps.db.cancellation.findCancellableBookings(ids);
  const items = ids.flatMap((bookingId) => {
    const booking = found.get(bookingId);
    if (!booking) return [];
    const balance = booking.amountMinor - booking.amountRefundedMinor;
    const refundable = booking.paymentMethod === 'credit-card' && booking.intentStatus === 'succeeded' && balance > 0;
    return [{ bookingId, cancel: true, ...(refundable ? { refundAmount: toDecimal(balance, booking.currency) } : {}) }];
  });
  const bookings: Booking[] = [];
  const errors: CancelItemError[] = [];
  for (let start = 0; start < items.length; start += MAX_CANCEL_ITEMS) {
    const result = await cancelBookings(deps, { bookings: items.slice(start, start + MAX_CANCEL_ITEMS) }, { begun: true });
    bookings.push(...result.items);
    errors.push(...result.errors.map((error) => ({ ...error, index: error.index + start })));
  }
  return { bookings, errors };
}
