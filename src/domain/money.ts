/**
 * Money is integer minor units everywhere inside Tessera. The API shows decimal numbers; the
 * conversion happens here, exactly, through the currency's exponent (JPY 0, EUR 2, KWD 3).
 */
import { invalid } from './errors.ts';

const exponents = new Map<string, number>();

/** ISO 4217 minor-unit exponent of a currency, as the platform's Intl data knows it. */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    exponents.set(currency, exponent);
  }
  return exponent;
}

/** 4550 EUR minor -> 45.5; 4550 JPY -> 4550. Exact: goes through the decimal string, not division. */
export function toDecimal(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === 0) return minor;
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  return Number(`${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`);
}

const decimalPattern = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * A finite non-negative number as `units` x 10^-scale, read from its shortest decimal spelling (what
 * JSON carried), never from float products: 19.99 -> 1999 x 10^-2, 0.1 + 0.2 -> 30000000000000004 x 10^-17.
 */
function decimalOf(value: number): { units: bigint; scale: number } | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const match = decimalPattern.exec(String(value));
  if (!match) return undefined;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const scale = fraction.length - Number(exponent);
  const units = BigInt(whole + fraction);
  return scale >= 0 ? { units, scale } : { units: units * 10n ** BigInt(-scale), scale: 0 };
}

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * `value` x 10^places as an exact integer, or undefined when `value` is not finite, is negative, has
 * more than `places` decimal places or does not fit a safe integer: 12.5 at 2 places -> 1250.
 */
export function toScaledInteger(value: number, places: number): number | undefined {
  const decimal = decimalOf(value);
  if (!decimal || decimal.scale > places) return undefined;
  const scaled = decimal.units * 10n ** BigInt(places - decimal.scale);
  return scaled <= maxSafe ? Number(scaled) : undefined;
}

/**
 * A decimal amount of the API (discountAmount, refundAmount, appliedValue) as exact minor units:
 * 19.99 EUR -> 1999, 8000 JPY -> 8000. More decimals than the currency has (0.001 EUR, 1.5 JPY,
 * 0.0001 KWD), negatives, non-finite and unsafely large numbers are VALIDATION_FAILED naming `field`.
 */
export function fromDecimal(value: number, currency: string, field: string): number {
  const exponent = currencyExponent(currency);
  if (!Number.isFinite(value)) throw invalid(field, `${field} must be a finite number`);
  if (value < 0) throw invalid(field, `${field} must not be negative`);
  const decimal = decimalOf(value);
  if (!decimal || decimal.scale > exponent) {
    throw invalid(field, `${field} has more than ${exponent} decimal place(s), the precision of ${currency}`);
  }
  const minor = toScaledInteger(value, exponent);
  if (minor === undefined) throw invalid(field, `${field} is too large`);
  return minor;
}

/**
 * `basisPoints` / 10000 of `minor`, rounded half up to the minor unit (the currency's smallest unit,
 * so whole yen for JPY): 1999 at 2300 bp (23 %) = 459.77 -> 460; 1 at 5000 bp = 0.5 -> 1.
 * Both arguments are non-negative integers; BigInt keeps large products exact.
 */
export function percentOf(minor: number, basisPoints: number): number {
  if (!Number.isSafeInteger(minor) || minor < 0 || !Number.isSafeInteger(basisPoints) || basisPoints < 0) {
    throw new RangeError(`percentOf needs non-negative integers, got ${minor} and ${basisPoints}`);
  }
  return Number((BigInt(minor) * BigInt(basisPoints) + 5000n) / 10000n);
}
