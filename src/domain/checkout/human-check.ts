/**
 * The human check: a brand may ask that what a browser holds with its publishable key (a checkout's
 * places, a waitlist entry) be asked for by a person, not a script hoarding places (issue 27, OWASP
 * OAT-021 "denial of inventory"). The page runs a challenge widget (Cloudflare Turnstile) and sends
 * its token with the request; the verifier, a port implemented in src/adapters/human-check/, asks the
 * provider whether the token is genuine. Secret keys (partners' servers) are never asked, nor are
 * brands without the flag, nor quotes (they hold nothing).
 *
 * A provider that cannot answer (down, slow, misconfigured) fails the request closed, with its own code
 * (HUMAN_CHECK_UNAVAILABLE, 502) rather than HUMAN_CHECK_FAILED: the visitor did nothing wrong and may
 * retry, and the operator sees the outage in `errors_total`. Nothing was held either way.
 */
import { HUMAN_CHECK_FLAG } from '../catalog/features.ts';
import type { Principal } from '../access/principal.ts';
import { DomainError } from '../shared/errors.ts';

/** Where browsers send the token, on both faces. */
export const HUMAN_CHECK_HEADER = 'Tessera-Human-Check';

/** The longest token taken (Turnstile's are at most 2048 characters); a longer one is refused unasked. */
export const MAX_HUMAN_CHECK_TOKEN_LENGTH = 2048;

export type HumanCheckOutcome =
  | { outcome: 'passed' }
  /** The token is not genuine, expired or already used; `reason` is the provider's, for logs and the client. */
  | { outcome: 'refused'; reason: string }
  /** The provider gave no verdict (unreachable, too slow, an error of its own or of our configuration). */
  | { outcome: 'unavailable'; reason: string };

/** The port to a human-check provider. */
export interface HumanCheckVerifier {
  /** `turnstile`, `sandbox`: named in refusals' details. */
  readonly name: string;
  /** Asks the provider about `token`, a browser's answer to the challenge, sent from `remoteAddress`. Never throws. */
  verify(token: string, remoteAddress: string | undefined): Promise<HumanCheckOutcome>;
}

/** What the request carries for the check: the client's address and the token it sent, if any. */
export interface HumanCheckRequest {
  remoteAddress?: string;
  token?: string;
}

/** What the check reads of a domain function's deps (CallerDeps has it all). */
export interface HumanCheckDeps {
  principal: Principal;
  humanCheck?: HumanCheckVerifier;
  humanCheckRequest?: HumanCheckRequest;
}

interface Brand {
  id: string;
  featuresActive: readonly string[];
}

/** Whether `deps`' caller must pass a human check to hold places or a waitlist entry of `brand`. */
export function humanCheckRequired(deps: Pick<HumanCheckDeps, 'principal'>, brand: Brand): boolean {
  return deps.principal.kind === 'publishable' && brand.featuresActive.includes(HUMAN_CHECK_FLAG);
}

/**
 * Throws HUMAN_CHECK_FAILED (no token, or one the provider refuses) or HUMAN_CHECK_UNAVAILABLE (no
 * verdict) when the caller must pass the check; returns when it passed or need not. Call it outside any
 * unit of work (it awaits the provider), just before the places are held.
 */
export async function requireHumanCheck(deps: HumanCheckDeps, brand: Brand, what: string): Promise<void> {
  if (!humanCheckRequired(deps, brand)) return;
  const token = deps.humanCheckRequest?.token;
  const failed = (reason: string, message: string) => new DomainError('HUMAN_CHECK_FAILED', message, { field: HUMAN_CHECK_HEADER, reason });
  if (!token) {
    throw failed(
      'missing',
      `${what} with a publishable key of brand ${brand.id} needs a human check: send the challenge's token in the ${HUMAN_CHECK_HEADER} header`,
    );
  }
  if (token.length > MAX_HUMAN_CHECK_TOKEN_LENGTH) {
    throw failed('too-long', `The ${HUMAN_CHECK_HEADER} token is over ${MAX_HUMAN_CHECK_TOKEN_LENGTH} characters`);
  }
  const verdict = deps.humanCheck
    ? await deps.humanCheck.verify(token, deps.humanCheckRequest?.remoteAddress)
    : ({ outcome: 'unavailable', reason: 'no verifier configured' } as const);
  if (verdict.outcome === 'passed') return;
  if (verdict.outcome === 'refused') {
    throw failed(verdict.reason, `The human check refused the ${HUMAN_CHECK_HEADER} token (${verdict.reason}): solve the challenge again`);
  }
  throw new DomainError(
    'HUMAN_CHECK_UNAVAILABLE',
    `The human check could not be verified now (${verdict.reason}); nothing was held, try again`,
    {
      reason: verdict.reason,
    },
  );
}
