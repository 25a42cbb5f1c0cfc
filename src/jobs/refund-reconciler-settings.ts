/** The refund reconciler a server runs with: its configuration, overridden by `buildApp`'s options. */
import type { Config } from '../config.ts';
import { refundReconcilerDefaults, type RefundReconcilerOptions } from '../domain/cancellation/refund-reconciler.ts';

type RefundReconcileConfigKey =
  | 'REFUND_RECONCILE_INTERVAL_MS'
  | 'REFUND_RECONCILE_GRACE_SECONDS'
  | 'REFUND_RECONCILE_RETRY_BASE_SECONDS'
  | 'REFUND_RECONCILE_MAX_AGE_SECONDS';

/** What the reconciler reads from the configuration; each setting falls back to its documented default. */
export type RefundReconcileConfig = Partial<Pick<Config, RefundReconcileConfigKey>>;

/** `buildApp`'s `refunds` option: anything set here wins over the configuration (tests use it). */
export interface RefundReconcileAppOptions extends Partial<RefundReconcilerOptions> {
  /** Whether the server runs the reconciler at all (true by default). */
  reconcile?: boolean;
}

/** The reconciler's options, or null when it must not run. */
export function refundReconcilerSettings(
  config: RefundReconcileConfig,
  options: RefundReconcileAppOptions = {},
): RefundReconcilerOptions | null {
  const { reconcile, ...overrides } = options;
  if (reconcile === false) return null;
  return {
    ...refundReconcilerDefaults,
    intervalMs: config.REFUND_RECONCILE_INTERVAL_MS ?? refundReconcilerDefaults.intervalMs,
    graceSeconds: config.REFUND_RECONCILE_GRACE_SECONDS ?? refundReconcilerDefaults.graceSeconds,
    retryBaseSeconds: config.REFUND_RECONCILE_RETRY_BASE_SECONDS ?? refundReconcilerDefaults.retryBaseSeconds,
    maxAgeSeconds: config.REFUND_RECONCILE_MAX_AGE_SECONDS ?? refundReconcilerDefaults.maxAgeSeconds,
    ...overrides,
  };
}
