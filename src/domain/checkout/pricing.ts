/**
 * The price of one cart item, in integer minor units of the brand's currency. Pure: the caller loads
 * and validates the inputs (pricing-rules.ts) and stores the breakdown with the booking.
 *
 * Order of operations:
 * 1. subtotal = the participants' price tiers + add-ons (unit price x quantity);
 * 2. percentage discounts, each on the running amount: the item's `discountPercentage`, then a
 *    percentage coupon;
 * 3. fixed discounts: the item's `discountAmount`, then an amount coupon;
 * 4. credit codes, in `sequence` order;
 *    every discount is capped at the running amount, so the net never goes below 0, and the breakdown
 *    records the amount actually applied (0 when nothing was left to discount);
 * 5. taxes: each tax is its rate of the net, computed per tax and rounded on its own;
 * 6. total = net + taxes: what the guest pays.
 * Rounding: percentages (discounts and taxes) round half up to the currency's minor unit (cents for EUR,
 * whole yen for JPY), through `percentOf`: 10 % of 4.55 EUR = 0.455 -> 0.46.
 */
import type { PricingBreakdown } from '../shared/json-types.ts';
import { percentOf } from '../shared/money.ts';

/** The input checks live beside the arithmetic; checkout imports both from here. */
export { checkParticipantCount, parsePercentage, resolveCoupon, resolveCredits } from './pricing-rules.ts';
export type { CouponLike } from './pricing-rules.ts';

/** A validated coupon: either a percentage in basis points or a fixed amount in minor units. */
export type ResolvedCoupon =
  | { code: string; percentOffBasisPoints: number; amountOffMinor?: undefined }
  | { code: string; amountOffMinor: number; percentOffBasisPoints?: undefined };

/** A credit code checked against its balance; `appliedMinor` is what the guest asked to use. */
export interface ResolvedCredit {
  code: string;
  creditCodeId: string;
  appliedMinor: number;
  sequence: number;
}

export interface PriceItemInput {
  /** ISO 4217 code; recorded for clarity, the arithmetic is the same in every currency. */
  currency: string;
  /** One price tier amount per participant. */
  tierPricesMinor: readonly number[];
  addOns: ReadonlyArray<{ addOnId: string; name: string; unitPriceMinor: number; quantity: number }>;
  /** The item's `discountAmount`, already converted with `fromDecimal`. */
  discountAmountMinor?: number | undefined;
  /** The item's `discountPercentage` as basis points (`parsePercentage`). */
  discountPercentBasisPoints?: number | undefined;
  coupon?: ResolvedCoupon | undefined;
  credits?: readonly ResolvedCredit[] | undefined;
  taxes: ReadonlyArray<{ name: string; rateBasisPoints: number }>;
}

type Discount = PricingBreakdown['discounts'][number];

function assertMinor(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a non-negative integer, got ${value}`);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** The discounts in the order they apply, each as a function of the running amount. */
function discountSteps(input: PriceItemInput): Array<{ entry: Omit<Discount, 'amountMinor'>; amountOf: (running: number) => number }> {
  const steps: ReturnType<typeof discountSteps> = [];
  const { coupon } = input;
  const percentOff = (bp: number) => (running: number) => percentOf(running, bp);
  const fixed = (minor: number) => () => minor;
  if (input.discountPercentBasisPoints !== undefined) {
    steps.push({ entry: { kind: 'percentage' }, amountOf: percentOff(input.discountPercentBasisPoints) });
  }
  if (coupon?.percentOffBasisPoints !== undefined) {
    steps.push({ entry: { kind: 'coupon', code: coupon.code }, amountOf: percentOff(coupon.percentOffBasisPoints) });
  }
  if (input.discountAmountMinor !== undefined) steps.push({ entry: { kind: 'amount' }, amountOf: fixed(input.discountAmountMinor) });
  if (coupon?.amountOffMinor !== undefined) {
    steps.push({ entry: { kind: 'coupon', code: coupon.code }, amountOf: fixed(coupon.amountOffMinor) });
  }
  const credits = [...(input.credits ?? [])].sort((a, b) => a.sequence - b.sequence);
  for (const credit of credits) steps.push({ entry: { kind: 'credit', code: credit.code }, amountOf: fixed(credit.appliedMinor) });
  return steps;
}

/** The breakdown of one item's price; see the module comment for the order and the rounding. */
export function priceItem(input: PriceItemInput): PricingBreakdown {
  input.tierPricesMinor.forEach((price) => assertMinor(price, 'a tier price'));
  const addOns = input.addOns.map(({ addOnId, name, unitPriceMinor, quantity }) => {
    assertMinor(unitPriceMinor, 'an add-on price');
    assertMinor(quantity, 'an add-on quantity');
    return { addOnId, name, quantity, unitPriceMinor, totalMinor: unitPriceMinor * quantity };
  });
  const tiersMinor = sum(input.tierPricesMinor);
  const subtotalMinor = tiersMinor + sum(addOns.map((addOn) => addOn.totalMinor));

  let running = subtotalMinor;
  const discounts: Discount[] = discountSteps(input).map(({ entry, amountOf }) => {
    const wanted = amountOf(running);
    assertMinor(wanted, `the ${entry.kind} discount`);
    const amountMinor = Math.min(wanted, running);
    running -= amountMinor;
    return { ...entry, amountMinor };
  });

  const netMinor = running;
  const taxes = input.taxes.map(({ name, rateBasisPoints }) => ({
    name,
    rateBasisPoints,
    amountMinor: percentOf(netMinor, rateBasisPoints),
  }));
  const totalMinor = netMinor + sum(taxes.map((tax) => tax.amountMinor));
  return { tiersMinor, addOns, subtotalMinor, discounts, netMinor, taxes, totalMinor };
}

/** What the guest pays for the whole cart: the items' totals added. */
export function sumTotals(breakdowns: readonly PricingBreakdown[]): number {
  return sum(breakdowns.map((breakdown) => breakdown.totalMinor));
}

/**
 * The credit actually taken from each code by a priced item (capped discounts take less than asked),
 * leaving out codes that took nothing: what to record as redemptions and subtract from balances.
 */
export function creditRedemptions(
  breakdown: PricingBreakdown,
  credits: readonly ResolvedCredit[],
): Array<{ creditCodeId: string; code: string; amountMinor: number }> {
  const byCode = new Map(credits.map((credit) => [credit.code, credit.creditCodeId]));
  return breakdown.discounts.flatMap((discount) => {
    const creditCodeId = discount.kind === 'credit' && discount.code !== undefined ? byCode.get(discount.code) : undefined;
    if (creditCodeId === undefined || discount.amountMinor === 0) return [];
    return [{ creditCodeId, code: discount.code as string, amountMinor: discount.amountMinor }];
  });
}
