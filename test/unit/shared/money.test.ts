import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromDecimal, percentOf, toDecimal, toScaledInteger } from '../../../src/domain/shared/money.ts';
import { codeAndField, domainErrorOf } from '../../support/domain-error.ts';

describe('fromDecimal', () => {
  it.each([
    [19.99, 'EUR', 1999],
    [45, 'EUR', 4500],
    [45.5, 'EUR', 4550],
    [0.1, 'EUR', 10],
    [0.07, 'EUR', 7],
    [1.1, 'EUR', 110],
    [0, 'EUR', 0],
    [-0, 'EUR', 0],
    [1234567.89, 'EUR', 123456789],
    [8000, 'JPY', 8000],
    [0, 'JPY', 0],
    [1.234, 'KWD', 1234],
    [0.001, 'KWD', 1],
    [12.5, 'KWD', 12500],
  ])('%s %s -> %s minor units', (value, currency, minor) => {
    expect(fromDecimal(value, currency, 'discountAmount')).toBe(minor);
  });

  it.each([
    [0.001, 'EUR'],
    [1.005, 'EUR'],
    [19.999, 'EUR'],
    [0.1 + 0.2, 'EUR'],
    [1e-7, 'EUR'],
    [1.5, 'JPY'],
    [0.1, 'JPY'],
    [0.0001, 'KWD'],
  ])('%s %s has too many decimals: VALIDATION_FAILED naming the field', (value, currency) => {
    const error = domainErrorOf(() => fromDecimal(value, currency, 'data.0.discountAmount'));
    expect({ code: error.code, field: error.details?.field }).toEqual({ code: 'VALIDATION_FAILED', field: 'data.0.discountAmount' });
    expect(error.message).toContain(currency);
  });

  it.each([[-1], [-0.01], [Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY], [1e21], [Number.MAX_SAFE_INTEGER]])(
    '%s is refused',
    (value) => {
      expect(codeAndField(() => fromDecimal(value, 'EUR', 'refundAmount'))).toEqual({ code: 'VALIDATION_FAILED', field: 'refundAmount' });
    },
  );

  it('round-trips every amount shown with toDecimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), fc.constantFrom('EUR', 'JPY', 'KWD', 'USD'), (minor, currency) => {
        expect(fromDecimal(toDecimal(minor, currency), currency, 'amount')).toBe(minor);
      }),
    );
  });
});

describe('toScaledInteger', () => {
  it.each([
    [12.5, 2, 1250],
    [33.33, 2, 3333],
    [100, 2, 10000],
    [1e21, 0, undefined],
    [12.345, 2, undefined],
    [-1, 2, undefined],
    [Number.NaN, 2, undefined],
  ])('%s at %s places -> %s', (value, places, scaled) => {
    expect(toScaledInteger(value, places)).toBe(scaled);
  });
});

describe('percentOf rounds half up to the minor unit', () => {
  it.each([
    [11000, 1000, 1100],
    [9900, 2300, 2277],
    [1999, 2300, 460], // 459.77
    [5, 1000, 1], // 0.5
    [15, 1000, 2], // 1.5
    [25, 1000, 3], // 2.5
    [4, 1250, 1], // 0.5
    [3, 5000, 2], // 1.5
    [1, 4999, 0], // 0.4999
    [1, 5000, 1], // 0.5
    [1, 5001, 1],
    [1234, 500, 62], // 61.7 yen
    [1172, 1000, 117], // 117.2 yen
    [0, 2300, 0],
    [12345, 0, 0],
    [12345, 10000, 12345],
    [Number.MAX_SAFE_INTEGER, 10000, Number.MAX_SAFE_INTEGER],
  ])('%s at %s bp -> %s', (minor, basisPoints, expected) => {
    expect(percentOf(minor, basisPoints)).toBe(expected);
  });

  it.each([
    [-1, 100],
    [1.5, 100],
    [100, -1],
    [100, 0.5],
  ])('refuses %s at %s bp (a programming error)', (minor, basisPoints) => {
    expect(() => percentOf(minor, basisPoints)).toThrow(RangeError);
  });
});
