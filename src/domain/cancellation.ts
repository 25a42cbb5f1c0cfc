/**
 * Cancel and refund (spec operation 1). Each item of a request is processed on its own: a failed item
 * is reported and changes nothing, the others go ahead.
 *
 * A refund is a two-phase ledger entry, so racing refunds can never exceed the amount and a processor
 * failure never leaves money half-recorded: (1) one transaction checks the item, inserts a `pending`
 * refund and reserves its amount on the booking; (2) the processor is called, outside any transaction;
 * (3) one transaction marks the refund `succeeded` and applies the cancellation that came with it, or
 * marks it `failed` and gives the amount back.
 */
import { randomUUID } from 'node:crypto';
import { canSee } from '../auth/principal.ts';
import { inTransaction, type Db } from '../db/client.ts';
import {
  cancelParticipants,
  countPendingRefunds,
  findCancellableBooking,
  insertPendingRefund,
  participantStates,
  releaseRefundAmount,
  reserveRefundAmount,
  setBookingStatus,
  settleRefund,
  touchBooking,
  type CancellableBooking,
} from '../db/queries/cancellation.ts';
import { cancellationEventTypes, recordBookingEvents } from './booking-events.ts';
import { bookingViews, type Booking } from './booking-view.ts';
import { parseCancelItems, type CancelItem, type CancelItemInput } from './cancellation-input.ts';
import { cancellationEffect, refusal, type BookingState, type CancelRequest, type Refusal } from './cancellation-rules.ts';
import type { CallerDeps, Deps } from './context.ts';
import { DomainError, notFound, type ErrorCode } from './errors.ts';
import { fromDecimal } from './money.ts';
import { notify, type RefundOutcome } from './observer.ts';
import { ProcessorError } from './payment-processor.ts';
import { releaseSessionPlaces } from './waitlist-offers.ts';

export interface CancelItemError {
  /** Position of the item in the request, from 0. */
  index: number;
  bookingId: string;
  code: ErrorCode;
  message: string;
  /** The input field concerned, when the error is about one (`bookings.2.participants.0`). */
  field?: string;
}

export interface CancelBookingsResult {
  /** The bookings of the items that succeeded, as they are now, in request order. */
  items: Booking[];
  errors: CancelItemError[];
}

export async function cancelBookings(deps: CallerDeps, input: { bookings: readonly CancelItemInput[] }): Promise<CancelBookingsResult> {
  const items = parseCancelItems(input.bookings);
  const updated: string[] = [];
  const errors: CancelItemError[] = [];
  // One item after the other: each is its own unit of work, and a request's processor calls never interleave.
  for (const [index, item] of items.entries()) {
    try {
      await processItem(deps, item, `bookings.${index}`);
      updated.push(item.bookingId);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const field = error.details?.field;
      errors.push({ index, bookingId: item.bookingId, code: error.code, message: error.message, ...(field ? { field } : {}) });
    }
  }
  return { items: await bookingViews(deps, updated), errors };
}

async function processItem(deps: CallerDeps, item: CancelItem, field: string): Promise<void> {
  const booking = findCancellableBooking(deps.db, item.bookingId);
  if (!booking || !canSee(deps.principal, booking.brandId)) throw notFound('Booking', item.bookingId);
  const request: CancelRequest = {
    cancel: item.cancel,
    participantIds: item.participantIds,
    refundMinor: item.refundAmount === null ? null : fromDecimal(item.refundAmount, booking.currency, `${field}.refundAmount`),
  };
  if (request.refundMinor === null) {
    inTransaction(deps.db, (tx) => {
      const current = readState(tx, item.bookingId);
      refuseIfNeeded(current.state, request, field);
      applyEffect(tx, current, request, deps.now().toISOString(), false, deps.waitlistOfferTtlSeconds);
    });
    return;
  }
  await refundThenApply(deps, item.bookingId, { ...request, refundMinor: request.refundMinor }, field);
}

async function refundThenApply(deps: CallerDeps, bookingId: string, request: CancelRequest & { refundMinor: number }, field: string) {
  const reserved = inTransaction(deps.db, (tx) => {
    const { booking, state } = readState(tx, bookingId);
    refuseIfNeeded(state, request, field);
    // `paid` (checked by refuseIfNeeded) means the booking has a succeeded payment intent.
    return reserveRefund(tx, { ...booking, intentReference: booking.intentReference! }, request.refundMinor, deps.now().toISOString());
  });
  await completeRefund(deps, reserved, request);
}

/** A refund whose amount phase 1 reserved on the booking (a `pending` ledger row). */
export interface ReservedRefund {
  refundId: string;
  bookingId: string;
  amountMinor: number;
  intentReference: string;
  currency: string;
}

/**
 * Phase 1 of a refund, inside the caller's transaction (so it commits with whatever decided it):
 * reserves `amountMinor` on the booking and records a `pending` refund. REFUND_EXCEEDS_BALANCE when
 * the refunded total would exceed the amount.
 */
export function reserveRefund(
  tx: Db,
  booking: { id: string; intentReference: string; currency: string },
  amountMinor: number,
  at: string,
): ReservedRefund {
  const refundId = randomUUID();
  if (!reserveRefundAmount(tx, booking.id, amountMinor, at)) throw new DomainError('REFUND_EXCEEDS_BALANCE', 'The refund exceeds the balance');
  insertPendingRefund(tx, { id: refundId, bookingId: booking.id, amountMinor, at });
  return { refundId, bookingId: booking.id, amountMinor, intentReference: booking.intentReference, currency: booking.currency };
}

/**
 * Phases 2 and 3 of a reserved refund: asks the processor (outside any transaction), then in one
 * transaction marks the refund `succeeded` and applies `request`'s effect (plus `also`, the caller's
 * own bookkeeping), or marks it `failed` and gives the amount back (PAYMENT_PROCESSOR_ERROR).
 */
export async function completeRefund(deps: Deps, reserved: ReservedRefund, request: CancelRequest, also?: (tx: Db) => void): Promise<void> {
  const now = () => deps.now().toISOString();
  const bookingId = reserved.bookingId;
  const finished = (outcome: RefundOutcome) =>
    notify(deps.observer, (o) => o.refundFinished?.({ outcome, amountMinor: reserved.amountMinor, currency: reserved.currency }));
  let processorReference: string;
  try {
    const result = await deps.payments.refund({
      intentReference: reserved.intentReference,
      amountMinor: reserved.amountMinor,
      currency: reserved.currency,
      idempotencyKey: reserved.refundId,
    });
    processorReference = result.reference;
  } catch (error) {
    if (!(error instanceof ProcessorError)) {
      // The outcome is unknown (the processor may have refunded): keep the amount reserved and the
      // refund pending, so it can be reconciled with its idempotency key and never paid twice.
      finished('unknown');
      throw new DomainError('PAYMENT_PROCESSOR_ERROR', 'The payment processor did not answer; the refund stays pending until reconciled', {
        refundId: reserved.refundId,
      });
    }
    inTransaction(deps.db, (tx) => {
      settleRefund(tx, reserved.refundId, 'failed', null, now());
      releaseRefundAmount(tx, bookingId, reserved.amountMinor, now());
    });
    finished('declined');
    throw new DomainError('PAYMENT_PROCESSOR_ERROR', 'The payment processor declined the refund; nothing was changed');
  }

  inTransaction(deps.db, (tx) => {
    settleRefund(tx, reserved.refundId, 'succeeded', processorReference, now());
    applyEffect(tx, readState(tx, bookingId), request, now(), true, deps.waitlistOfferTtlSeconds);
    also?.(tx);
  });
  finished('succeeded');
}

function readState(db: Db, bookingId: string): { booking: CancellableBooking; state: BookingState } {
  const booking = findCancellableBooking(db, bookingId);
  if (!booking) throw notFound('Booking', bookingId);
  return {
    booking,
    state: {
      status: booking.status,
      amountMinor: booking.amountMinor,
      amountRefundedMinor: booking.amountRefundedMinor,
      paid: booking.intentStatus === 'succeeded',
      otherPendingRefunds: countPendingRefunds(db, bookingId),
      participants: participantStates(db, bookingId),
    },
  };
}

function refuseIfNeeded(state: BookingState, request: CancelRequest, field: string): void {
  const refused: Refusal | null = refusal(state, request, field);
  if (refused) throw new DomainError(refused.code, refused.message, refused.field ? { field: refused.field } : undefined);
}

/**
 * Writes what `request` does to the booking as it stands, with its events (`refundSettled`: a refund of
 * the item just succeeded); places go back to the session in the same transaction as the participants
 * change, after the booking's own events, so any event the freed places cause comes after them. The
 * freed places go to the session's waitlist first (offers held for `offerTtlSeconds`).
 */
function applyEffect(
  db: Db,
  { booking, state }: { booking: CancellableBooking; state: BookingState },
  request: CancelRequest,
  at: string,
  refundSettled: boolean,
  offerTtlSeconds: number,
): void {
  const effect = cancellationEffect(state, request);
  cancelParticipants(db, effect.cancelParticipantIds, at);
  if (effect.status !== booking.status) setBookingStatus(db, booking.id, effect.status, at);
  else if (effect.cancelParticipantIds.length > 0) touchBooking(db, booking.id, at);
  recordBookingEvents(db, [booking.id], cancellationEventTypes(state, effect, refundSettled), at);
  releaseSessionPlaces(db, booking.sessionId, effect.releasePlaces, new Date(at), offerTtlSeconds);
}
