/**
 * Keeps Tessera's intents and the processor's in step without relying on webhooks alone: an intent whose
 * check is due (`processorCheckAt`, set at checkout to the sooner of `checkAfterSeconds` and the hold's
 * lapse) is asked about at the processor:
 * - an intent Tessera cancelled (its hold lapsed, its checkout was replaced) is cancelled there, so it can
 *   no longer be paid; when it had been paid first, the payment is recorded as a late success (the places
 *   taken again if still free, otherwise refunded in full);
 * - an intent still awaiting payment is read back: a success whose webhook was lost is recorded.
 * Each intent is leased before the processor is asked (one conditional update), so gateways running the
 * job at once ask about different intents; a payment recorded twice changes nothing anyway.
 */
import type { Deps } from '../shared/deps.ts';
import { runInPasses } from '../shared/passes.ts';
import { handlePaymentEvent } from './payments.ts';
import type { IntentCheckRow } from './store.ts';

export interface IntentReconcilerOptions {
  /** How often the job looks for due checks. */
  intervalMs: number;
  /** An unpaid intent is first read back after this long (or when its hold lapses, if sooner). */
  checkAfterSeconds: number;
  /** The wait before asking again about an intent still open at the processor, or after no answer. */
  retrySeconds: number;
  /** How long a gateway holds an intent while it asks about it. */
  leaseSeconds: number;
  /** Intents asked about per pass. */
  batchSize: number;
}

export const intentCheckDefaults: IntentReconcilerOptions = {
  intervalMs: 10_000,
  checkAfterSeconds: 600,
  retrySeconds: 300,
  leaseSeconds: 120,
  batchSize: 20,
};

type LogFn = (details: object, message: string) => void;

export interface IntentReconcilerDeps extends Deps {
  log: { info: LogFn; warn: LogFn; error: LogFn };
}

export interface IntentPass {
  /** Cancelled at the processor. */
  cancelled: number;
  /** Found paid there: recorded as a success. */
  paid: number;
  /** Still open there, or no answer: asked again later. */
  later: number;
}

const secondsLater = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000).toISOString();

/** One pass over the due checks of this gateway's processor; nothing when it cannot be asked. */
export async function reconcileIntents(
  deps: IntentReconcilerDeps,
  options: IntentReconcilerOptions = intentCheckDefaults,
): Promise<IntentPass> {
  const pass: IntentPass = { cancelled: 0, paid: 0, later: 0 };
  if (!deps.payments.cancelIntent || !deps.payments.readIntent) return pass;
  const now = deps.now();
  const due = await deps.db.payments.dueIntentChecks(deps.payments.name, now.toISOString(), options.batchSize);
  for (const row of due) {
    if (!(await deps.db.payments.leaseIntentCheck(row.id, row.processorCheckAt, secondsLater(now, options.leaseSeconds)))) continue;
    try {
      pass[await checkOne(deps, options, row)] += 1;
    } catch (error) {
      pass.later += 1;
      deps.log.warn({ err: error, intentId: row.id }, 'asking the processor about a payment intent failed: asking again later');
      await deps.db.payments.setIntentCheck(row.id, secondsLater(deps.now(), options.retrySeconds));
    }
  }
  return pass;
}

async function checkOne(deps: IntentReconcilerDeps, options: IntentReconcilerOptions, row: IntentCheckRow): Promise<keyof IntentPass> {
  const processor = deps.payments;
  const state =
    row.status === 'canceled' ? await processor.cancelIntent!(row.processorReference) : await processor.readIntent!(row.processorReference);
  if (state === 'succeeded') {
    // Recording the success clears the check (payments.ts sets the settled status).
    const outcome = await handlePaymentEvent(deps, {
      id: `reconciled-${row.id}`,
      type: 'payment_intent.succeeded',
      intentReference: row.processorReference,
    });
    deps.log.info(
      { intentId: row.id, wasCancelled: row.status === 'canceled', refundErrors: outcome?.refundErrors.length ?? 0 },
      'payment found succeeded at the processor without its webhook: recorded',
    );
    return 'paid';
  }
  if (state === 'canceled') {
    await deps.db.payments.setIntentCheck(row.id, null);
    return row.status === 'canceled' ? 'cancelled' : 'later';
  }
  await deps.db.payments.setIntentCheck(row.id, secondsLater(deps.now(), options.retrySeconds));
  return 'later';
}

/** Runs a pass at once, then every `intervalMs`, never two at a time; the returned function stops it. */
export function startIntentReconciler(deps: IntentReconcilerDeps, options: IntentReconcilerOptions): () => Promise<void> {
  return runInPasses(
    () => reconcileIntents(deps, options),
    options.intervalMs,
    (error) => deps.log.error({ err: error }, 'a payment intent reconciliation pass failed'),
  );
}
