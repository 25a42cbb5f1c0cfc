/**
 * What the domain tells whoever watches it (the app's metrics), without knowing who that is: the
 * domain stays free of any metrics library. Observers are told after the change committed.
 */

/** How a refund asked of the processor ended. */
export type RefundOutcome =
  /** The processor refunded; the ledger row is `succeeded`. */
  | 'succeeded'
  /** The processor declined; nothing changed. */
  | 'declined'
  /** The processor did not answer; the refund stays `pending` until reconciled. */
  | 'unknown';

export interface DomainObserver {
  refundFinished?(refund: { outcome: RefundOutcome; amountMinor: number; currency: string }): void;
  /** A publishable key's client was refused more holds (HOLD_LIMIT_REACHED); `client` is its stored HMAC, never its address. */
  holdLimitReached?(refusal: { brandId: string; client: string; held: number; requested: number; limit: number }): void;
}

/** Tells the observer, if any; an observer's failure never fails the change it is told about. */
export function notify(observer: DomainObserver | undefined, tell: (observer: DomainObserver) => void): void {
  if (!observer) return;
  try {
    tell(observer);
  } catch {
    // Metrics are best effort: the booking or refund already happened.
  }
}
