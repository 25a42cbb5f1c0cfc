/**
 * Moving a confirmed booking to another session of its experience, in one transaction: its active
 * participants' places are taken on the new session (only if they remain) and given back on the old one,
 * where the freed places go to the waitlist first, as a cancellation's do. The booking keeps its id,
 * confirmation code and money: prices belong to the experience, not to a session, so a move never
 * changes what the guest pays. Every move is recorded (from, to, when, by which key) and announced
 * with a `booking.rescheduled` event.
 */
import { randomUUID } from 'node:crypto';
import { canSee } from '../access/principal.ts';
import { assertDuration, assertNotStarted, sessionForItem } from '../availability/sessions.ts';
import { requireFeature } from '../catalog/features.ts';
import { recordEvent } from '../outbox/outbox.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { releaseSessionPlaces } from '../waitlists/offers.ts';
import { countsInShare } from '../checkout/holds.ts';
import { bookingPayload } from './booking-events.ts';
import { bookingViews, bookingViewsIn, type Booking } from './booking-view.ts';
import { rescheduleRefusal } from './reschedule-rules.ts';

export interface RescheduleInput {
  bookingId: string;
  /** The new session's local start, as in checkout (`YYYY-MM-DDTHH:MM[:SS]`, an offset is converted). */
  sessionTime: string;
  sessionDuration?: number | null;
}

export interface RescheduleResult {
  booking: Booking;
  /** Where the booking was before the move. */
  previousSession: { timezone: string; startDateTime: string };
  /** The session it left (its places given back). */
  previousSessionId: string;
}

export async function rescheduleBooking(deps: CallerDeps, input: RescheduleInput): Promise<RescheduleResult> {
  const found = await deps.db.reschedules.findReschedulable(input.bookingId);
  if (!found || !canSee(deps.principal, found.brandId)) throw notFound('Booking', input.bookingId);
  const brand = (await deps.db.brands.findBrand(found.brandId))!;
  requireFeature(brand, 'enableRescheduleBookings', 'Rescheduling a booking');
  const experience = (await deps.db.experiences.findExperienceRow(found.experienceId))!;
  const target = await sessionForItem({ db: deps.db }, { experience, sessionTime: input.sessionTime, field: 'sessionTime' });
  assertDuration(target, input.sessionDuration, 'sessionDuration');
  assertNotStarted(target, deps.now(), 'sessionTime');
  const policy = brand.reschedulePolicyId ? ((await deps.db.brands.findReschedulePolicy(brand.reschedulePolicyId)) ?? null) : null;

  const previous = await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const at = now.toISOString();
    // Read again inside the transaction: a concurrent move of the same booking has committed by now.
    const booking = (await tx.reschedules.findReschedulable(found.id))!;
    const from = (await tx.waitlists.findSessionById(booking.sessionId))!;
    const refused = rescheduleRefusal({
      status: booking.status,
      fromSessionId: from.id,
      fromStartsAt: from.startsAt,
      toSessionId: target.id,
      reschedules: booking.reschedules,
      policy,
      now,
    });
    if (refused) {
      const { code, message, ...details } = refused;
      throw new DomainError(code, message, Object.keys(details).length > 0 ? details : undefined);
    }
    if (!(await tx.capacity.takePlaces(target.id, booking.activeParticipants))) {
      throw new DomainError('CAPACITY_EXCEEDED', `Not enough places are left on the session at ${target.startLocal}`, {
        field: 'sessionTime',
      });
    }
    await tx.reschedules.moveBooking(booking.id, { sessionId: target.id, startLocal: target.startLocal }, at);
    await tx.reschedules.recordReschedule({
      id: randomUUID(),
      bookingId: booking.id,
      sequence: booking.reschedules + 1,
      fromSessionId: from.id,
      fromStartLocal: from.startLocal,
      toSessionId: target.id,
      toStartLocal: target.startLocal,
      apiKeyId: deps.principal.keyId,
      at,
    });
    const previousSession = { timezone: experience.timezoneId, startDateTime: from.startLocal };
    const [view] = await bookingViewsIn(tx, [booking.id]);
    await recordEvent(tx, {
      brandId: booking.brandId,
      type: 'booking.rescheduled',
      resourceId: booking.id,
      payload: { ...bookingPayload(view!), rescheduledFrom: previousSession },
      at,
    });
    // Places a publishable key left unpaid leave the old session's share with them (the move clears the mark).
    if (countsInShare(booking)) await tx.capacity.leavePublishableShare(from.id, booking.activeParticipants);
    // The freed places go to the old session's waitlist first, after the booking's own event.
    await releaseSessionPlaces(tx, from.id, booking.activeParticipants, now, deps.waitlistOfferTtlSeconds);
    return previousSession;
  });
  const [booking] = await bookingViews(deps, [found.id]);
  return { booking: booking!, previousSession: previous, previousSessionId: found.sessionId };
}

export interface RescheduleHistoryEntry {
  from: { startDateTime: string };
  to: { startDateTime: string };
  at: string;
  /** The API key that moved the booking. */
  apiKeyId: string;
}

/** The moves of a booking the caller may see, oldest first. */
export async function rescheduleHistory(deps: CallerDeps, bookingId: string): Promise<RescheduleHistoryEntry[]> {
  return (await deps.db.reschedules.reschedulesOfBookings([bookingId])).map((r) => ({
    from: { startDateTime: r.fromStartLocal },
    to: { startDateTime: r.toStartLocal },
    at: r.at,
    apiKeyId: r.apiKeyId,
  }));
}
