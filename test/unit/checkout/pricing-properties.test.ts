import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PricingBreakdown } from '../../../src/domain/shared/json-types.ts';
import { priceItem, type PriceItemInput } from '../../../src/domain/checkout/pricing.ts';

const minor = (max: number) => fc.integer({ min: 0, max });
const coupon = fc.oneof(
  fc.record({ code: fc.constant('PCT'), percentOffBasisPoints: minor(12_000) }),
  fc.record({ code: fc.constant('AMT'), amountOffMinor: minor(200_000) }),
);
const credits = fc
  .uniqueArray(fc.integer({ min: 0, max: 50 }), { maxLength: 4 })
  .chain((sequences) =>
    fc.tuple(
      ...sequences.map((sequence) =>
        minor(100_000).map((appliedMinor) => ({ code: `C${sequence}`, creditCodeId: `id${sequence}`, appliedMinor, sequence })),
      ),
    ),
  );

const itemInput = (currency: string): fc.Arbitrary<PriceItemInput> =>
  fc.record({
    currency: fc.constant(currency),
    tierPricesMinor: fc.array(minor(1_000_000), { maxLength: 12 }),
    addOns: fc.array(
      fc.record({ addOnId: fc.constant('a'), name: fc.constant('Add-on'), unitPriceMinor: minor(100_000), quantity: minor(10) }),
      { maxLength: 3 },
    ),
    discountAmountMinor: fc.option(minor(500_000), { nil: undefined }),
    discountPercentBasisPoints: fc.option(minor(10_000), { nil: undefined }),
    coupon: fc.option(coupon, { nil: undefined }),
    credits: fc.option(credits, { nil: undefined }),
    taxes: fc.array(fc.record({ name: fc.constant('Tax'), rateBasisPoints: minor(3000) }), { maxLength: 3 }),
  });

const anyItem = fc.constantFrom('EUR', 'JPY', 'KWD').chain(itemInput);
const numbersOf = (b: PricingBreakdown) => [
  b.tiersMinor,
  b.subtotalMinor,
  b.netMinor,
  b.totalMinor,
  ...b.addOns.flatMap((a) => [a.unitPriceMinor, a.totalMinor, a.quantity]),
  ...b.discounts.map((d) => d.amountMinor),
  ...b.taxes.map((t) => t.amountMinor),
];
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('priceItem properties', () => {
  it('never goes negative: total >= 0 and net <= subtotal', () => {
    fc.assert(
      fc.property(anyItem, (input) => {
        const b = priceItem(input);
        expect(b.totalMinor).toBeGreaterThanOrEqual(0);
        expect(b.netMinor).toBeGreaterThanOrEqual(0);
        expect(b.netMinor).toBeLessThanOrEqual(b.subtotalMinor);
      }),
    );
  });

  it('adds up: subtotal = tiers + add-ons, net = subtotal - discounts, total = net + taxes', () => {
    fc.assert(
      fc.property(anyItem, (input) => {
        const b = priceItem(input);
        expect(b.subtotalMinor).toBe(b.tiersMinor + sum(b.addOns.map((a) => a.totalMinor)));
        expect(b.netMinor).toBe(b.subtotalMinor - sum(b.discounts.map((d) => d.amountMinor)));
        expect(b.totalMinor).toBe(b.netMinor + sum(b.taxes.map((t) => t.amountMinor)));
      }),
    );
  });

  it('discounts never exceed the subtotal, alone or together', () => {
    fc.assert(
      fc.property(anyItem, (input) => {
        const b = priceItem(input);
        for (const discount of b.discounts) expect(discount.amountMinor).toBeLessThanOrEqual(b.subtotalMinor);
        expect(sum(b.discounts.map((d) => d.amountMinor))).toBeLessThanOrEqual(b.subtotalMinor);
      }),
    );
  });

  it('holds only non-negative integers (whole yen for JPY: no fractional value anywhere)', () => {
    fc.assert(
      fc.property(anyItem, (input) => {
        for (const value of numbersOf(priceItem(input))) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('applying 0 % (item or coupon) changes no amount', () => {
    const amounts = (b: PricingBreakdown) => [b.subtotalMinor, b.netMinor, b.totalMinor, ...b.taxes.map((t) => t.amountMinor)];
    fc.assert(
      fc.property(anyItem, (input) => {
        const without = { ...input, discountPercentBasisPoints: undefined, coupon: undefined };
        const withZero = { ...without, discountPercentBasisPoints: 0, coupon: { code: 'ZERO', percentOffBasisPoints: 0 } };
        expect(amounts(priceItem(withZero))).toEqual(amounts(priceItem(without)));
      }),
    );
  });

  it('each tax is its rate of the net rounded half up, within half a minor unit', () => {
    fc.assert(
      fc.property(anyItem, (input) => {
        const b = priceItem(input);
        for (const tax of b.taxes) {
          const exact = (b.netMinor * tax.rateBasisPoints) / 10_000;
          expect(Math.abs(tax.amountMinor - exact)).toBeLessThanOrEqual(0.5);
        }
      }),
    );
  });

  it('records the discounts in the documented order: percentages, fixed amounts, then credits by sequence', () => {
    const rank = { percentage: 0, coupon: 1, amount: 2, credit: 4 } as const;
    fc.assert(
      fc.property(anyItem, (input) => {
        const b = priceItem(input);
        const order = b.discounts.map((d) => (d.kind === 'coupon' && input.coupon?.amountOffMinor !== undefined ? 3 : rank[d.kind]));
        expect(order).toEqual([...order].sort((x, y) => x - y));
        const creditCodes = b.discounts.filter((d) => d.kind === 'credit').map((d) => d.code);
        expect(creditCodes).toEqual([...(input.credits ?? [])].sort((x, y) => x.sequence - y.sequence).map((c) => c.code));
      }),
    );
  });
});
