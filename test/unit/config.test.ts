import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      PORT: 4000,
      HOST: '127.0.0.1',
      DATABASE_URL: './data/tessera.sqlite',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      HOLD_TTL_SECONDS: 900,
      WAITLIST_OFFER_TTL_SECONDS: 86_400,
      PAYMENT_PROCESSOR: 'sandbox',
      production: false,
    });
  });

  it('treats an empty variable as unset and production as production', () => {
    expect(loadConfig({ PORT: '', NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', DATABASE_URL: ':memory:' })).toMatchObject({
      PORT: 4000,
      production: true,
      DATABASE_URL: ':memory:',
    });
  });

  it('refuses production without an explicit payment processor, so simulated payments are never a silent default', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PAYMENT_PROCESSOR: required in production/);
  });

  it('names every bad variable and its value', () => {
    expect(() => loadConfig({ PORT: '99999', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: '99999', LOG_LEVEL: 'loud' });
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid configuration:\n  PORT: .* \(got "99999"\)\n  LOG_LEVEL: .* \(got "loud"\)$/);
    }
  });
});
