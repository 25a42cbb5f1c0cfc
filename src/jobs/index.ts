/**
 * The background work a gateway runs beside its requests, started and stopped in one place. Each job's
 * state lives in the database, so a restarted gateway (or another one on the same database) carries on:
 * - the hold sweeper fails lapsed checkout holds and expires lapsed waitlist offers, so places come back
 *   even when no checkout comes along;
 * - the webhook dispatcher sends pending deliveries;
 * - the refund reconciler finishes refunds a crash or an unanswered processor call left pending;
 * - the intent reconciler cancels lapsed intents at the processor and reads back intents left unpaid
 *   (a lost webhook), with a processor that can be asked (Stripe);
 * - the live hub reads committed events for live updates (`deps.live`); it stops last, once the
 *   requests (and the live streams) are done.
 */
import type { FastifyBaseLogger } from 'fastify';
import { startRefundReconciler, type RefundReconcilerOptions } from '../domain/cancellation/refund-reconciler.ts';
import { startHoldSweeper } from '../domain/checkout/holds.ts';
import type { Deps } from '../domain/shared/deps.ts';
import { startWebhookDispatcher } from '../domain/webhooks/dispatcher.ts';
import { intentCheckDefaults, startIntentReconciler, type IntentReconcilerOptions } from '../domain/payments/intent-reconciler.ts';
import { startLiveHub, type LiveHub } from '../domain/live/hub.ts';
import type { WebhookRuntime } from './webhook-settings.ts';

export interface JobSettings {
  webhooks: WebhookRuntime;
  /** Null: this gateway reconciles no refunds. */
  refundReconciler: RefundReconcilerOptions | null;
  /** Null: this gateway asks the processor about no intent; absent: the defaults. */
  intentReconciler?: IntentReconcilerOptions | null;
  /** LIVE_CATCH_UP_INTERVAL_MS. */
  live: { catchUpIntervalMs: number };
}

export interface BackgroundJobs {
  start(): Promise<void>;
  /** Starts no new work (a drain begins); what runs goes on. */
  beginStop(): void;
  /** Resolves once the work in flight is done. */
  stopped(): Promise<void>;
}

export function backgroundJobs(deps: Deps, settings: JobSettings, log: FastifyBaseLogger): BackgroundJobs {
  const stops: Array<() => unknown> = [];
  let stopping: Promise<unknown> | null = null;
  let hub: LiveHub | undefined;
  const beginStop = () => {
    stopping ??= Promise.all(stops.map(async (stop) => stop()));
  };
  return {
    async start() {
      const { db, now, waitlistOfferTtlSeconds } = deps;
      stops.push(await startHoldSweeper({ db, now, waitlistOfferTtlSeconds, log: log.child({ job: 'hold-sweeper' }) }));
      const { dispatcher, sender } = settings.webhooks;
      if (dispatcher) stops.push(startWebhookDispatcher({ db, now, sender, log: log.child({ job: 'webhook-dispatcher' }) }, dispatcher));
      if (settings.refundReconciler)
        stops.push(startRefundReconciler({ ...deps, log: log.child({ job: 'refund-reconciler' }) }, settings.refundReconciler));
      const intents = settings.intentReconciler === undefined ? intentCheckDefaults : settings.intentReconciler;
      if (intents && deps.payments.cancelIntent)
        stops.push(startIntentReconciler({ ...deps, log: log.child({ job: 'intent-reconciler' }) }, intents));
      hub = await startLiveHub(db, { catchUpIntervalMs: settings.live.catchUpIntervalMs, log: log.child({ job: 'live-hub' }) });
      deps.live = hub;
    },
    beginStop,
    async stopped() {
      beginStop();
      await stopping;
      if (deps.live === hub) deps.live = undefined;
      await hub?.close();
    },
  };
}
