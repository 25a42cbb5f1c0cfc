/**
 * The human check for development and tests, as the sandbox payment processor is for payments: the
 * token `pass` passes, `fail` is refused, anything else is refused as not a sandbox token. Never in
 * production (src/config.ts refuses it there): a script would send `pass`.
 */
import type { HumanCheckOutcome, HumanCheckVerifier } from '../../domain/checkout/human-check.ts';

export const SANDBOX_HUMAN_CHECK_PASS = 'pass';

export class SandboxHumanCheck implements HumanCheckVerifier {
  readonly name = 'sandbox';

  async verify(token: string): Promise<HumanCheckOutcome> {
    if (token === SANDBOX_HUMAN_CHECK_PASS) return { outcome: 'passed' };
    return { outcome: 'refused', reason: token === 'fail' ? 'sandbox-refused' : 'not-a-sandbox-token' };
  }
}
