/**
 * Money properties (fast-check): exact decimal conversion in zero-, two- and three-decimal currencies,
 * refusal of over-precise inputs, half-up rounding against an exact rational reference, and a whole
 * checkout charging the processor exactly what the README's pricing rules add up to. Arithmetic
 * invariants of `priceItem` alone live in pricing-properties.test.ts.
 *
 * Reproduce a failure with the seed and path fast-check prints: FC_SEED=<seed> FC_PATH=<path> npx vitest run <this file>.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/shared/errors.ts';
import { currencyExponent, fromDecimal, MAX_AMOUNT_MINOR, percentOf, toDecimal } from '../../../src/domain/shared/money.ts';
import { freshDb, testEngine } from '../../support/db.ts';
import { checkoutProperty } from '../../support/money-checkout.ts';

const params = { ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) };
const byExponent = { 0: ['JPY', 'KRW', 'CLP', 'VND'], 2: ['EUR', 'USD'], 3: ['KWD', 'BHD'] } as const;
const currencies = [...byExponent[0], ...byExponent[2], ...byExponent[3]];
const currency = fc.constantFrom(...currencies);
const amount = fc.integer({ min: 0, max: MAX_AMOUNT_MINOR });

/** `value` x 10^exponent read exactly from the number's own spelling (what JSON would carry). */
function scaled(value: number, exponent: number): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(value));
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > exponent) return null;
  return BigInt(whole + fraction.padEnd(exponent, '0'));
}

describe('currency exponents', () => {
  it.each(Object.entries(byExponent))('exponent %s: %j', (exponent, codes) => {
    for (const code of codes) expect(currencyExponent(code)).toBe(Number(exponent));
  });

  it('follows ISO 4217 where display data differs (HUF and COP 2 decimals, IQD 3)', () => {
    expect([currencyExponent('HUF'), currencyExponent('COP'), currencyExponent('IQD')]).toEqual([2, 2, 3]);
  });
});

describe('toDecimal / fromDecimal', () => {
  it('round-trip exactly for every amount up to MAX_AMOUNT_MINOR in every currency', () => {
    fc.assert(
      fc.property(amount, currency, (minor, code) => {
        const shown = toDecimal(minor, code);
        expect(scaled(shown, currencyExponent(code))).toBe(BigInt(minor));
        expect(fromDecimal(shown, code, 'amount')).toBe(minor);
      }),
      params,
    );
  });

  it('zero-decimal currencies show every safe integer as itself', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.constantFrom(...byExponent[0]), (minor, code) => {
        expect(toDecimal(minor, code)).toBe(minor);
      }),
      params,
    );
  });

  it('negative amounts mirror positive ones', () => {
    fc.assert(
      fc.property(amount, currency, (minor, code) => {
        expect(toDecimal(-minor, code)).toBe(minor === 0 ? 0 : -toDecimal(minor, code)); // -0 shows as 0
      }),
      params,
    );
  });

  it('refuse every value with more decimals than the currency has (VALIDATION_FAILED naming the field)', () => {
    const overPrecise = fc.record({
      minor: fc.integer({ min: 0, max: 99_999_999 }),
      code: currency,
      extra: fc.integer({ min: 1, max: 3 }),
      tail: fc.integer({ min: 1, max: 999 }),
    });
    fc.assert(
      fc.property(overPrecise, ({ minor, code, extra, tail }) => {
        const exponent = currencyExponent(code);
        const cut = tail % 10 ** extra;
        const extraDigits = cut % 10 === 0 ? cut + 1 : cut; // 1 to 10^extra - 1, ending in a non-zero digit
        const units = BigInt(minor) * 10n ** BigInt(extra) + BigInt(extraDigits);
        const places = exponent + extra;
        const digits = units.toString().padStart(places + 1, '0');
        const value = Number(`${digits.slice(0, -places)}.${digits.slice(-places)}`);
        const error = (() => {
          try {
            fromDecimal(value, code, 'bookings.0.refundAmount');
          } catch (thrown) {
            return thrown;
          }
          return null;
        })();
        expect(error).toBeInstanceOf(DomainError);
        expect({ code: (error as DomainError).code, field: (error as DomainError).details?.field }).toEqual({
          code: 'VALIDATION_FAILED',
          field: 'bookings.0.refundAmount',
        });
      }),
      params,
    );
  });

  it('never round any number: an accepted value is shown back exactly, anything else is VALIDATION_FAILED', () => {
    const anyNumber = fc.oneof(
      fc.double(),
      fc.double({ min: 0, max: 1e16 }),
      amount.map((m) => m / 1000),
      amount.map((m) => m / 7),
    );
    fc.assert(
      fc.property(anyNumber, currency, (value, code) => {
        let minor: number;
        try {
          minor = fromDecimal(value, code, 'discountAmount');
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe('VALIDATION_FAILED');
          // Refused only when it is not an exact, non-negative amount of at most MAX_AMOUNT_MINOR.
          const exact = Number.isFinite(value) && value >= 0 ? scaled(value, currencyExponent(code)) : null;
          expect(exact === null || exact > BigInt(MAX_AMOUNT_MINOR)).toBe(true);
          return;
        }
        expect(Number.isSafeInteger(minor) && minor >= 0 && minor <= MAX_AMOUNT_MINOR).toBe(true);
        expect(toDecimal(minor, code)).toBe(value === 0 ? 0 : value);
      }),
      params,
    );
  });
});

describe('percentOf', () => {
  /** Half-up rounding of minor x bp / 10000 as an exact fraction: the quotient, plus one when the remainder is at least half. */
  const reference = (minor: number, bp: number) => {
    const product = BigInt(minor) * BigInt(bp);
    const quotient = product / 10_000n;
    const remainder = product % 10_000n;
    return Number(2n * remainder >= 10_000n ? quotient + 1n : quotient);
  };

  // minor x bp is exactly half-way (remainder 5000 of 10000) when bp = 5000 and minor is odd, or bp = 2500 and minor = 2 mod 4, ...
  const tie = fc.oneof(
    fc.nat(1e12).map((k) => [2 * k + 1, 5000] as const),
    fc.nat(1e12).map((k) => [4 * k + 2, 2500] as const),
    fc.nat(1e12).map((k) => [8 * k + 4, 1250] as const),
    fc.nat(1e11).map((k) => [20 * k + 10, 500] as const),
  );
  const anyRate = fc.tuple(fc.oneof(fc.maxSafeNat(), fc.nat(1_000_000)), fc.integer({ min: 0, max: 10_000 }));

  it('rounds half up exactly like the rational reference, for every amount and rate up to 100 %', () => {
    fc.assert(
      fc.property(fc.oneof(anyRate, tie), ([minor, bp]) => {
        expect(percentOf(minor, bp)).toBe(reference(minor, bp));
      }),
      params,
    );
  });

  it('rounds exact halves up (ties are generated on purpose)', () => {
    fc.assert(
      fc.property(tie, ([minor, bp]) => {
        const exactTimesTwo = (BigInt(minor) * BigInt(bp) * 2n) / 10_000n;
        expect(exactTimesTwo % 2n).toBe(1n); // really a tie
        expect(percentOf(minor, bp)).toBe(Number((exactTimesTwo + 1n) / 2n));
      }),
      params,
    );
  });

  it('stays within half a minor unit of the exact value and never decreases as the amount grows', () => {
    fc.assert(
      fc.property(fc.nat(1e12), fc.nat(1e6), fc.integer({ min: 0, max: 10_000 }), (minor, more, bp) => {
        const result = percentOf(minor, bp);
        const error = BigInt(result) * 10_000n - BigInt(minor) * BigInt(bp); // in 1/10000 of a minor unit
        expect(error >= -5000n && error <= 5000n).toBe(true);
        expect(percentOf(minor + more, bp)).toBeGreaterThanOrEqual(result);
      }),
      params,
    );
  });
});

/**
 * 40 checkouts a currency kind, each seeding its brand, experiences and codes first: on PostgreSQL every
 * write is a round trip, and a kind took 22-26 s there (6-9 s on SQLite).
 */
const checkoutTimeout = testEngine === 'postgresql' ? 60_000 : 20_000;

describe('checkout charges what the items add up to', { timeout: checkoutTimeout }, async () => {
  // One database for every run: each run checks out with a brand of its own.
  const db = await freshDb();
  // No function splits an amount across items or participants (refunds are single amounts, taxes are
  // per item), so the allocation to check is the cart: the processor is charged the sum of the items'
  // totals, each item priced by the README's rules, in every kind of currency.
  it.each([
    ['zero-decimal', byExponent[0]],
    ['2-decimal', byExponent[2]],
    ['3-decimal', byExponent[3]],
  ] as const)('%s currencies', async (_, codes) => {
    await fc.assert(checkoutProperty(db, fc.constantFrom(...codes)), { numRuns: 40, ...params });
  });
});
