/**
 * Checkout (spec operation 4): price a cart and, unless only a quote is asked for, hold its places and
 * open a payment intent. Orchestration only; the rules live in checkout-items.ts (per item),
 * checkout-purchaser.ts (who pays, and their answers) and checkout-write.ts (the transaction).
 *
 * The processor's intent is created first, outside any transaction (nothing may be awaited inside
 * one). When the transaction then fails (places taken meanwhile, a code taken), that intent is
 * abandoned: its secret was never shown to anyone, so nobody can pay it.
 */
import { randomUUID } from 'node:crypto';
import type { BrandRow } from '../catalog/store.ts';
import { loadBrand } from '../catalog/brands.ts';
import { checkCheckoutShape, type CreatePaymentIntentInput } from './input.ts';
import { prepareItem, readItemCatalogue, type CartContext, type PreparedItem } from './items.ts';
import { answersOfItem, purchaserOf } from './purchaser.ts';
import { writeCheckout, type WrittenBooking } from './write.ts';
import type { CallerDeps, Deps } from '../shared/deps.ts';
import { DomainError } from '../shared/errors.ts';
import { toDecimal } from '../shared/money.ts';
import { sumTotals } from './pricing.ts';
import { customQuestionsByExperience, refuseAnswersWithoutFeature } from '../questions/questions.ts';
import { requireFeature } from '../catalog/features.ts';
import { choosePayment } from '../payments/methods.ts';

export type { CreatePaymentIntentInput } from './input.ts';

export interface PaymentIntentResult {
  /** What the guest pays, in the brand's currency. */
  totalNetAmount: number;
  /** The client confirms the payment with it; absent for quotes, for carts that cost nothing and for methods paid outside Tessera. */
  paymentIntentSecret?: string;
  brandId: string;
  /** The cart checked out; null for a quote (nothing was written). */
  cartId: string | null;
  /** What the checkout wrote (absent for a quote): the cart's code and its bookings, in item order. */
  cartConfirmationCode?: string;
  bookings?: WrittenBooking[];
}

/** Every item checked and priced, in order; the first problem is thrown. */
async function prepareItems(deps: CallerDeps, brand: BrandRow, input: CreatePaymentIntentInput, now: Date): Promise<PreparedItem[]> {
  const experienceIds = input.data.map((item) => item.experienceId);
  const distinct = [...new Set(experienceIds)];
  refuseAnswersWithoutFeature(brand, answerLists(input));
  const lists = await customQuestionsByExperience(
    deps,
    distinct.map((id) => ({ id, brandId: brand.id })),
  );
  const questions = new Map(distinct.map((id, k) => [id, lists[k] ?? []]));
  const questionIds = experienceIds.map((id) => (questions.get(id) ?? []).map((q) => q.customQuestionId));
  const otherItemQuestionIds = (index: number) => new Set(questionIds.flatMap((ids, j) => (j === index ? [] : ids)));

  const holds = await deps.db.checkout.holdsOfCart(brand.id, input.cartId, now.toISOString());
  const ctx: CartContext = {
    db: deps.db,
    catalogue: await readItemCatalogue(deps.db, input.data, now),
    brand,
    cartId: input.cartId,
    now,
    // A new checkout of this cart gives its current holds back first: they count as free here.
    placesAsked: new Map(holds.places.map((held) => [held.sessionId, -held.count])),
    creditUsed: new Map(holds.credits.map((held) => [held.creditCodeId, -held.amountMinor])),
  };
  // One item after the other: each counts the places and credit the items before it asked for.
  const prepared: PreparedItem[] = [];
  for (const [index, item] of input.data.entries()) {
    prepared.push(
      await prepareItem(ctx, item, index, (experience) =>
        answersOfItem(input, index, questions.get(experience.id) ?? [], otherItemQuestionIds(index)),
      ),
    );
  }
  return prepared;
}

/** Every answer list of the body, with its field. */
function answerLists(input: CreatePaymentIntentInput) {
  return [
    { field: 'purchaser.customQuestionResponses', responses: input.purchaser?.customQuestionResponses },
    ...input.data.flatMap((item, i) =>
      item.participants.map((p, j) => ({
        field: `data.${i}.participants.${j}.customQuestionResponses`,
        responses: p.customQuestionResponses,
      })),
    ),
  ];
}

async function openIntent(deps: Deps, brand: BrandRow, cartId: string, amountMinor: number) {
  try {
    const intent = await deps.payments.createIntent({
      amountMinor,
      currency: brand.currency,
      idempotencyKey: randomUUID(),
      metadata: { cartId, brandId: brand.id },
    });
    return { processor: deps.payments.name, ...intent };
  } catch (error) {
    throw new DomainError('PAYMENT_PROCESSOR_ERROR', 'The payment processor could not open a payment intent; nothing was held, try again', {
      reason: error instanceof Error ? error.name : 'unknown',
    });
  }
}

/**
 * Prices the cart; then, unless `getOnlyTotalNetAmount`, creates one `processing` booking per item
 * holding its places for `deps.holdTtlSeconds`, with a payment intent whose secret is returned. A
 * cart costing nothing is confirmed (and paid) at once. Posting again for an unpaid cart replaces its
 * bookings; a paid cart is CART_ALREADY_PAID.
 */
export async function createPaymentIntent(deps: CallerDeps, input: CreatePaymentIntentInput): Promise<PaymentIntentResult> {
  const brand = await loadBrand(deps, input.brandId);
  checkCheckoutShape(input);
  if (input.data.length > 1) requireFeature(brand, 'shoppingCart', 'A cart of more than one item', 'data');
  const now = deps.now();
  const items = await prepareItems(deps, brand, input, now);
  const payment = choosePayment(
    brand,
    items.map((item) => item.experience),
    input,
  );
  const totalMinor = sumTotals(items.map((item) => item.pricing));
  const totalNetAmount = toDecimal(totalMinor, brand.currency);
  if (input.getOnlyTotalNetAmount) return { totalNetAmount, brandId: brand.id, cartId: null };

  // Only a card payment goes through the processor; the other methods confirm at once with the amount due.
  const intent = payment.charged && totalMinor > 0 ? await openIntent(deps, brand, input.cartId, totalMinor) : null;
  const written = await writeCheckout(deps.db, {
    brand,
    cartId: input.cartId,
    items,
    purchaser: purchaserOf(input),
    payment,
    totalMinor,
    intent,
    // Holds run from when they are taken, after the processor answered.
    now: deps.now(),
    holdTtlSeconds: deps.holdTtlSeconds,
    waitlistOfferTtlSeconds: deps.waitlistOfferTtlSeconds,
    publishableSharePercent: deps.principal.kind === 'publishable' ? brand.publishableHoldSharePercent : null,
  });
  return {
    totalNetAmount,
    ...(intent ? { paymentIntentSecret: intent.clientSecret } : {}),
    brandId: brand.id,
    cartId: input.cartId,
    ...written,
  };
}
