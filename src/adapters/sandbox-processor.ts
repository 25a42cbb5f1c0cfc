import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { InvalidWebhookError, ProcessorError, type IntentEvent, type PaymentProcessor } from '../domain/payments/processor.ts';

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
const TOLERANCE_SECONDS = 300;

export interface SandboxOptions {
  /** Secret that signs the sandbox's webhooks; random per process unless given. */
  webhookSecret?: string;
  now?: () => Date;
  /** Tests: make every refund fail, as a processor outage would. */
  failRefunds?: boolean;
}

const token = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * Idempotency keys are honoured for 24 hours, as real processors do; the most recent 100,000 only, so a
 * long-running sandbox does not grow without bound (Tessera's own retries come within minutes). Bounded
 * by `maxSize` (each key counting 1) rather than `max`, which would allocate room for all 100,000 up front:
 * 4.4 MB of an empty sandbox's memory each, 9 MB of the gateway's heap at start.
 */
const keyMemory = <V extends object>() => new LRUCache<string, V>({ maxSize: 100_000, sizeCalculation: () => 1, ttl: 24 * 3600 * 1000 });

/**
 * An in-process processor for development and tests. Outcomes are announced with webhooks signed like
 * a real processor's (`t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`). The only state it holds, in memory
 * (a restart forgets it), is what idempotency keys need: the intents and refunds made per key, for a day.
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox';
  private readonly secret: string;
  private readonly now: () => Date;
  private readonly failRefunds: boolean;
  private readonly intentsByKey = keyMemory<{ reference: string; clientSecret: string }>();
  private readonly refundsByKey = keyMemory<{ reference: string }>();

  constructor(options: SandboxOptions = {}) {
    this.secret = options.webhookSecret ?? token(32);
    this.now = options.now ?? (() => new Date());
    this.failRefunds = options.failRefunds ?? false;
  }

  async createIntent(input: { idempotencyKey: string }) {
    const existing = this.intentsByKey.get(input.idempotencyKey);
    if (existing) return existing;
    const reference = `pi_sbx_${token(12)}`;
    const intent = { reference, clientSecret: `${reference}_secret_${token(16)}` };
    this.intentsByKey.set(input.idempotencyKey, intent);
    return intent;
  }

  /** Like a real processor, a repeated idempotency key gets the first refund back, never a second one. */
  async refund(input: { intentReference: string; amountMinor: number; idempotencyKey: string }) {
    const existing = this.refundsByKey.get(input.idempotencyKey);
    if (existing) return existing;
    if (this.failRefunds) throw new ProcessorError('The sandbox processor declined the refund');
    const refund = { reference: `re_sbx_${token(12)}` };
    this.refundsByKey.set(input.idempotencyKey, refund);
    return refund;
  }

  /** The body and headers of a genuine webhook announcing `event`. */
  signEvent(event: Omit<IntentEvent, 'id'>): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify({ id: `evt_sbx_${token(12)}`, type: event.type, data: { intentReference: event.intentReference } });
    const t = Math.floor(this.now().getTime() / 1000);
    return { body, headers: { [SANDBOX_SIGNATURE_HEADER]: `t=${t},v1=${this.hmac(`${t}.${body}`)}` } };
  }

  parseWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): IntentEvent {
    const header = headers[SANDBOX_SIGNATURE_HEADER];
    const parts = new Map(
      String(Array.isArray(header) ? header[0] : (header ?? ''))
        .split(',')
        .map((p) => p.split('=', 2) as [string, string]),
    );
    const t = Number(parts.get('t'));
    const v1 = parts.get('v1') ?? '';
    if (!Number.isInteger(t) || Math.abs(this.now().getTime() / 1000 - t) > TOLERANCE_SECONDS) {
      throw new InvalidWebhookError('The webhook timestamp is missing or outside the 5-minute tolerance');
    }
    const expected = Buffer.from(this.hmac(`${t}.${rawBody}`), 'hex');
    const given = Buffer.from(v1, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new InvalidWebhookError('The webhook signature does not match');
    }
    // Signed is not well formed: a signed `null` or `[]` must be refused as any other non-event.
    const json: unknown = JSON.parse(rawBody);
    const parsed = (json !== null && typeof json === 'object' ? json : {}) as {
      id?: unknown;
      type?: unknown;
      data?: { intentReference?: unknown } | null;
    };
    if (
      typeof parsed.id !== 'string' ||
      (parsed.type !== 'payment_intent.succeeded' && parsed.type !== 'payment_intent.payment_failed') ||
      typeof parsed.data?.intentReference !== 'string'
    ) {
      throw new InvalidWebhookError('The webhook body is not a payment intent event');
    }
    return { id: parsed.id, type: parsed.type, intentReference: parsed.data.intentReference };
  }

  private hmac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('hex');
  }
}
