/**
 * The port to a payment processor. The domain creates intents and refunds through it and learns of
 * payment outcomes only from verified webhooks, so the sandbox and a real processor drive the same code.
 */
export interface PaymentProcessor {
  /** Stored with each intent, e.g. `sandbox`. */
  readonly name: string;
  createIntent(input: {
    amountMinor: number;
    currency: string;
    /** Repeating a call with the same key must not create a second intent. */
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<{ reference: string; clientSecret: string }>;
  refund(input: { intentReference: string; amountMinor: number; currency: string; idempotencyKey: string }): Promise<{ reference: string }>;
  /** Verifies a webhook's signature and reads its event; throws InvalidWebhookError when it is not genuine. */
  parseWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): PaymentEvent;
}

export interface PaymentEvent {
  /** Processor's event id: handling the same event twice changes nothing. */
  id: string;
  type: 'payment_intent.succeeded' | 'payment_intent.payment_failed';
  intentReference: string;
}

export class InvalidWebhookError extends Error {}

export class ProcessorError extends Error {}
