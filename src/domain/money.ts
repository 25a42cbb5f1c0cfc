/**
 * Money is integer minor units everywhere inside Tessera. The API shows decimal numbers; the
 * conversion happens here, exactly, through the currency's exponent (JPY 0, EUR 2, KWD 3).
 */
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
