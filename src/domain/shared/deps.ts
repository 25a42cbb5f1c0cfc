import type { Principal } from '../access/principal.ts';
import type { Database } from './database.ts';
import type { DomainObserver } from './observer.ts';
import type { PaymentProcessor } from '../payments/processor.ts';
import type { PublishableHoldSettings } from '../checkout/hold-budget.ts';
import type { HumanCheckRequest, HumanCheckVerifier } from '../checkout/human-check.ts';
import type { LiveHub } from '../live/hub.ts';

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
  /**
   * How long an unpaid intent waits before Tessera reads it back from its processor (a lost webhook);
   * the intent reconciler's default when absent.
   */
  intentCheckAfterSeconds?: number;
  /**
   * Bounds on unpaid holds made with publishable keys (per-client places, a shorter TTL). The app always
   * sets them; tools and tests that leave them out get the defaults with a per-process random key.
   */
  publishableHolds?: PublishableHoldSettings;
  /** Told about finished refunds (the app's metrics); optional, tests and tools leave it out. */
  observer?: DomainObserver;
  /** Verifies human-check tokens for brands that ask for one; without it such a check is unavailable. */
  humanCheck?: HumanCheckVerifier;
  /**
   * The gateway's reader of committed events, which live watches (src/domain/live) listen to; the app
   * sets it once started. Without it a watch is SERVICE_UNAVAILABLE.
   */
  live?: LiveHub;
}

export interface CallerDeps extends Deps {
  principal: Principal;
  /**
   * Set while a request runs under an Idempotency-Key: call after call, the same ids on every run of
   * that request (a retry taking over a run cut off by a crash), so a refund the cut-off run recorded
   * is found and finished by the next run instead of being made a second time.
   */
  requestIds?: () => string;
  /**
   * The caller's address as the transport takes it (the proxy header only when TRUST_PROXY says so, IPv6
   * by /64): what publishable holds are counted by. Absent outside HTTP.
   */
  clientAddress?: string;
  /** The client's address and the human-check token the request carried (src/domain/checkout/human-check.ts). */
  humanCheckRequest?: HumanCheckRequest;
}
