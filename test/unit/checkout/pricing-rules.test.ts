import { describe, expect, it } from 'vitest';
import {
  checkParticipantCount,
  parsePercentage,
  resolveCoupon,
  resolveCredits,
  type CouponLike,
} from '../../../src/domain/checkout/pricing.ts';
import { codeAndField, domainErrorOf } from '../../support/domain-error.ts';

const now = new Date('2025-06-15T12:00:00Z');
const coupon = (overrides: Partial<CouponLike>): CouponLike => ({
  code: 'LISBON10',
  percentOffBasisPoints: 1000,
  amountOffMinor: null,
  validFrom: null,
  validUntil: null,
  active: true,
  ...overrides,
});

describe('resolveCoupon', () => {
  it.each<[string, Partial<CouponLike>, object]>([
    ['a percentage coupon', {}, { code: 'LISBON10', percentOffBasisPoints: 1000 }],
    ['an amount coupon', { percentOffBasisPoints: null, amountOffMinor: 500 }, { code: 'LISBON10', amountOffMinor: 500 }],
    ['valid from this very instant', { validFrom: '2025-06-15T12:00:00Z' }, { code: 'LISBON10', percentOffBasisPoints: 1000 }],
    ['valid until a later instant', { validUntil: '2025-06-15T12:00:01Z' }, { code: 'LISBON10', percentOffBasisPoints: 1000 }],
    ['valid until today (a day, inclusive)', { validUntil: '2025-06-15' }, { code: 'LISBON10', percentOffBasisPoints: 1000 }],
    ['valid from today (a day)', { validFrom: '2025-06-15' }, { code: 'LISBON10', percentOffBasisPoints: 1000 }],
  ])('accepts %s', (_name, overrides, resolved) => {
    expect(resolveCoupon(coupon(overrides), 'lisbon10', now, 'data.0.couponCode')).toEqual(resolved);
  });

  it.each<[string, CouponLike | undefined, string]>([
    ['unknown', undefined, 'does not exist'],
    ['inactive', coupon({ active: false }), 'is not active'],
    ['not valid yet', coupon({ validFrom: '2025-06-15T12:00:01Z' }), 'is not valid yet'],
    ['not valid yet (tomorrow)', coupon({ validFrom: '2025-06-16' }), 'is not valid yet'],
    ['expired at this instant', coupon({ validUntil: '2025-06-15T12:00:00Z' }), 'has expired'],
    ['expired yesterday', coupon({ validUntil: '2025-06-14' }), 'has expired'],
  ])('refuses a coupon that is %s: INVALID_COUPON naming the field', (_name, row, why) => {
    const error = domainErrorOf(() => resolveCoupon(row, 'lisbon10', now, 'data.0.couponCode'));
    expect([error.code, error.details?.field, error.message]).toEqual(['INVALID_COUPON', 'data.0.couponCode', `Coupon lisbon10 ${why}`]);
  });
});

describe('resolveCredits', () => {
  const rows = [
    { id: 'c1', code: 'GIFT-50', balanceMinor: 5000 },
    { id: 'c2', code: 'GOODWILL', balanceMinor: 1000 },
  ];
  const prefix = 'data.0.appliedCreditCodes';

  it('converts exactly, matches codes case-insensitively and orders by sequence', () => {
    const applied = [
      { code: 'goodwill', appliedValue: 10, sequence: 2 },
      { code: 'GIFT-50', appliedValue: 19.99, sequence: 1 },
    ];
    expect(resolveCredits(applied, rows, 'EUR', prefix)).toEqual([
      { code: 'GIFT-50', creditCodeId: 'c1', appliedMinor: 1999, sequence: 1 },
      { code: 'GOODWILL', creditCodeId: 'c2', appliedMinor: 1000, sequence: 2 },
    ]);
  });

  it('accepts the whole balance and an empty list', () => {
    expect(resolveCredits([{ code: 'GIFT-50', appliedValue: 50, sequence: 0 }], rows, 'EUR', prefix)[0]?.appliedMinor).toBe(5000);
    expect(resolveCredits([], rows, 'EUR', prefix)).toEqual([]);
  });

  it.each<[string, Array<{ code: string; appliedValue: number; sequence: number }>, string, string]>([
    ['an unknown code', [{ code: 'NOPE', appliedValue: 1, sequence: 1 }], 'INVALID_CREDIT_CODE', `${prefix}.0.code`],
    [
      'a value above the balance',
      [{ code: 'GOODWILL', appliedValue: 10.01, sequence: 1 }],
      'INVALID_CREDIT_CODE',
      `${prefix}.0.appliedValue`,
    ],
    ['too many decimals', [{ code: 'GOODWILL', appliedValue: 1.001, sequence: 1 }], 'VALIDATION_FAILED', `${prefix}.0.appliedValue`],
    ['a negative value', [{ code: 'GOODWILL', appliedValue: -1, sequence: 1 }], 'VALIDATION_FAILED', `${prefix}.0.appliedValue`],
    ['a fractional sequence', [{ code: 'GOODWILL', appliedValue: 1, sequence: 1.5 }], 'VALIDATION_FAILED', `${prefix}.0.sequence`],
    [
      'a code applied twice (any case)',
      [
        { code: 'GIFT-50', appliedValue: 1, sequence: 1 },
        { code: 'gift-50', appliedValue: 1, sequence: 2 },
      ],
      'VALIDATION_FAILED',
      `${prefix}.1.code`,
    ],
    [
      'a sequence used twice',
      [
        { code: 'GIFT-50', appliedValue: 1, sequence: 1 },
        { code: 'GOODWILL', appliedValue: 1, sequence: 1 },
      ],
      'VALIDATION_FAILED',
      `${prefix}.1.sequence`,
    ],
    [
      'a malformed entry after an unknown code (shape is checked first)',
      [
        { code: 'NOPE', appliedValue: 1, sequence: 1 },
        { code: 'GOODWILL', appliedValue: 0.001, sequence: 2 },
      ],
      'VALIDATION_FAILED',
      `${prefix}.1.appliedValue`,
    ],
  ])('refuses %s', (_name, applied, code, field) => {
    expect(codeAndField(() => resolveCredits(applied, rows, 'EUR', prefix))).toEqual({ code, field });
  });

  it('refuses a fraction of a yen', () => {
    const jpyRows = [{ id: 'j', code: 'YEN', balanceMinor: 5000 }];
    expect(resolveCredits([{ code: 'YEN', appliedValue: 5000, sequence: 1 }], jpyRows, 'JPY', prefix)[0]?.appliedMinor).toBe(5000);
    expect(codeAndField(() => resolveCredits([{ code: 'YEN', appliedValue: 0.5, sequence: 1 }], jpyRows, 'JPY', prefix))).toEqual({
      code: 'VALIDATION_FAILED',
      field: `${prefix}.0.appliedValue`,
    });
  });
});

describe('parsePercentage', () => {
  it.each([
    [0, 0],
    [10, 1000],
    [12.5, 1250],
    [33.33, 3333],
    [0.01, 1],
    [100, 10000],
  ])('%s %% -> %s bp', (value, basisPoints) => {
    expect(parsePercentage(value, 'data.0.discountPercentage')).toBe(basisPoints);
  });

  it.each([[-1], [100.01], [101], [12.345], [0.1 + 0.2], [Number.NaN], [Number.POSITIVE_INFINITY]])('refuses %s', (value) => {
    expect(codeAndField(() => parsePercentage(value, 'data.0.discountPercentage'))).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'data.0.discountPercentage',
    });
  });
});

describe('checkParticipantCount', () => {
  const field = 'data.0.participants';
  it.each<[number, { min?: number | null; max?: number | null; remaining: number }]>([
    [1, { remaining: 1 }],
    [2, { min: 2, max: 4, remaining: 10 }],
    [4, { min: 2, max: 4, remaining: 4 }],
    [30, { min: null, max: null, remaining: 30 }],
  ])('accepts %s with %o', (count, limits) => {
    expect(() => checkParticipantCount(count, limits, field)).not.toThrow();
  });

  it.each<[number, { min?: number | null; max?: number | null; remaining: number }, string]>([
    [1, { min: 2, max: 4, remaining: 10 }, 'PARTICIPANT_COUNT_OUT_OF_RANGE'],
    [5, { min: 2, max: 4, remaining: 10 }, 'PARTICIPANT_COUNT_OUT_OF_RANGE'],
    [0, { remaining: 10 }, 'PARTICIPANT_COUNT_OUT_OF_RANGE'],
    [3, { min: 1, remaining: 2 }, 'CAPACITY_EXCEEDED'],
    [1, { remaining: 0 }, 'CAPACITY_EXCEEDED'],
    [5, { max: 4, remaining: 2 }, 'PARTICIPANT_COUNT_OUT_OF_RANGE'],
  ])('refuses %s with %o: %s', (count, limits, code) => {
    expect(codeAndField(() => checkParticipantCount(count, limits, field))).toEqual({ code, field });
  });

  it('says what the bounds are', () => {
    const error = domainErrorOf(() => checkParticipantCount(5, { min: 2, max: 4, remaining: 3 }, field));
    expect([error.message, error.details]).toEqual([
      'This experience is booked by between 2 and 4 participants, not 5',
      { field, count: 5, min: 2, max: 4 },
    ]);
    const full = domainErrorOf(() => checkParticipantCount(3, { remaining: 2 }, field));
    expect([full.message, full.details]).toEqual(['Only 2 places are left on this session, not 3', { field, count: 3, remaining: 2 }]);
  });
});
