import type { Principal } from '../access/principal.ts';
import type { Database } from './database.ts';
import type { DomainObserver } from './observer.ts';
import type { PaymentProcessor } from '../payments/processor.ts';

/** What every domain function may depend on. Transports build one per request. */
export interface Deps {
  db: Database;
  /** The clock; tests pass a fixed one. */
  now: () => Date;
  /** The payment processor (the sandbox outside production). */
  payments: PaymentProcessor;
  /** How long checkout holds places before an unpaid booking fails. */
  holdTtlSeconds: number;
  /** How long places offered to a waitlist entry stay held for it. */
  waitlistOfferTtlSeconds: number;
  /** Told about finished refunds (the app's metrics); optional, tests and tools leave it out. */
  observer?: DomainObserver;
}

export interface CallerDeps extends Deps {
  principal: Principal;
  /**
   * Set while a request runs under an Idempotency-Key: call after call, the same ids on every run of
   * that request (a retry taking over a run cut off by a crash), so a refund the cut-off run recorded
   * is found and finished by the next run instead of being made a second time.
   */
  requestIds?: () => string;
}
