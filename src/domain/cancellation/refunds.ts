/**
 * A refund is a two-phase ledger entry, so racing refunds can never exceed the amount, a processor
 * failure never leaves money half-recorded, and a crash loses nothing:
 * (1) `reserveRefund`, in the asker's transaction: reserves the amount on the booking and inserts a
 *     `pending` refund carrying its effect (cancellations, the asker's bookkeeping), so it can be
 *     settled later without the request that asked;
 * (2) `askProcessor`, outside any transaction, with the refund's id as idempotency key: asking again
 *     (a retried request, the reconciler) returns the first answer and never refunds twice;
 * (3) `settleAnswer`, one transaction: `succeeded` and its stored effect applied, or `failed` and the
 *     amount given back; only while the refund is still `pending`, so a refund is never settled twice.
 *     No answer (a timeout, a network error) settles nothing: the refund stays `pending`, reserved.
 * The asker runs 2 and 3 right away (`completeRefund`); a refund cut off before 3 (a crash, no answer)
 * is finished by the reconciler (refund-reconciler.ts) through the same 2 and 3.
 */
import { randomUUID } from 'node:crypto';
import { finishingUnit, type Stores } from '../shared/database.ts';
import type { RefundEffectJson } from '../shared/json-types.ts';
import { type RefundRow, type RefundStatus } from './store.ts';
import { applyEffect, readState, type AppliedEffect } from './effects.ts';
import { settleCartOfIntent } from '../payments/cart-settlement.ts';
import type { Deps } from '../shared/deps.ts';
import { DomainError } from '../shared/errors.ts';
import { notify, type RefundOutcome } from '../shared/observer.ts';
import { ProcessorError, RefundPendingError } from '../payments/processor.ts';

export type RefundEffect = RefundEffectJson;

/** A refund whose amount phase 1 reserved on the booking (a `pending` ledger row). */
export interface ReservedRefund {
  refundId: string;
  bookingId: string;
  amountMinor: number;
  intentReference: string;
  currency: string;
  effect: RefundEffect;
}

/**
 * Phase 1, inside the caller's transaction (so it commits with whatever decided it): reserves
 * `amountMinor` on the booking and records a `pending` refund with its effect. `id`: the refund's id
 * when the caller derives it (a request's run ids), random otherwise. REFUND_EXCEEDS_BALANCE when the
 * refunded total would exceed the amount.
 */
export async function reserveRefund(
  tx: Stores,
  booking: { id: string; intentReference: string; currency: string },
  refund: { amountMinor: number; effect: RefundEffect; at: string; id?: string },
): Promise<ReservedRefund> {
  const refundId = refund.id ?? randomUUID();
  const reserved = await tx.cancellation.reservePendingRefund({
    id: refundId,
    bookingId: booking.id,
    amountMinor: refund.amountMinor,
    effect: refund.effect,
    at: refund.at,
  });
  if (!reserved) throw new DomainError('REFUND_EXCEEDS_BALANCE', 'The refund exceeds the balance');
  return {
    refundId,
    bookingId: booking.id,
    amountMinor: refund.amountMinor,
    intentReference: booking.intentReference,
    currency: booking.currency,
    effect: refund.effect,
  };
}

/** A stored pending refund, to settle it without the request that reserved it. */
export function reservedRefundOf(row: RefundRow & { intentReference: string }): ReservedRefund {
  return {
    refundId: row.id,
    bookingId: row.bookingId,
    amountMinor: row.amountMinor,
    intentReference: row.intentReference,
    currency: row.currency,
    effect: row.effect,
  };
}

export type ProcessorAnswer =
  | { kind: 'refunded'; reference: string }
  | { kind: 'declined' }
  /** No outcome yet: no answer (`pending` false), or the processor accepted it and decides later (`pending` true). */
  | { kind: 'unknown'; error: string; pending?: boolean };

/** Phase 2: asks the processor, outside any transaction, with the refund's id as idempotency key. */
export async function askProcessor(deps: Deps, refund: ReservedRefund): Promise<ProcessorAnswer> {
  try {
    const { reference } = await deps.payments.refund({
      intentReference: refund.intentReference,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
      idempotencyKey: refund.refundId,
    });
    return { kind: 'refunded', reference };
  } catch (error) {
    if (error instanceof ProcessorError) return { kind: 'declined' };
    if (error instanceof RefundPendingError)
      return { kind: 'unknown', error: `RefundPendingError: ${error.message}`.slice(0, 200), pending: true };
    // Anything else (a timeout, a dropped connection): the processor may have refunded, or not.
    return { kind: 'unknown', error: (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 200) };
  }
}

/**
 * Phase 3: records `answer` and returns the refund's status afterwards (`pending` after no answer;
 * the status someone else settled it to, when they were first). `nextAttemptAt`: when the reconciler
 * should ask again after no answer (left as it is when undefined). The observer hears of every answer
 * this process got, but of a settlement only when this call made it.
 */
export async function settleAnswer(
  deps: Deps,
  refund: ReservedRefund,
  answer: ProcessorAnswer,
  nextAttemptAt?: string,
): Promise<RefundStatus> {
  return (await settleAnswerWithView(deps, refund, answer, nextAttemptAt)).status;
}

/**
 * `settleAnswer`, with the booking as the settlement's events show it when this call applied the
 * refund's effect and nothing after the events changed the booking, and its session as the unit left it
 * (the asker answers with them instead of reading them again).
 */
async function settleAnswerWithView(
  deps: Deps,
  refund: ReservedRefund,
  answer: ProcessorAnswer,
  nextAttemptAt?: string,
): Promise<{ status: RefundStatus; applied?: AppliedEffect }> {
  const at = deps.now().toISOString();
  const report = (outcome: RefundOutcome) =>
    notify(deps.observer, (o) => o.refundFinished?.({ outcome, amountMinor: refund.amountMinor, currency: refund.currency }));
  if (answer.kind === 'unknown') {
    await deps.db.refunds.recordUnansweredAttempt(refund.refundId, { error: answer.error, nextAttemptAt, at });
    report('unknown');
  } else {
    // The processor has answered: the settlement is recorded whatever the asker's deadline.
    const settled = await deps.db.transaction(async (tx) => settle(tx, deps, refund, answer, at), finishingUnit);
    if (settled) {
      report(answer.kind === 'refunded' ? 'succeeded' : 'declined');
      return { status: answer.kind === 'refunded' ? 'succeeded' : 'failed', applied: settled === true ? undefined : settled };
    }
  }
  return { status: (await deps.db.refunds.findRefund(refund.refundId))?.status ?? 'pending' };
}

async function settle(
  tx: Stores,
  deps: Deps,
  refund: ReservedRefund,
  answer: Exclude<ProcessorAnswer, { kind: 'unknown' }>,
  at: string,
): Promise<boolean | AppliedEffect> {
  if (answer.kind === 'declined') {
    if (!(await tx.refunds.settleRefund(refund.refundId, 'failed', null, at))) return false;
    await tx.cancellation.releaseRefundAmount(refund.bookingId, refund.amountMinor, at);
    return true;
  }
  if (!(await tx.refunds.settleRefund(refund.refundId, 'succeeded', answer.reference, at))) return false;
  const { cancel, participantIds, also } = refund.effect;
  const request = { cancel, participantIds, refundMinor: refund.amountMinor };
  const applied = await applyEffect(tx, await readState(tx, refund.bookingId), request, at, true, deps.waitlistOfferTtlSeconds);
  if (also?.kind === 'settle-cart') {
    await settleCartOfIntent(tx, also.intentId, at);
    return true;
  }
  return applied;
}

export const refundDeclined = () =>
  new DomainError('PAYMENT_PROCESSOR_ERROR', 'The payment processor declined the refund; nothing was changed');

export const refundUnanswered = (refundId: string) =>
  new DomainError('PAYMENT_PROCESSOR_ERROR', 'The payment processor did not answer; the refund stays pending until reconciled', {
    refundId,
  });

/**
 * Phases 2 and 3 for the asker, right after phase 1: returns once the refund succeeded (its effect
 * applied); PAYMENT_PROCESSOR_ERROR when it was declined (nothing changed) or got no answer (it stays
 * pending, its amount reserved, until the reconciler settles it). Returns the booking and session as
 * the settlement left them, when this call settled it and knows them (see settleAnswerWithView).
 */
export async function completeRefund(deps: Deps, refund: ReservedRefund): Promise<AppliedEffect | undefined> {
  const answer = await askProcessor(deps, refund);
  const { status, applied } = await settleAnswerWithView(deps, refund, answer);
  if (status === 'failed') throw refundDeclined();
  if (status === 'pending')
    throw answer.kind === 'unknown' && answer.pending ? refundAccepted(refund.refundId) : refundUnanswered(refund.refundId);
  return applied;
}

/** The processor took the refund and settles it later (Stripe's `pending`): its webhook or the reconciler finishes it. */
export const refundAccepted = (refundId: string) =>
  new DomainError(
    'PAYMENT_PROCESSOR_ERROR',
    'The payment processor accepted the refund and has not settled it yet; it stays pending until it does',
    { refundId },
  );
