/**
 * The operator's side of refunds the reconciler gave up on (pending past its maximum age, or of a booking
 * without a payment intent): list them, and settle one by hand once its outcome is known at the
 * processor, writing the ledger, the booking and the events exactly as the reconciler would have.
 */
import type { RefundRow } from './store.ts';
import type { Deps } from '../shared/deps.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import type { RefundStatus } from '../shared/values.ts';
import { settleAnswer } from './refunds.ts';

/** Pending refunds created at least `olderThanSeconds` ago (0: every pending refund), oldest first. */
export async function pendingRefunds(deps: Pick<Deps, 'db' | 'now'>, olderThanSeconds: number): Promise<RefundRow[]> {
  return deps.db.refunds.pendingRefunds(new Date(deps.now().getTime() - olderThanSeconds * 1000).toISOString());
}

/**
 * Settles pending refund `refundId` as `outcome`: `succeeded` applies its effect (cancellation, status,
 * events) with `processorReference` (the processor's refund id, when the operator has it); `failed`
 * gives its reserved amount back. NOT_FOUND for an unknown refund; VALIDATION_FAILED when it is no
 * longer pending (someone settled it meanwhile: nothing changes).
 */
export async function settleRefundByHand(
  deps: Deps,
  input: { refundId: string; outcome: 'succeeded' | 'failed'; processorReference?: string | null },
): Promise<RefundStatus> {
  const row = await deps.db.refunds.findRefund(input.refundId);
  if (!row) throw notFound('Refund', input.refundId);
  if (row.status !== 'pending') {
    throw new DomainError('VALIDATION_FAILED', `Refund ${row.id} is already ${row.status}: nothing to settle`, { field: 'refundId' });
  }
  const refund = {
    refundId: row.id,
    bookingId: row.bookingId,
    amountMinor: row.amountMinor,
    intentReference: row.intentReference ?? '',
    currency: row.currency,
    effect: row.effect,
  };
  const answer =
    input.outcome === 'succeeded'
      ? ({ kind: 'refunded', reference: input.processorReference ?? 'settled-by-hand' } as const)
      : ({ kind: 'declined' } as const);
  return settleAnswer(deps, refund, answer);
}
