/**
 * Stripe as Tessera's payment processor, through the official SDK: a PaymentIntent per checkout (the
 * browser confirms it with Stripe.js and the client secret), refunds, cancellations, and events read
 * from signed webhooks. Every write carries an Idempotency-Key derived from Tessera's own ids, so the
 * SDK's retries (5xx, 409, timeouts, dropped connections) and ours (429) never create a second object.
 *
 * A brand's connected account (Stripe Connect, direct charges) is part of the intent's reference as
 * Tessera stores it (`acct_.../pi_...`), so cancelling, reading and refunding go to the account that took
 * the payment, and an event is matched to an intent only when it comes from that intent's account.
 */
import Stripe from 'stripe';
import {
  InvalidWebhookError,
  ProcessorError,
  RefundPendingError,
  type PaymentEvent,
  type PaymentProcessor,
  type ProcessorIntentState,
} from '../domain/payments/processor.ts';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API by default; a proxy or a Stripe-compatible server may stand in. */
  apiBase?: string;
  publishableKey?: string | null;
  now?: () => Date;
  /** Per request; the SDK retries 5xx, 409, timeouts and dropped connections with the same key. */
  timeoutMs?: number;
  maxNetworkRetries?: number;
  /** How often a 429 (Stripe's rate limit) is tried again, after `rateLimitPauseMs`, with the same key. */
  rateLimitRetries?: number;
  rateLimitPauseMs?: number;
}

/** Webhooks older than this (by their signed timestamp) are refused, as Stripe's own default. */
const TOLERANCE_SECONDS = 300;

/** `acct_x/pi_y` for a connected account's intent, `pi_y` for the platform's. */
function referenceOf(account: string | null | undefined, id: string): string {
  return account ? `${account}/${id}` : id;
}

function splitReference(reference: string): { account: string | undefined; id: string } {
  const slash = reference.indexOf('/');
  return slash < 0 ? { account: undefined, id: reference } : { account: reference.slice(0, slash), id: reference.slice(slash + 1) };
}

/** The SDK's host, port and protocol from a base URL. */
export function stripeHost(apiBase: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

function stateOf(status: Stripe.PaymentIntent.Status): ProcessorIntentState {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'canceled') return 'canceled';
  return 'open';
}

const isStripeError = (error: unknown): error is Stripe.errors.StripeError => error instanceof Stripe.errors.StripeError;

/** A refusal Stripe will repeat however often it is asked (an invalid request, a card error). */
const isRefusal = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError;

export class StripeProcessor implements PaymentProcessor {
  readonly name = 'stripe';
  readonly browserSettings: { stripePublishableKey: string | null };
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private readonly now: () => Date;
  private readonly rateLimitRetries: number;
  private readonly rateLimitPauseMs: number;

  constructor(options: StripeOptions) {
    this.stripe = new Stripe(options.secretKey, {
      ...stripeHost(options.apiBase ?? 'https://api.stripe.com'),
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: options.timeoutMs ?? 10_000,
      telemetry: false,
      appInfo: { name: 'Tessera' },
    });
    this.webhookSecret = options.webhookSecret;
    this.browserSettings = { stripePublishableKey: options.publishableKey ?? null };
    this.now = options.now ?? (() => new Date());
    this.rateLimitRetries = options.rateLimitRetries ?? 2;
    this.rateLimitPauseMs = options.rateLimitPauseMs ?? 1_000;
  }

  async createIntent(input: {
    amountMinor: number;
    currency: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
    account?: string | null;
  }) {
    const account = input.account ?? undefined;
    const intent = await this.withRateLimitRetries(() =>
      this.stripe.paymentIntents.create(
        {
          // Minor units as Tessera stores them: a zero-decimal currency (JPY) is its whole amount.
          amount: input.amountMinor,
          currency: input.currency.toLowerCase(),
          metadata: input.metadata,
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: input.idempotencyKey, stripeAccount: account },
      ),
    );
    if (!intent.client_secret) throw new Error('Stripe answered a payment intent without a client secret');
    return { reference: referenceOf(account, intent.id), clientSecret: intent.client_secret };
  }

  async cancelIntent(reference: string): Promise<ProcessorIntentState> {
    const { account, id } = splitReference(reference);
    try {
      const intent = await this.withRateLimitRetries(() =>
        this.stripe.paymentIntents.cancel(id, {}, { stripeAccount: account, idempotencyKey: `tessera-cancel-${id}` }),
      );
      return stateOf(intent.status);
    } catch (error) {
      // Already paid, already cancelled, or a payment in flight: what it is now says what to do.
      if (isStripeError(error) && error.code === 'payment_intent_unexpected_state') return this.readIntent(reference);
      throw error;
    }
  }

  async readIntent(reference: string): Promise<ProcessorIntentState> {
    const { account, id } = splitReference(reference);
    const intent = await this.withRateLimitRetries(() => this.stripe.paymentIntents.retrieve(id, {}, { stripeAccount: account }));
    return stateOf(intent.status);
  }

  async refund(input: { intentReference: string; amountMinor: number; currency: string; idempotencyKey: string }) {
    const { account, id } = splitReference(input.intentReference);
    let refund: Stripe.Refund;
    try {
      refund = await this.withRateLimitRetries(() =>
        this.stripe.refunds.create(
          { payment_intent: id, amount: input.amountMinor, metadata: { tesseraRefundId: input.idempotencyKey } },
          { idempotencyKey: `tessera-refund-${input.idempotencyKey}`, stripeAccount: account },
        ),
      );
      // A repeated key replays the first answer: a refund pending then is read again for its state now.
      if (refund.status === 'pending' || refund.status === 'requires_action') {
        refund = await this.withRateLimitRetries(() => this.stripe.refunds.retrieve(refund.id, {}, { stripeAccount: account }));
      }
    } catch (error) {
      if (isRefusal(error)) throw new ProcessorError(`Stripe refused the refund: ${(error as Error).message}`);
      throw error;
    }
    if (refund.status === 'succeeded') return { reference: refund.id };
    if (refund.status === 'failed' || refund.status === 'canceled')
      throw new ProcessorError(`Stripe's refund ${refund.id} is ${refund.status}`);
    throw new RefundPendingError(`Stripe's refund ${refund.id} is ${refund.status ?? 'pending'}`);
  }

  parseWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): PaymentEvent {
    const header = headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        Array.isArray(header) ? (header[0] ?? '') : (header ?? ''),
        this.webhookSecret,
        TOLERANCE_SECONDS,
        undefined,
        // In milliseconds (the SDK divides by 1000): Tessera's clock, not the process's.
        this.now().getTime(),
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new InvalidWebhookError(error.message);
      throw error;
    }
    return eventOf(event);
  }

  /** Stripe asks to slow down with 429: tried again with the same idempotency key a few times, then given up. */
  private async withRateLimitRetries<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeRateLimitError) || attempt >= this.rateLimitRetries) throw error;
        await new Promise((resolve) => setTimeout(resolve, this.rateLimitPauseMs * 2 ** attempt));
      }
    }
  }
}

/** What a verified Stripe event means to Tessera. */
function eventOf(event: Stripe.Event): PaymentEvent {
  const account = event.account;
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { id: event.id, type: 'payment_intent.succeeded', intentReference: referenceOf(account, event.data.object.id) };
    case 'payment_intent.payment_failed':
      // The intent goes back to awaiting a payment method: the guest may try another card.
      return { id: event.id, type: 'payment_intent.attempt_failed', intentReference: referenceOf(account, event.data.object.id) };
    case 'charge.refunded':
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed': {
      const object = event.data.object;
      const intent = typeof object.payment_intent === 'string' ? object.payment_intent : object.payment_intent?.id;
      if (!intent) return { id: event.id, type: 'ignored' };
      const refundId = object.object === 'refund' ? (object.metadata?.tesseraRefundId ?? null) : null;
      return { id: event.id, type: 'refund.updated', intentReference: referenceOf(account, intent), refundId };
    }
    default:
      return { id: event.id, type: 'ignored' };
  }
}
