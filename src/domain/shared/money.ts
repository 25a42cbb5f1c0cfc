/**
 * Money is integer minor units everywhere inside Tessera. The API shows decimal numbers; the
 * conversion happens here, exactly, through the currency's exponent (JPY 0, EUR 2, KWD 3).
 */
import { invalid } from './errors.ts';

/**
 * ISO 4217 currencies whose minor unit is not 1/100. Pinned here rather than read from Intl: the
 * platform's CLDR data gives display digits, which differ from ISO for some currencies (HUF, COP, IDR,
 * IQD show 0 decimals) and may change with the ICU version, and stored minor units must keep their
 * meaning (a processor charging HUF reads 100000 as 1000.00).
 */
const isoExponents: Readonly<Record<string, number>> = {
  ...Object.fromEntries('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0])),
  ...Object.fromEntries('BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3])),
  CLF: 4,
  UYW: 4,
};

/** ISO 4217 minor-unit exponent of a currency: JPY 0, EUR 2, KWD 3. RangeError for a malformed code. */
export function currencyExponent(currency: string): number {
  const code = currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw new RangeError(`Not an ISO 4217 currency code: ${currency}`);
  return isoExponents[code] ?? 2;
}

/**
 * The largest amount, in minor units, that Tessera accepts: 15 digits, what a JSON number (a double)
 * always carries exactly, so every accepted amount is shown back unchanged (10^15 - 1 EUR minor units is
 * 9999999999999.99; a 16-digit amount such as 90071992547409.91 has no exact double).
 */
export const MAX_AMOUNT_MINOR = 999_999_999_999_999;

/**
 * 4550 EUR minor -> 45.5; 4550 JPY -> 4550. Exact (through the decimal string, not division) for
 * amounts up to MAX_AMOUNT_MINOR, and for every safe integer in a currency without decimals.
 */
export function toDecimal(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  // `+ 0` turns a negative zero into zero.
  if (exponent === 0) return minor + 0;
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
 * 0.0001 KWD), negatives, non-finite numbers and amounts above MAX_AMOUNT_MINOR are VALIDATION_FAILED
 * naming `field`.
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
  if (minor === undefined || minor > MAX_AMOUNT_MINOR) throw invalid(field, `${field} is too large`);
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
