/**
 * Cloudflare Turnstile's server-side check (Siteverify): POST the widget's token with the secret key and
 * the visitor's address, read `{ success, "error-codes" }`. A token is single use and lives 300 s, so a
 * refusal (`invalid-input-response`, `timeout-or-duplicate`) means the visitor must solve the challenge
 * again. Anything that is not a verdict on the token is `unavailable`: no answer within the timeout, a
 * non-2xx status, a body that is not the expected JSON (an outage page), Cloudflare's `internal-error`,
 * and a rejected secret (`missing-input-secret`, `invalid-input-secret`: our configuration, not the
 * visitor's doing).
 */
import type { HumanCheckOutcome, HumanCheckVerifier } from '../../domain/checkout/human-check.ts';

export const TURNSTILE_BASE_URL = 'https://challenges.cloudflare.com';
const SITEVERIFY_PATH = '/turnstile/v0/siteverify';

/** Error codes that say nothing about the token. */
const PROVIDER_FAULTS = new Set(['internal-error', 'missing-input-secret', 'invalid-input-secret']);

export interface TurnstileOptions {
  secretKey: string;
  /** Siteverify's origin; tests point it at a local fake. */
  baseUrl?: string;
  /** The whole call (connect, send, answer) at most. */
  timeoutMs: number;
}

interface SiteverifyAnswer {
  success?: unknown;
  'error-codes'?: unknown;
}

function verdictOf(answer: SiteverifyAnswer): HumanCheckOutcome {
  const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].filter((c): c is string => typeof c === 'string') : [];
  if (answer.success === true) return { outcome: 'passed' };
  if (answer.success !== false) return { outcome: 'unavailable', reason: 'unreadable answer' };
  const reason = codes.length > 0 ? codes.join(',') : 'refused';
  return codes.some((code) => PROVIDER_FAULTS.has(code)) ? { outcome: 'unavailable', reason } : { outcome: 'refused', reason };
}

export class TurnstileVerifier implements HumanCheckVerifier {
  readonly name = 'turnstile';
  private readonly url: string;

  constructor(private readonly options: TurnstileOptions) {
    this.url = new URL(SITEVERIFY_PATH, options.baseUrl ?? TURNSTILE_BASE_URL).toString();
  }

  async verify(token: string, remoteAddress: string | undefined): Promise<HumanCheckOutcome> {
    const body = { secret: this.options.secretKey, response: token, ...(remoteAddress ? { remoteip: remoteAddress } : {}) };
    let answer: SiteverifyAnswer;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        redirect: 'error',
        // Bounds the body's arrival too: fetch's signal aborts reading it.
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        return { outcome: 'unavailable', reason: `HTTP ${response.status}` };
      }
      answer = (await response.json()) as SiteverifyAnswer;
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError')
        return { outcome: 'unavailable', reason: `no answer within ${this.options.timeoutMs} ms` };
      if (name === 'SyntaxError') return { outcome: 'unavailable', reason: 'unreadable answer' };
      return { outcome: 'unavailable', reason: 'unreachable' };
    }
    return typeof answer === 'object' && answer !== null ? verdictOf(answer) : { outcome: 'unavailable', reason: 'unreadable answer' };
  }
}
