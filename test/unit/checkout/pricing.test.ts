import { describe, expect, it } from 'vitest';
import { toDecimal } from '../../../src/domain/shared/money.ts';
import { creditRedemptions, priceItem, sumTotals, type PriceItemInput } from '../../../src/domain/checkout/pricing.ts';

const vat = { name: 'VAT', rateBasisPoints: 2300 };
const base = (overrides: Partial<PriceItemInput>): PriceItemInput => ({
  currency: 'EUR',
  tierPricesMinor: [],
  addOns: [],
  taxes: [],
  ...overrides,
});
const credit = (code: string, appliedMinor: number, sequence: number) => ({ code, creditCodeId: `id-${code}`, appliedMinor, sequence });

describe('priceItem worked examples', () => {
  it('EUR: 2 adults at 45.00 + 1 child at 20.00, 10 % off, 23 % VAT = 121.77', () => {
    const breakdown = priceItem(base({ tierPricesMinor: [4500, 4500, 2000], discountPercentBasisPoints: 1000, taxes: [vat] }));
    expect(breakdown).toEqual({
      tiersMinor: 11000,
      addOns: [],
      subtotalMinor: 11000,
      discounts: [{ kind: 'percentage', amountMinor: 1100 }],
      netMinor: 9900,
      taxes: [{ name: 'VAT', rateBasisPoints: 2300, amountMinor: 2277 }],
      totalMinor: 12177,
    });
    expect(toDecimal(breakdown.totalMinor, 'EUR')).toBe(121.77);
  });

  it('EUR: every kind of discount in order, VAT rounded half up (2012.5 -> 2013 cents)', () => {
    const breakdown = priceItem(
      base({
        tierPricesMinor: [4500, 4500, 2000],
        addOns: [{ addOnId: 'a1', name: 'Photos', unitPriceMinor: 750, quantity: 2 }],
        discountPercentBasisPoints: 1000,
        coupon: { code: 'LISBON5', amountOffMinor: 500 },
        discountAmountMinor: 300,
        credits: [credit('GIFT-B', 1000, 2), credit('GIFT-A', 700, 1)],
        taxes: [vat],
      }),
    );
    expect(breakdown.addOns).toEqual([{ addOnId: 'a1', name: 'Photos', quantity: 2, unitPriceMinor: 750, totalMinor: 1500 }]);
    expect(breakdown.subtotalMinor).toBe(12500);
    // 12500 -10 % 1250 -> 11250 -300 -> 10950 -coupon 500 -> 10450 -GIFT-A 700 -> 9750 -GIFT-B 1000 -> 8750
    expect(breakdown.discounts).toEqual([
      { kind: 'percentage', amountMinor: 1250 },
      { kind: 'amount', amountMinor: 300 },
      { kind: 'coupon', code: 'LISBON5', amountMinor: 500 },
      { kind: 'credit', code: 'GIFT-A', amountMinor: 700 },
      { kind: 'credit', code: 'GIFT-B', amountMinor: 1000 },
    ]);
    expect(breakdown.netMinor).toBe(8750);
    expect(breakdown.taxes).toEqual([{ name: 'VAT', rateBasisPoints: 2300, amountMinor: 2013 }]);
    expect(breakdown.totalMinor).toBe(10763);
  });

  it('EUR: the item percentage applies before a percentage coupon, each on the running amount', () => {
    const breakdown = priceItem(
      base({ tierPricesMinor: [10000], discountPercentBasisPoints: 1000, coupon: { code: 'P20', percentOffBasisPoints: 2000 } }),
    );
    expect(breakdown.discounts).toEqual([
      { kind: 'percentage', amountMinor: 1000 },
      { kind: 'coupon', code: 'P20', amountMinor: 1800 },
    ]);
    expect(breakdown.totalMinor).toBe(7200);
  });

  it('JPY: 3 x ¥8000, 5 % off, 10 % tax = ¥25080', () => {
    const breakdown = priceItem({
      currency: 'JPY',
      tierPricesMinor: [8000, 8000, 8000],
      addOns: [],
      discountPercentBasisPoints: 500,
      taxes: [{ name: 'Consumption tax', rateBasisPoints: 1000 }],
    });
    expect(breakdown).toMatchObject({ subtotalMinor: 24000, discounts: [{ kind: 'percentage', amountMinor: 1200 }], netMinor: 22800 });
    expect(breakdown.taxes[0]?.amountMinor).toBe(2280);
    expect(toDecimal(breakdown.totalMinor, 'JPY')).toBe(25080);
  });

  it('JPY rounds to whole yen: ¥1234, 5 % off (61.7 -> 62), 10 % tax (117.2 -> 117) = ¥1289', () => {
    const breakdown = priceItem({
      currency: 'JPY',
      tierPricesMinor: [1234],
      addOns: [],
      discountPercentBasisPoints: 500,
      taxes: [{ name: 'Consumption tax', rateBasisPoints: 1000 }],
    });
    expect([breakdown.discounts[0]?.amountMinor, breakdown.netMinor, breakdown.taxes[0]?.amountMinor, breakdown.totalMinor]).toEqual([
      62, 1172, 117, 1289,
    ]);
  });

  it('each tax is computed and rounded on its own: 2 x 5 % of 0.10 = 0.01 + 0.01', () => {
    const breakdown = priceItem(
      base({
        tierPricesMinor: [10],
        taxes: [
          { name: 'A', rateBasisPoints: 500 },
          { name: 'B', rateBasisPoints: 500 },
        ],
      }),
    );
    expect(breakdown.taxes.map((tax) => tax.amountMinor)).toEqual([1, 1]);
    expect(breakdown.totalMinor).toBe(12);
  });
});

describe('priceItem rounds percentages half up at .5', () => {
  it.each([
    [5, 1000, 1, 4], // 0.5 off -> 1
    [15, 1000, 2, 13], // 1.5 -> 2
    [25, 1000, 3, 22], // 2.5 -> 3
    [14, 1000, 1, 13], // 1.4 -> 1
    [455, 1000, 46, 409], // 45.5 -> 46
  ])('%s minor at %s bp: discount %s, net %s', (price, basisPoints, discount, net) => {
    const breakdown = priceItem(base({ tierPricesMinor: [price], discountPercentBasisPoints: basisPoints }));
    expect([breakdown.discounts[0]?.amountMinor, breakdown.netMinor]).toEqual([discount, net]);
  });

  it.each([
    [50, 1000, 5], // 5.0
    [45, 1000, 5], // 4.5 -> 5
    [44, 1000, 4], // 4.4 -> 4
    [2174, 2300, 500], // 500.02 -> 500
    [2176, 2300, 500], // 500.48 -> 500
    [2172, 2300, 500], // 499.56 -> 500
  ])('tax on net %s at %s bp = %s', (net, rate, tax) => {
    expect(priceItem(base({ tierPricesMinor: [net], taxes: [{ name: 'T', rateBasisPoints: rate }] })).taxes[0]?.amountMinor).toBe(tax);
  });
});

describe('priceItem caps every discount at what is left', () => {
  it.each<[string, Partial<PriceItemInput>, Array<[string, number]>, number]>([
    ['a 100 % discount takes everything', { discountPercentBasisPoints: 10000 }, [['percentage', 5000]], 0],
    [
      'a percentage coupon above 100 % takes only what is left',
      { coupon: { code: 'X', percentOffBasisPoints: 15000 } },
      [['coupon', 5000]],
      0,
    ],
    ['a fixed discount above the subtotal', { discountAmountMinor: 9999 }, [['amount', 5000]], 0],
    ['an amount coupon above the subtotal', { coupon: { code: 'X', amountOffMinor: 6000 } }, [['coupon', 5000]], 0],
    [
      'an amount coupon after a discount that took everything',
      { discountAmountMinor: 5000, coupon: { code: 'X', amountOffMinor: 100 } },
      [
        ['amount', 5000],
        ['coupon', 0],
      ],
      0,
    ],
    [
      'a fixed discount after 100 % off',
      { discountPercentBasisPoints: 10000, discountAmountMinor: 100 },
      [
        ['percentage', 5000],
        ['amount', 0],
      ],
      0,
    ],
    [
      'credits beyond the net: the first takes the rest, the next nothing',
      { credits: [credit('A', 4000, 1), credit('B', 3000, 2)] },
      [
        ['credit', 4000],
        ['credit', 1000],
      ],
      0,
    ],
    [
      'credits after a partial discount',
      { discountAmountMinor: 4500, credits: [credit('A', 400, 1), credit('B', 300, 2)] },
      [
        ['amount', 4500],
        ['credit', 400],
        ['credit', 100],
      ],
      0,
    ],
    ['a 0 % discount is recorded as 0', { discountPercentBasisPoints: 0 }, [['percentage', 0]], 5000],
  ])('%s', (_name, discounts, applied, net) => {
    const breakdown = priceItem(base({ tierPricesMinor: [5000], taxes: [vat], ...discounts }));
    expect(breakdown.discounts.map((d) => [d.kind, d.amountMinor])).toEqual(applied);
    expect(breakdown.netMinor).toBe(net);
    expect(breakdown.totalMinor).toBe(net === 0 ? 0 : 6150);
  });

  it('a free item (all discounted) pays no tax', () => {
    const breakdown = priceItem(base({ tierPricesMinor: [5000], discountAmountMinor: 5000, taxes: [vat] }));
    expect([breakdown.netMinor, breakdown.taxes[0]?.amountMinor, breakdown.totalMinor]).toEqual([0, 0, 0]);
  });

  it('refuses non-integer or negative amounts (programming errors, not input)', () => {
    expect(() => priceItem(base({ tierPricesMinor: [45.5] }))).toThrow(RangeError);
    expect(() => priceItem(base({ tierPricesMinor: [100], discountAmountMinor: -1 }))).toThrow(RangeError);
    expect(() => priceItem(base({ addOns: [{ addOnId: 'a', name: 'A', unitPriceMinor: 100, quantity: -2 }] }))).toThrow(RangeError);
  });
});

describe('sumTotals and creditRedemptions', () => {
  it('adds the totals of the cart items', () => {
    const a = priceItem(base({ tierPricesMinor: [4500, 4500, 2000], discountPercentBasisPoints: 1000, taxes: [vat] }));
    const b = priceItem(base({ tierPricesMinor: [1999], taxes: [vat] }));
    expect(sumTotals([a, b])).toBe(12177 + 1999 + 460);
    expect(sumTotals([])).toBe(0);
  });

  it('gives the credit actually taken per code, leaving out codes that took nothing', () => {
    const credits = [credit('A', 4000, 1), credit('B', 3000, 2), credit('C', 500, 3)];
    const breakdown = priceItem(base({ tierPricesMinor: [5000], credits }));
    expect(creditRedemptions(breakdown, credits)).toEqual([
      { creditCodeId: 'id-A', code: 'A', amountMinor: 4000 },
      { creditCodeId: 'id-B', code: 'B', amountMinor: 1000 },
    ]);
  });
});
