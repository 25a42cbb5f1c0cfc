/**
 * The one place that picks the payment processor from the configuration: Stripe when STRIPE_SECRET_KEY
 * is set, the sandbox otherwise. Nothing else imports either adapter.
 */
import type { Config } from '../config.ts';
import type { PaymentProcessor } from '../domain/payments/processor.ts';
import { SandboxProcessor } from './sandbox-processor.ts';
import { StripeProcessor } from './stripe-processor.ts';

export type PaymentConfig = Pick<
  Config,
  'PAYMENT_PROCESSOR' | 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE' | 'STRIPE_PUBLISHABLE_KEY'
>;

export function paymentProcessor(config: Partial<PaymentConfig>, now: () => Date): PaymentProcessor {
  if (config.PAYMENT_PROCESSOR !== 'stripe' || !config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) {
    return new SandboxProcessor({ now });
  }
  return new StripeProcessor({
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
    publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
    now,
  });
}
