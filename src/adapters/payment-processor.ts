/**
 * The one place that picks the payment processor from the configuration: Stripe when STRIPE_SECRET_KEY
 * is set, the sandbox otherwise. Nothing else imports either adapter. Stripe's SDK is loaded only when
 * Stripe is picked: a gateway on the sandbox (the demo, the tests) does not carry it.
 */
import type { Config } from '../config.ts';
import type { PaymentProcessor } from '../domain/payments/processor.ts';
import { SandboxProcessor } from './sandbox-processor.ts';

export type PaymentConfig = Pick<
  Config,
  'PAYMENT_PROCESSOR' | 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE' | 'STRIPE_PUBLISHABLE_KEY'
>;

export async function paymentProcessor(config: Partial<PaymentConfig>, now: () => Date): Promise<PaymentProcessor> {
  if (config.PAYMENT_PROCESSOR !== 'stripe' || !config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) {
    return new SandboxProcessor({ now });
  }
  const { StripeProcessor } = await import('./stripe-processor.ts');
  return new StripeProcessor({
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
    publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
    now,
  });
}
