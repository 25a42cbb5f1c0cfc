/**
 * The port to a payment processor. The domain creates, cancels and reads intents and refunds through
 * it and learns of payment outcomes from verified webhooks (or, when one was lost, by reading the intent
 * back), so the sandbox and Stripe drive the same code. Two adapters implement it (src/adapters/payments);
 * nothing outside them imports either.
 */
export interface PaymentProcessor {
  /** Stored with each intent, e.g. `sandbox` or `stripe`. */
  readonly name: string;
  createIntent(input: {
    amountMinor: number;
    currency: string;
    /** Repeating a call with the same key must not create a second intent. */
    idempotencyKey: string;
    metadata: Record<string, string>;
    /** The brand's own account at the processor (Stripe Connect, direct charges); absent: the platform's. */
    account?: string | null;
  }): Promise<{ reference: string; clientSecret: string }>;
  /**
   * Makes the intent unpayable. Answers what the processor then says of it: `canceled`, or `succeeded`
   * when it was paid first (a payment that raced the cancellation). Throws when it could not ask. A
   * processor without it (the sandbox: its intents are paid only through Tessera) is never asked.
   */
  cancelIntent?(reference: string): Promise<ProcessorIntentState>;
  /** Reads the intent's state back (a lost webhook): throws when it could not ask. Optional as above. */
  readIntent?(reference: string): Promise<ProcessorIntentState>;
  /**
   * Refunds once per idempotency key. Answers the processor's refund id; throws ProcessorError when it
   * declined, RefundPendingError while the processor has not decided yet, anything else when no answer came.
   */
  refund(input: { intentReference: string; amountMinor: number; currency: string; idempotencyKey: string }): Promise<{ reference: string }>;
  /** Verifies a webhook's signature and reads its event; throws InvalidWebhookError when it is not genuine. */
  parseWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): PaymentEvent;
  /** What a browser needs to pay with this processor (the booking page); absent for the sandbox. */
  readonly browserSettings?: { stripePublishableKey: string | null };
}

/**
 * A processor's intent as Tessera sees it: `open` (still payable: awaiting a payment method, a
 * confirmation or a payment in flight), `succeeded`, `canceled`.
 */
export type ProcessorIntentState = 'open' | 'succeeded' | 'canceled';

/** A payment intent's outcome. */
export interface IntentEvent {
  /** Processor's event id: handling the same event twice changes nothing. */
  id: string;
  /**
   * `payment_failed` is final (the sandbox's declined intent: its bookings fail); `attempt_failed` is one
   * declined card of an intent that stays payable (Stripe): the hold stays so the guest may try again.
   */
  type: 'payment_intent.succeeded' | 'payment_intent.payment_failed' | 'payment_intent.attempt_failed';
  intentReference: string;
}

/** A refund's outcome is known at the processor: the pending refunds it names are asked about again. */
export interface RefundEvent {
  id: string;
  type: 'refund.updated';
  intentReference: string;
  /** Tessera's refund id, when the processor carries it back (the refund's metadata); null: every pending one of the intent. */
  refundId: string | null;
}

/** A genuine event Tessera has nothing to do with (another type): acknowledged and ignored. */
export interface IgnoredEvent {
  id: string;
  type: 'ignored';
}

export type PaymentEvent = IntentEvent | RefundEvent | IgnoredEvent;

export class InvalidWebhookError extends Error {}

/** The processor refused (a declined refund, an invalid request): asking again changes nothing. */
export class ProcessorError extends Error {}

/** The processor accepted a refund and has not decided it yet: it stays pending in Tessera's ledger. */
export class RefundPendingError extends Error {}
