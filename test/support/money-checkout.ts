/**
 * A property for money-properties.test.ts: a generated cart (price tiers, add-ons, percentage and fixed
 * discounts, a coupon, credit codes, taxes) goes through the real `createPaymentIntent` on a fresh
 * database, and the processor must be charged exactly what an independent BigInt reading of the README's
 * pricing rules adds up to, each booking holding its own item's total.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Principal } from '../../src/domain/access/principal.ts';
import type { PricingBreakdown } from '../../src/domain/shared/json-types.ts';
import { createPaymentIntent } from '../../src/domain/checkout/checkout.ts';
import { toDecimal } from '../../src/domain/shared/money.ts';
import { sumTotals } from '../../src/domain/checkout/pricing.ts';
import { SandboxProcessor } from '../../src/adapters/sandbox-processor.ts';
import { CHECKOUT_NOW } from './clock.ts';
import type { TestDb } from './db.ts';
import { inTurn } from '../../fixtures/factories/in-turn.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createAddOn, createCoupon, createCreditCode } from '../../fixtures/factories/checkout.ts';

const minor = (max: number) => fc.integer({ min: 0, max });
const basisPoints = minor(10_000);

const itemArb = fc.record({
  tiers: fc.array(minor(5_000_000), { minLength: 1, maxLength: 3 }),
  guests: fc.array(fc.nat(2), { minLength: 1, maxLength: 5 }),
  addOns: fc.array(fc.record({ priceMinor: minor(500_000), quantity: fc.integer({ min: 1, max: 5 }) }), { maxLength: 2 }),
  percent: fc.option(basisPoints, { nil: undefined }),
  amountOff: fc.option(minor(2_000_000), { nil: undefined }),
  coupon: fc.option(fc.oneof(fc.record({ percent: basisPoints }), fc.record({ amount: fc.integer({ min: 1, max: 2_000_000 }) })), {
    nil: undefined,
  }),
  credits: fc.uniqueArray(fc.record({ sequence: fc.nat(9), appliedMinor: minor(1_000_000) }), {
    maxLength: 2,
    selector: (c) => c.sequence,
  }),
  taxes: fc.array(minor(5_000), { maxLength: 3 }),
});
type ItemSpec = typeof itemArb extends fc.Arbitrary<infer T> ? T : never;

/** Half up, as an exact fraction: floor(x * bp / 10000 + 1/2). */
const halfUp = (x: bigint, bp: number) => (2n * x * BigInt(bp) + 10_000n) / 20_000n;
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** README "Amounts": subtotal, percentages, fixed amounts, credits by sequence (each capped), taxes on the net. */
function expectedTotal(item: ItemSpec): bigint {
  const tiers = item.guests.map((g) => BigInt(item.tiers[g % item.tiers.length]!));
  let running = [...tiers, ...item.addOns.map((a) => BigInt(a.priceMinor) * BigInt(a.quantity))].reduce((a, b) => a + b, 0n);
  const take = (wanted: bigint) => {
    running -= min(wanted, running);
  };
  if (item.percent !== undefined) take(halfUp(running, item.percent));
  if (item.coupon && 'percent' in item.coupon) take(halfUp(running, item.coupon.percent));
  if (item.amountOff !== undefined) take(BigInt(item.amountOff));
  if (item.coupon && 'amount' in item.coupon) take(BigInt(item.coupon.amount));
  for (const credit of [...item.credits].sort((a, b) => a.sequence - b.sequence)) take(BigInt(credit.appliedMinor));
  return running + item.taxes.reduce((sum, rate) => sum + halfUp(running, rate), 0n);
}

/** The sandbox, remembering what each intent charges. */
class ChargeRecorder extends SandboxProcessor {
  readonly charges: Array<{ amountMinor: number; currency: string }> = [];
  override async createIntent(input: { amountMinor: number; currency: string; idempotencyKey: string }) {
    this.charges.push({ amountMinor: input.amountMinor, currency: input.currency });
    return super.createIntent(input);
  }
}

const percentText = (bp: number) => Number(`${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`);

async function checkOut(db: TestDb, currency: string, items: ItemSpec[]) {
  const brand = await createBrand(db, { currency });
  const payments = new ChargeRecorder();
  const principal: Principal = { kind: 'brand', keyId: 'money-props', organizationId: null, brandIds: [brand.id], headerBrandId: null };
  const deps = {
    db: db.database,
    now: () => new Date(CHECKOUT_NOW),
    payments,
    holdTtlSeconds: 900,
    waitlistOfferTtlSeconds: 86_400,
    principal,
  };
  const data = await inTurn(items, async (item, i) => {
    const priceTiers = item.tiers.map((priceMinor, t) => ({ name: `Tier${t}`, priceMinor }));
    const taxes = item.taxes.map((rateBasisPoints, t) => ({ name: `Tax${t}`, rateBasisPoints }));
    const { experience } = await createExperience(db, brand.id, { maxParticipantsCount: 50 }, { priceTiers, taxes, pictures: 0 });
    const session = await createSession(db, experience, { startLocal: `2026-12-0${i + 1}T09:00:00`, capacity: 50 });
    const addOns = await inTurn(item.addOns, async (a) => ({
      addOnId: (await createAddOn(db, experience.id, { priceMinor: a.priceMinor })).id,
      quantity: a.quantity,
    }));
    const coupon =
      item.coupon &&
      (await createCoupon(
        db,
        brand.id,
        'percent' in item.coupon ? { percentOffBasisPoints: item.coupon.percent } : { amountOffMinor: item.coupon.amount },
      ));
    const credits = await inTurn(item.credits, async (c) => ({
      ...c,
      code: (await createCreditCode(db, brand.id, { balanceMinor: c.appliedMinor })).code,
    }));
    return {
      experienceId: experience.id,
      sessionTime: session.startLocal.slice(0, 16),
      participants: item.guests.map((g, j) => ({
        firstName: `Guest${j}`,
        lastName: 'Silva',
        priceTierName: `Tier${g % item.tiers.length}`,
      })),
      listingAddOns: addOns,
      ...(item.percent === undefined ? {} : { discountPercentage: percentText(item.percent) }),
      ...(item.amountOff === undefined ? {} : { discountAmount: toDecimal(item.amountOff, currency) }),
      ...(coupon ? { couponCode: coupon.code } : {}),
      appliedCreditCodes: credits.map((c) => ({ code: c.code, sequence: c.sequence, appliedValue: toDecimal(c.appliedMinor, currency) })),
    };
  });
  const cartId = randomUUID();
  const result = await createPaymentIntent(deps, { brandId: brand.id, cartId, data });
  const rows = (await db.all(
    'SELECT amount_minor AS "amountMinor", pricing FROM bookings WHERE cart_id = ? ORDER BY cart_position',
    cartId,
  )) as Array<{ amountMinor: number; pricing: string }>;
  const intents = await db.all('SELECT amount_minor AS "amountMinor", currency FROM payment_intents WHERE cart_id = ?', cartId);
  return {
    result,
    charges: payments.charges,
    intents,
    bookings: rows.map((r) => ({ amountMinor: r.amountMinor, pricing: JSON.parse(r.pricing) as PricingBreakdown })),
  };
}

/** The async property, for `fc.assert`, over the currencies `currencies` yields; each run checks out with a new brand of `db`. */
export function checkoutProperty(db: TestDb, currencies: fc.Arbitrary<string>) {
  return fc.asyncProperty(currencies, fc.array(itemArb, { minLength: 1, maxLength: 3 }), async (currency, items) => {
    const { result, charges, intents, bookings } = await checkOut(db, currency, items);
    const perItem = items.map(expectedTotal);
    const total = perItem.reduce((a, b) => a + b, 0n);
    expect(bookings.map((b) => BigInt(b.amountMinor))).toEqual(perItem);
    expect(bookings.map((b) => b.pricing.totalMinor)).toEqual(bookings.map((b) => b.amountMinor));
    expect(BigInt(sumTotals(bookings.map((b) => b.pricing)))).toBe(total);
    expect(result.totalNetAmount).toBe(toDecimal(Number(total), currency));
    // A free cart is confirmed at once, with no charge at all.
    const charged = total > 0n ? [{ amountMinor: Number(total), currency }] : [];
    expect(charges).toEqual(charged);
    expect(intents).toEqual(charged);
  });
}
