/** The Stripe settings: which processor they pick, what they refuse, and that their secrets are never shown. */
import { describe, expect, it } from 'vitest';
import { paymentProcessor } from '../../../src/adapters/payment-processor.ts';
import { stripeHost } from '../../../src/adapters/stripe-processor.ts';
import { loadConfig } from '../../../src/config.ts';
import { scrubSecrets } from '../../../src/http/logging.ts';

const stripe = { STRIPE_SECRET_KEY: 'sk_test_51abcDEF', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
const now = () => new Date('2026-11-25T12:00:00.000Z');

describe('Stripe settings', () => {
  it('take cards through Stripe when STRIPE_SECRET_KEY is set, through the sandbox otherwise', async () => {
    const config = loadConfig({ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:12111', STRIPE_PUBLISHABLE_KEY: 'pk_test_51abc' });
    expect(config).toMatchObject({
      PAYMENT_PROCESSOR: 'stripe',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_51abc',
    });
    expect(await paymentProcessor(config, now)).toMatchObject({
      name: 'stripe',
      browserSettings: { stripePublishableKey: 'pk_test_51abc' },
    });
    const sandbox = loadConfig({});
    expect(sandbox.PAYMENT_PROCESSOR).toBe('sandbox');
    expect((await paymentProcessor(sandbox, now)).name).toBe('sandbox');
  });

  it('are enough in production without PAYMENT_PROCESSOR', () => {
    const production = { NODE_ENV: 'production', ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') };
    expect(loadConfig({ ...production, ...stripe }).PAYMENT_PROCESSOR).toBe('stripe');
  });

  it.each([
    ['a key without its webhook secret', { STRIPE_SECRET_KEY: 'sk_test_1' }, /STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY/],
    [
      'PAYMENT_PROCESSOR=stripe without a key',
      { PAYMENT_PROCESSOR: 'stripe' },
      /STRIPE_SECRET_KEY: required with PAYMENT_PROCESSOR=stripe/,
    ],
    [
      'PAYMENT_PROCESSOR=sandbox with a key',
      { ...stripe, PAYMENT_PROCESSOR: 'sandbox' },
      /PAYMENT_PROCESSOR: sandbox, while STRIPE_SECRET_KEY is set/,
    ],
    ['an API base that is not an http(s) URL', { ...stripe, STRIPE_API_BASE: 'ftp://stripe.test' }, /STRIPE_API_BASE: must be an http/],
  ])('refuse %s', (_name, env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echo a malformed secret in the error', () => {
    let message = '';
    try {
      loadConfig({ STRIPE_SECRET_KEY: 'pk_live_oops-not-a-secret', STRIPE_WEBHOOK_SECRET: 'nothook-leaked' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('STRIPE_SECRET_KEY: must be a Stripe secret or restricted key');
    expect(message).toContain('<redacted>');
    expect(message).not.toContain('oops');
    expect(message).not.toContain('leaked');
  });

  it('blank Stripe keys in any log line, restricted keys included', () => {
    expect(scrubSecrets('key sk_live_51Abc and rk_test_51Xyz, hook whsec_abc')).toBe('key [Redacted] and [Redacted], hook [Redacted]');
  });

  it('give the SDK the host, port and protocol of STRIPE_API_BASE', () => {
    expect(stripeHost('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeHost('https://api.stripe.com')).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' });
  });
});
