import type { Config } from '../../config.ts';
import type { HumanCheckVerifier } from '../../domain/checkout/human-check.ts';
import { SandboxHumanCheck } from './sandbox.ts';
import { TurnstileVerifier } from './turnstile.ts';

export const humanCheckDefaults = { timeoutMs: 5_000 } as const;

export type HumanCheckConfig = Partial<Pick<Config, 'HUMAN_CHECK_PROVIDER' | 'TURNSTILE_SECRET_KEY' | 'HUMAN_CHECK_TIMEOUT_MS'>> &
  Pick<Config, 'production'>;

/**
 * The verifier the configuration names (src/config.ts checks the combination): Turnstile, the sandbox,
 * or none (production without HUMAN_CHECK_PROVIDER), where a brand asking for the check gets
 * HUMAN_CHECK_UNAVAILABLE rather than an unchecked checkout.
 */
export function humanCheckVerifier(config: HumanCheckConfig): HumanCheckVerifier | undefined {
  const provider = config.HUMAN_CHECK_PROVIDER ?? (config.production ? undefined : 'sandbox');
  if (provider === 'sandbox') return new SandboxHumanCheck();
  if (provider === 'turnstile' && config.TURNSTILE_SECRET_KEY) {
    return new TurnstileVerifier({
      secretKey: config.TURNSTILE_SECRET_KEY,
      timeoutMs: config.HUMAN_CHECK_TIMEOUT_MS ?? humanCheckDefaults.timeoutMs,
    });
  }
  return undefined;
}
