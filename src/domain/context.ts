import type { Principal } from '../auth/principal.ts';
import type { Db } from '../db/client.ts';
import type { DomainObserver } from './observer.ts';
import type { PaymentProcessor } from './payment-processor.ts';

/** What every domain function may depend on. Transports build one per request. */
export interface Deps {
  db: Db;
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
}
