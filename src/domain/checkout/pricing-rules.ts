/**
 * Checks of a cart item's pricing inputs, turning what the client sent into the validated values that
 * `priceItem` takes. Pure: the caller loads the rows (coupon, credit codes, experience, session).
 */
import { DomainError, invalid } from '../shared/errors.ts';
import { fromDecimal, toScaledInteger } from '../shared/money.ts';
import type { ResolvedCoupon, ResolvedCredit } from './pricing.ts';

/** The coupon columns the rules read (a `coupons` row fits). */
export interface CouponLike {
  code: string;
  percentOffBasisPoints: number | null;
  amountOffMinor: number | null;
  /** ISO 8601 instant or `YYYY-MM-DD` (a UTC day); null = no start. */
  validFrom: string | null;
  /** ISO 8601 instant (exclusive) or `YYYY-MM-DD` (valid through that UTC day); null = no end. */
  validUntil: string | null;
  active: boolean;
}

/** The credit code columns the rules read (a `credit_codes` row fits). */
export interface CreditCodeLike {
  id: string;
  code: string;
  balanceMinor: number;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const dayMs = 24 * 60 * 60 * 1000;

function instant(value: string, endOfDay: boolean): number {
  const ms = Date.parse(dayPattern.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new RangeError(`Unreadable coupon validity ${value}`);
  return endOfDay && dayPattern.test(value) ? ms + dayMs : ms;
}

/**
 * The brand's coupon for `code` (looked up case-insensitively by the caller) as a discount, or
 * INVALID_COUPON naming `field` when it is unknown, inactive, not valid yet or expired at `now`.
 */
export function resolveCoupon(coupon: CouponLike | undefined, code: string, now: Date, field: string): ResolvedCoupon {
  const refuse = (why: string) => new DomainError('INVALID_COUPON', `Coupon ${code} ${why}`, { field, code });
  if (!coupon) throw refuse('does not exist');
  if (!coupon.active) throw refuse('is not active');
  const at = now.getTime();
  if (coupon.validFrom !== null && at < instant(coupon.validFrom, false)) throw refuse('is not valid yet');
  if (coupon.validUntil !== null && at >= instant(coupon.validUntil, true)) throw refuse('has expired');
  if (coupon.percentOffBasisPoints !== null) return { code: coupon.code, percentOffBasisPoints: coupon.percentOffBasisPoints };
  if (coupon.amountOffMinor !== null) return { code: coupon.code, amountOffMinor: coupon.amountOffMinor };
  throw new RangeError(`Coupon ${coupon.code} has neither a percentage nor an amount`);
}

/** A credit code as the client applies it: `appliedValue` is a decimal in the brand's currency. */
export interface AppliedCreditInput {
  code: string;
  appliedValue: number;
  sequence: number;
}

const normalCode = (code: string) => code.trim().toUpperCase();

/** Malformed entries (VALIDATION_FAILED): bad amounts or sequences, a code or sequence given twice. */
function checkShape(applied: readonly AppliedCreditInput[], currency: string, fieldPrefix: string): number[] {
  const codes = new Set<string>();
  const sequences = new Set<number>();
  return applied.map((entry, index) => {
    const field = `${fieldPrefix}.${index}`;
    const minor = fromDecimal(entry.appliedValue, currency, `${field}.appliedValue`);
    if (!Number.isSafeInteger(entry.sequence)) throw invalid(`${field}.sequence`, `${field}.sequence must be an integer`);
    if (codes.has(normalCode(entry.code))) throw invalid(`${field}.code`, `Credit code ${entry.code} is applied twice`);
    if (sequences.has(entry.sequence)) throw invalid(`${field}.sequence`, `Sequence ${entry.sequence} is used twice`);
    codes.add(normalCode(entry.code));
    sequences.add(entry.sequence);
    return minor;
  });
}

/**
 * The applied credit codes checked against the brand's `rows` (matched case-insensitively), in
 * `sequence` order. Malformed entries are VALIDATION_FAILED; an unknown code or an `appliedValue` above
 * the code's balance is INVALID_CREDIT_CODE, naming `${fieldPrefix}.<index>.code` / `.appliedValue`.
 * A code used by several items of one cart: pass rows whose balance already lacks the earlier items' use.
 */
export function resolveCredits(
  applied: readonly AppliedCreditInput[],
  rows: readonly CreditCodeLike[],
  currency: string,
  fieldPrefix: string,
): ResolvedCredit[] {
  const amounts = checkShape(applied, currency, fieldPrefix);
  const byCode = new Map(rows.map((row) => [normalCode(row.code), row]));
  const resolved = applied.map((entry, index) => {
    const field = `${fieldPrefix}.${index}`;
    const row = byCode.get(normalCode(entry.code));
    if (!row)
      throw new DomainError('INVALID_CREDIT_CODE', `Credit code ${entry.code} does not exist`, {
        field: `${field}.code`,
        code: entry.code,
      });
    const appliedMinor = amounts[index] as number;
    if (appliedMinor > row.balanceMinor) {
      throw new DomainError('INVALID_CREDIT_CODE', `Credit code ${entry.code}: applied value exceeds balance`, {
        field: `${field}.appliedValue`,
        code: entry.code,
      });
    }
    return { code: row.code, creditCodeId: row.id, appliedMinor, sequence: entry.sequence };
  });
  return resolved.sort((a, b) => a.sequence - b.sequence);
}

/** A percentage 0..100 with at most 2 decimals (12.5, 33.33) as basis points (1250, 3333). */
export function parsePercentage(value: number, field: string): number {
  const basisPoints = toScaledInteger(value, 2);
  if (basisPoints === undefined || basisPoints > 10_000) {
    throw invalid(field, `${field} must be a number from 0 to 100 with at most 2 decimals`);
  }
  return basisPoints;
}

export interface ParticipantLimits {
  /** The experience's `minimumRequiredToBook`; null = 1. */
  min?: number | null | undefined;
  /** The experience's `maximumAllowedToBook`; null = no limit. */
  max?: number | null | undefined;
  /** Places left on the session. */
  remaining: number;
}

/**
 * An item's participant count against the experience's bounds (PARTICIPANT_COUNT_OUT_OF_RANGE) and
 * then the session's remaining places (CAPACITY_EXCEEDED), both naming `field`.
 */
export function checkParticipantCount(count: number, limits: ParticipantLimits, field: string): void {
  const min = Math.max(1, limits.min ?? 1);
  const max = limits.max ?? null;
  if (count < min || (max !== null && count > max)) {
    const range = max === null ? `at least ${min}` : `between ${min} and ${max}`;
    throw new DomainError('PARTICIPANT_COUNT_OUT_OF_RANGE', `This experience is booked by ${range} participants, not ${count}`, {
      field,
      count,
      min,
      max,
    });
  }
  if (count > limits.remaining) {
    throw new DomainError('CAPACITY_EXCEEDED', `Only ${Math.max(0, limits.remaining)} places are left on this session, not ${count}`, {
      field,
      count,
      remaining: Math.max(0, limits.remaining),
    });
  }
}
