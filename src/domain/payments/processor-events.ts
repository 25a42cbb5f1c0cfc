/**
 * The ways in for payment outcomes: a raw webhook, verified by the processor adapter, then handled; and
 * the sandbox's confirm operation, whose outcome is handled as its event would be (handleIntentOutcome),
 * the intent named by its client secret rather than by the processor's reference.
 */
import { hashSecret } from '../access/secrets.ts';
import type { Deps } from '../shared/deps.ts';
import { DomainError } from '../shared/errors.ts';
import { InvalidWebhookError, type IntentEvent, type PaymentEvent, type PaymentProcessor, type RefundEvent } from './processor.ts';
import { askProcessor, reservedRefundOf, settleAnswer } from '../cancellation/refunds.ts';
import { handleIntentOutcome, handlePaymentEvent, type PaymentOutcome } from './payments.ts';
import type { IntentStatus } from './rules.ts';

/** The header each processor signs its webhooks in, named in the error when verification fails. */
const signatureHeaders: Record<string, string> = { sandbox: 'Sandbox-Signature', stripe: 'Stripe-Signature' };

/**
 * Verifies and handles one webhook delivery. VALIDATION_FAILED when it is not genuine — the message is
 * the same whatever did not match (signature, timestamp, body), so a forger learns nothing. Null when
 * the event names no intent we know.
 */
export async function receivePaymentWebhook(
  deps: Deps,
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<PaymentOutcome | null> {
  let event: PaymentEvent;
  try {
    event = deps.payments.parseWebhook(rawBody, headers);
  } catch (error) {
    // A SyntaxError can only come from a validly signed body that is not JSON: not a genuine event either.
    if (!(error instanceof InvalidWebhookError) && !(error instanceof SyntaxError)) throw error;
    throw new DomainError('VALIDATION_FAILED', 'The webhook could not be verified', {
      field: signatureHeaders[deps.payments.name] ?? 'signature',
    });
  }
  switch (event.type) {
    case 'ignored':
      return null;
    case 'refund.updated':
      return settleRefundsOfEvent(deps, event);
    default:
      return handlePaymentEvent(deps, event);
  }
}

/**
 * A refund's outcome changed at the processor: the pending refunds it names (or, without a name, every
 * pending refund of its intent) are asked about again and settled as the reconciler would, so a refund is
 * settled once whichever comes first. Null: nothing of ours was pending.
 */
async function settleRefundsOfEvent(deps: Deps, event: RefundEvent): Promise<PaymentOutcome | null> {
  const intent = await deps.db.payments.findIntentByReference(deps.payments.name, event.intentReference);
  if (!intent) return null;
  const named = event.refundId ? await deps.db.refunds.findRefund(event.refundId) : undefined;
  const candidates = named ? [named] : await deps.db.refunds.pendingRefunds(deps.now().toISOString());
  for (const row of candidates) {
    if (row.status !== 'pending' || row.intentReference !== intent.processorReference) continue;
    const refund = reservedRefundOf({ ...row, intentReference: intent.processorReference });
    await settleAnswer(deps, refund, await askProcessor(deps, refund));
  }
  return { intentId: intent.id, intentStatus: intent.status, changed: false, refundErrors: [] };
}

/** What the sandbox must offer to play the processor: signing events as its webhooks would be. */
export interface WebhookSigner {
  signEvent(event: Omit<IntentEvent, 'id'>): { body: string; headers: Record<string, string> };
}

/** What a browser needs to take a payment (the booking page): which processor, and Stripe's publishable key. */
export function browserPaymentSettings(processor: PaymentProcessor): { processor: string; stripePublishableKey: string | null } {
  return { processor: processor.name, stripePublishableKey: processor.browserSettings?.stripePublishableKey ?? null };
}

/** The processor as a signer of its own webhooks when it can play one (the sandbox); null otherwise. */
export function webhookSignerOf(processor: PaymentProcessor): WebhookSigner | null {
  const candidate = processor as Partial<WebhookSigner>;
  return typeof candidate.signEvent === 'function' ? (processor as PaymentProcessor & WebhookSigner) : null;
}

export interface SandboxConfirmation {
  paymentIntentStatus: IntentStatus;
  outcome: PaymentOutcome | null;
}

/**
 * Plays the processor announcing the outcome of the intent whose client secret is given (the secret is
 * the credential): the outcome is recorded as its verified event would be (handleIntentOutcome), the
 * intent found by the secret's hash in the outcome's own unit, read once. NOT_FOUND, and nothing changed,
 * when no intent of this processor has that secret.
 */
export async function confirmSandboxPayment(
  deps: Deps,
  input: { paymentIntentSecret: string; outcome: 'succeeded' | 'failed' },
): Promise<SandboxConfirmation> {
  const type = input.outcome === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed';
  const selector = { processor: deps.payments.name, secretHash: hashSecret(input.paymentIntentSecret) };
  const outcome = await handleIntentOutcome(deps, type, selector);
  if (!outcome) throw new DomainError('NOT_FOUND', 'No payment intent has this secret', { field: 'paymentIntentSecret' });
  return { paymentIntentStatus: outcome.intentStatus, outcome };
}
