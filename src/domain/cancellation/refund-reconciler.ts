import { type RefundRow } from './store.ts';
import type { Deps } from '../shared/deps.ts';
import { runInPasses } from '../shared/passes.ts';
import { askProcessor, reservedRefundOf, settleAnswer } from './refunds.ts';

export interface RefundReconcilerOptions {
  /** How often the job looks for due refunds. */
  intervalMs: number;
  /** A pending refund younger than this is left alone: its request may still be asking the processor. */
  graceSeconds: number;
  /** The wait after an unanswered attempt, doubled at each attempt up to `maxRetrySeconds`. */
  retryBaseSeconds: number;
  maxRetrySeconds: number;
  /**
   * After this long pending the processor is not asked any more: a processor keeps idempotency keys for
   * a limited time (Stripe: at least 24 hours), and asking after it forgot one could refund twice. The
   * refund stays pending, its amount reserved, and is logged at error level each time it comes due
   * (every `maxRetrySeconds`) until an operator settles it with the processor.
   */
  maxAgeSeconds: number;
  /** How long a process holds a refund while it asks the processor about it. */
  leaseSeconds: number;
  /** Refunds leased per pass. */
  batchSize: number;
}

export const refundReconcilerDefaults: RefundReconcilerOptions = {
  intervalMs: 30_000,
  graceSeconds: 60,
  retryBaseSeconds: 60,
  maxRetrySeconds: 3_600,
  maxAgeSeconds: 23 * 3_600,
  leaseSeconds: 300,
  batchSize: 20,
};

type LogFn = (details: object, message: string) => void;

export interface RefundReconcilerDeps extends Deps {
  /** A pino logger fits. */
  log: { info: LogFn; warn: LogFn; error: LogFn };
}

export interface ReconcilePass {
  succeeded: number;
  failed: number;
  /** Asked, no answer: tried again later. */
  unanswered: number;
  /** Past `maxAgeSeconds`: not asked, logged for an operator. */
  abandoned: number;
}

const secondsLater = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000).toISOString();

/** One pass: leases the due refunds (one transaction), then asks and settles them one after the other. */
export async function reconcileRefunds(
  deps: RefundReconcilerDeps,
  options: RefundReconcilerOptions = refundReconcilerDefaults,
): Promise<ReconcilePass> {
  const pass: ReconcilePass = { succeeded: 0, failed: 0, unanswered: 0, abandoned: 0 };
  const now = deps.now();
  const createdBy = secondsLater(now, -options.graceSeconds);
  // Most passes find nothing: look without writing first.
  if ((await deps.db.refunds.dueRefunds(now.toISOString(), createdBy, 1)).length === 0) return pass;
  // Leased: no other process or gateway asks the processor about them before the lease ends.
  const leased = await deps.db.refunds.claimDueRefunds(
    now.toISOString(),
    createdBy,
    options.batchSize,
    secondsLater(now, options.leaseSeconds),
  );
  for (const row of leased) {
    try {
      pass[await reconcileOne(deps, options, row)] += 1;
    } catch (error) {
      // Its lease ends and a later pass tries again.
      deps.log.error({ err: error, refundId: row.id, bookingId: row.bookingId }, 'reconciling a refund failed');
    }
  }
  return pass;
}

async function reconcileOne(deps: RefundReconcilerDeps, options: RefundReconcilerOptions, row: RefundRow): Promise<keyof ReconcilePass> {
  const pendingSeconds = (deps.now().getTime() - Date.parse(row.createdAt)) / 1000;
  const about = {
    refundId: row.id,
    bookingId: row.bookingId,
    amountMinor: row.amountMinor,
    currency: row.currency,
    pendingSince: row.createdAt,
  };
  const { intentReference } = row;
  const tooOld = pendingSeconds >= options.maxAgeSeconds;
  if (tooOld || intentReference === null) {
    await deps.db.refunds.leaseRefund(row.id, row.nextAttemptAt!, secondsLater(deps.now(), options.maxRetrySeconds));
    const why = tooOld
      ? 'refund still pending past REFUND_RECONCILE_MAX_AGE_SECONDS: no longer asking the processor; check it there and settle it by hand'
      : 'pending refund of a booking without a payment intent: nothing to ask the processor; settle it by hand';
    deps.log.error({ ...about, attempts: row.attempts }, why);
    return 'abandoned';
  }
  const refund = reservedRefundOf({ ...row, intentReference });
  const answer = await askProcessor(deps, refund);
  const attempts = row.attempts + 1;
  const wait = Math.min(options.retryBaseSeconds * 2 ** (attempts - 1), options.maxRetrySeconds);
  const nextAttemptAt = secondsLater(deps.now(), wait);
  const status = await settleAnswer(deps, refund, answer, nextAttemptAt);
  if (status !== 'pending') {
    deps.log.info({ ...about, attempts, status }, 'pending refund reconciled');
    return status === 'succeeded' ? 'succeeded' : 'failed';
  }
  const error = answer.kind === 'unknown' ? answer.error : null;
  deps.log.warn({ ...about, attempts, error, nextAttemptAt }, 'the processor gave no answer about a pending refund: asking again later');
  return 'unanswered';
}

/**
 * Reconciles at once (refunds a crash left behind), then every `intervalMs`; a pass never overlaps the
 * previous one. The timer does not keep the process alive. The returned function stops starting passes
 * and resolves once the pass in flight, if any, has recorded its answers.
 */
export function startRefundReconciler(deps: RefundReconcilerDeps, options: RefundReconcilerOptions): () => Promise<void> {
  return runInPasses(
    () => reconcileRefunds(deps, options),
    options.intervalMs,
    (error) => deps.log.error({ err: error }, 'a refund reconciliation pass failed'),
  );
}
