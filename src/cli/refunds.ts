/**
 * The operator's tools for refunds left pending (the reconciler stops asking the processor after
 * REFUND_RECONCILE_MAX_AGE_SECONDS), on the configured database (DATABASE_URL):
 *   npm run refunds -- pending [--all]
 *   npm run refunds -- settle <refundId> --outcome succeeded|failed [--reference <processor refund id>]
 */
import { parseArgs } from 'node:util';
import { paymentProcessor } from '../adapters/payment-processor.ts';
import { loadConfig } from '../config.ts';
import { connect } from '../db/connect.ts';
import { pendingRefunds, settleRefundByHand } from '../domain/cancellation/manual-refunds.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { toDecimal } from '../domain/shared/money.ts';
import { runWhenMain } from './main.ts';

const usage = `Usage:
  npm run refunds -- pending [--all]        refunds pending past the reconciler's age (--all: every pending one)
  npm run refunds -- settle <refundId> --outcome succeeded|failed [--reference <processor refund id>]`;

export async function runRefundsCli(argv: string[], out: (line: string) => void, now: () => Date = () => new Date()): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { all: { type: 'boolean' }, outcome: { type: 'string' }, reference: { type: 'string' } },
    });
  } catch (error) {
    out(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, refundId] = positionals;
  const outcome = values.outcome;
  const settling = command === 'settle' && refundId && positionals.length === 2 && (outcome === 'succeeded' || outcome === 'failed');
  if (!(command === 'pending' && positionals.length === 1) && !settling) {
    out(usage);
    return 2;
  }
  const config = loadConfig();
  const { database: db } = await connect(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  // Settling by hand asks no processor: the operator brings its answer.
  const deps = {
    db,
    now,
    payments: await paymentProcessor(config, now),
    holdTtlSeconds: config.HOLD_TTL_SECONDS,
    waitlistOfferTtlSeconds: config.WAITLIST_OFFER_TTL_SECONDS,
  };
  try {
    if (command === 'pending') {
      const maxAge = config.REFUND_RECONCILE_MAX_AGE_SECONDS;
      const rows = await pendingRefunds(deps, values.all ? 0 : maxAge);
      if (rows.length === 0) out(values.all ? 'No pending refund.' : `No refund pending for more than ${maxAge / 3600} hours.`);
      for (const row of rows) {
        const hours = ((now().getTime() - Date.parse(row.createdAt)) / 3_600_000).toFixed(1);
        const amount = `${toDecimal(row.amountMinor, row.currency)} ${row.currency}`;
        out(
          `${row.id}  booking ${row.bookingId}  ${amount}  pending ${hours} h  ${row.attempts} attempts  payment ${row.intentReference ?? '(none)'}`,
        );
      }
      return 0;
    }
    const status = await settleRefundByHand(deps, {
      refundId: refundId!,
      outcome: outcome as 'succeeded' | 'failed',
      processorReference: values.reference ?? null,
    });
    out(`Refund ${refundId} is now ${status}`);
    return 0;
  } catch (error) {
    if (error instanceof DomainError) {
      out(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}

runWhenMain(import.meta.url, (argv, out) => runRefundsCli(argv, out));
