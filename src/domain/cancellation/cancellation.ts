/**
 * Cancel and refund (spec operation 1). Each item of a request is processed on its own: a failed item
 * is reported and changes nothing, the others go ahead. An item with a refund goes through the refund
 * ledger (refunds.ts): its cancellation is stored with the pending refund and applied when the refund
 * succeeds, by this request or, after a crash or an unanswered processor call, by the reconciler.
 */
import { canSee } from '../access/principal.ts';
import { bookingViews, type Booking } from '../bookings/booking-view.ts';
import { applyEffect, readState, type AppliedEffect } from './effects.ts';
import type { SessionOfExperience } from '../availability/store.ts';
import { parseCancelItems, type CancelItem } from './input.ts';
import { refusal, type BookingState, type CancelRequest, type Refusal } from './rules.ts';
import { finishingUnit, type Stores } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, notFound, type ErrorCode } from '../shared/errors.ts';
import { fromDecimal } from '../shared/money.ts';
import { completeRefund, refundDeclined, reserveRefund, reservedRefundOf, type ReservedRefund } from './refunds.ts';

export interface CancelItemError {
  /** Position of the item in the request, from 0. */
  index: number;
  /** The item's `bookingId`, when it sent one as a string. */
  bookingId?: string;
  code: ErrorCode;
  message: string;
  /** The input field concerned, when the error is about one (`bookings.2.participants.0`). */
  field?: string;
}

export interface CancelBookingsResult {
  /** The bookings of the items that succeeded, as they are now, in request order. */
  items: Booking[];
  errors: CancelItemError[];
  /**
   * The items' sessions as their units left them (GraphQL answers `session` with them instead of reading
   * them again): the last unit's for a session several items touched, as the units ran one after the
   * other; none when a unit does not know its session as it left it (its offers changed it).
   */
  sessions: SessionOfExperience[];
}

/**
 * `begun`: the caller's request has already committed a write (a session's cancellation cancelling its
 * bookings), so every item's unit finishes whatever the request's deadline (see `finishingUnit`); so do
 * the items after the first one that committed.
 */
export async function cancelBookings(
  deps: CallerDeps,
  input: { bookings: unknown },
  { begun = false }: { begun?: boolean } = {},
): Promise<CancelBookingsResult> {
  const parsed = parseCancelItems(input.bookings);
  const errors: CancelItemError[] = [];
  const report = (index: number, bookingId: string | undefined, error: DomainError) => {
    const field = error.details?.field;
    errors.push({
      index,
      ...(bookingId === undefined ? {} : { bookingId }),
      code: error.code,
      message: error.message,
      ...(field ? { field } : {}),
    });
  };
  const items: Array<{ index: number; item: CancelItem }> = [];
  for (const entry of parsed) {
    if ('error' in entry) report(entry.index, entry.bookingId, entry.error);
    else items.push(entry);
  }
  // Drawn from the input alone, before anything can fail: a run of the same request again (an
  // Idempotency-Key retry taking over one cut off by a crash) gives each refund the id it had before.
  const refundIds = items.map(({ item }) => (item.refundAmount === null ? undefined : deps.requestIds?.()));
  const updated: Array<{ id: string; view: Booking | undefined }> = [];
  const sessions = new Map<string, SessionOfExperience>();
  let sessionsKnown = true;
  const progress = { begun };
  // One item after the other: each is its own unit of work, and a request's processor calls never interleave.
  for (const [position, { index, item }] of items.entries()) {
    try {
      const applied = await processItem(deps, item, `bookings.${index}`, refundIds[position], progress);
      updated.push({ id: item.bookingId, view: applied?.view });
      if (applied?.session) sessions.set(applied.session.session.id, applied.session);
      else sessionsKnown = false;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      report(index, item.bookingId, error);
    }
  }
  errors.sort((a, b) => a.index - b.index);
  return { items: await answerViews(deps, updated), errors, sessions: sessionsKnown ? [...sessions.values()] : [] };
}

/**
 * The bookings of the items that succeeded, as their units left them: the view an item's unit took for
 * its events (nothing after them in the unit changes the booking), read again only for an item whose unit
 * took none, or for a booking several items changed (so every item shows the last state, as one read
 * after them all would).
 */
async function answerViews(deps: CallerDeps, updated: ReadonlyArray<{ id: string; view: Booking | undefined }>): Promise<Booking[]> {
  const times = new Map<string, number>();
  for (const { id } of updated) times.set(id, (times.get(id) ?? 0) + 1);
  const taken = (entry: { id: string; view: Booking | undefined }) => (times.get(entry.id) === 1 ? entry.view : undefined);
  const missing = updated.filter((entry) => !taken(entry)).map((entry) => entry.id);
  const read = new Map((await bookingViews(deps, [...new Set(missing)])).map((view) => [view.id, view]));
  return updated.flatMap((entry) => {
    const view = taken(entry) ?? read.get(entry.id);
    return view ? [view] : [];
  });
}

/**
 * One item, in its own unit of work: the unit's locked read of the booking is also its visibility check
 * (another brand's booking answers NOT_FOUND as an unknown one does, before anything is written) and gives
 * the currency the refund amount is read in, so nothing is read before the unit.
 */
async function processItem(
  deps: CallerDeps,
  item: CancelItem,
  field: string,
  refundId: string | undefined,
  progress: { begun: boolean },
): Promise<AppliedEffect | undefined> {
  const unit = async (tx: Stores): Promise<ReservedRefund | 'succeeded' | { applied: AppliedEffect }> => {
    // The booking first: a unit acting on it (a run of this same request among them) ends before this one reads on.
    const current = await readState(tx, item.bookingId);
    const { booking, state } = current;
    if (!canSee(deps.principal, booking.brandId)) throw notFound('Booking', item.bookingId);
    const request: CancelRequest = {
      cancel: item.cancel,
      participantIds: item.participantIds,
      refundMinor: item.refundAmount === null ? null : fromDecimal(item.refundAmount, booking.currency, `${field}.refundAmount`),
    };
    if (request.refundMinor === null) {
      refuseIfNeeded(state, request, field);
      return { applied: await applyEffect(tx, current, request, deps.now().toISOString(), false, deps.waitlistOfferTtlSeconds) };
    }
    // An earlier run of this same request reserved it: carry on with that refund, never a second one.
    const earlier = refundId === undefined ? undefined : await tx.refunds.findRefund(refundId);
    if (earlier) {
      if (earlier.status === 'failed') throw refundDeclined();
      if (earlier.status === 'succeeded') return 'succeeded';
      return reservedRefundOf({ ...earlier, intentReference: earlier.intentReference! });
    }
    refuseIfNeeded(state, request, field);
    // `paid` (checked by refuseIfNeeded) means the booking has a succeeded payment intent.
    const effect = {
      cancel: request.cancel,
      participantIds: request.participantIds === null ? null : [...request.participantIds],
      also: null,
    };
    return reserveRefund(
      tx,
      { ...booking, intentReference: booking.intentReference! },
      { amountMinor: request.refundMinor, effect, at: deps.now().toISOString(), id: refundId },
    );
  };
  const reserved = await deps.db.transaction(unit, progress.begun ? finishingUnit : undefined);
  progress.begun = true;
  if (reserved === 'succeeded') return undefined;
  // The unit had no refund to make: its effect is applied, and the view its events took is the answer.
  if ('applied' in reserved) return reserved.applied;
  return completeRefund(deps, reserved);
}

function refuseIfNeeded(state: BookingState, request: CancelRequest, field: string): void {
  const refused: Refusal | null = refusal(state, request, field);
  if (refused) throw new DomainError(refused.code, refused.message, refused.field ? { field: refused.field } : undefined);
}
