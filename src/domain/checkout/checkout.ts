/**
 * Checkout (spec operation 4): price a cart and, unless only a quote is asked for, hold its places and
 * open a payment intent. Orchestration only; the rules live in items.ts (per item),
 * purchaser.ts (who pays, and their answers) and write.ts (the transaction).
 *
 * The processor's intent is created first, outside any transaction (nothing may be awaited inside
 * one). When the transaction then fails (places taken meanwhile, a code taken), that intent is
 * abandoned: its secret was never shown to anyone, so nobody can pay it.
 */
import type { Cart } from '../bookings/carts.ts';
import type { SessionOfExperience } from '../availability/store.ts';
import { randomUUID } from 'node:crypto';
import type { BrandRow } from '../catalog/store.ts';
import { actingBrand } from '../access/principal.ts';
import { checkCheckoutShape, MAX_CART_ITEMS, type CreatePaymentIntentInput } from './input.ts';
import { prepareItem, readItemCatalogue, startsAsGiven, type CartContext, type PreparedItem } from './items.ts';
import { answersOfItem, purchaserOf } from './purchaser.ts';
import { writeCheckout, type WrittenBooking } from './write.ts';
import type { CallerDeps, Deps } from '../shared/deps.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { toDecimal } from '../shared/money.ts';
import { sumTotals } from './pricing.ts';
import { askingBrands, questionsAsked, refuseAnswersWithoutFeature } from '../questions/questions.ts';
import { requireFeature } from '../catalog/features.ts';
import { choosePayment } from '../payments/methods.ts';
import { checkHoldBudget, defaultPublishableHolds, holderOf } from './hold-budget.ts';
import type { CheckoutReads, CheckoutStore, ItemStart } from './store.ts';
import { notify } from '../shared/observer.ts';
import { requireHumanCheck } from './human-check.ts';
import { intentCheckDefaults } from '../payments/intent-reconciler.ts';
import { refusePublishableInput } from './publishable-input.ts';

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
  /** When the unpaid bookings' hold lapses (ISO 8601 UTC); absent when nothing is held (quotes, free or settled carts). */
  expiresAt?: string;
  /**
   * The cart as the checkout's unit left it, when the checkout created it and holds it for a card: a face
   * answering with the cart uses it instead of reading the cart again (not part of REST's answer).
   */
  heldCart?: Cart;
  /**
   * The items' sessions as the checkout's unit left them, when it knows them (a face showing them uses them
   * instead of reading them again; not part of REST's answer).
   */
  sessions?: SessionOfExperience[];
}

/** What the checkout reads before its unit, at once, with the brand found (NOT_FOUND otherwise) and the item starts asked for. */
type CheckoutRead = CheckoutReads & { brand: BrandRow; starts: ItemStart[] };

/**
 * Reads, in one call, the brand the caller acts for and what pricing the cart needs: its experiences'
 * questions, the cart's current holds, the experiences and the sessions the items name by a local start.
 * A cart of more items than allowed is refused for its shape before any item is read: only its brand is.
 */
async function readForCheckout(deps: CallerDeps, input: CreatePaymentIntentInput, now: Date): Promise<CheckoutRead> {
  const brandId = actingBrand(deps.principal, input.brandId);
  const items = input.data.length <= MAX_CART_ITEMS ? input.data : [];
  const starts = startsAsGiven(items);
  const read = await deps.db.checkout.readCheckout({
    brandId,
    cartId: input.cartId,
    experienceIds: items.map((item) => item.experienceId),
    starts,
    at: now.toISOString(),
  });
  if (!read.brand) throw notFound('Brand', brandId);
  return { ...read, brand: read.brand, starts };
}

/** Every item checked and priced, in order; the first problem is thrown. */
async function prepareItems(deps: CallerDeps, read: CheckoutRead, input: CreatePaymentIntentInput, now: Date): Promise<PreparedItem[]> {
  const { brand } = read;
  const experienceIds = input.data.map((item) => item.experienceId);
  const distinct = [...new Set(experienceIds)];
  refuseAnswersWithoutFeature(brand, answerLists(input));
  const lists = questionsAsked(
    distinct.map((id) => ({ id, brandId: brand.id })),
    askingBrands([brand]),
    read.questions,
  );
  const questions = new Map(distinct.map((id, k) => [id, lists[k] ?? []]));
  const questionIds = experienceIds.map((id) => (questions.get(id) ?? []).map((q) => q.customQuestionId));
  const otherItemQuestionIds = (index: number) => new Set(questionIds.flatMap((ids, j) => (j === index ? [] : ids)));

  const { holds } = read;
  const ctx: CartContext = {
    db: deps.db,
    catalogue: await readItemCatalogue(deps.db, input.data, now, read),
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

/**
 * Opens the processor's intent for the checkout whose Tessera intent id is `intentId`: its idempotency key
 * derives from that id, so a retry (the SDK's, after a timeout or a 5xx) finds the same intent.
 */
async function openIntent(deps: Deps, brand: BrandRow, cartId: string, amountMinor: number) {
  const id = randomUUID();
  try {
    const intent = await deps.payments.createIntent({
      amountMinor,
      currency: brand.currency,
      idempotencyKey: `tessera-intent-${id}`,
      metadata: { brandId: brand.id, cartId, intentId: id },
      account: brand.processorAccount,
    });
    // Only a processor that can be asked about its intents is (payments/intent-reconciler.ts).
    const checkAfterSeconds = deps.payments.readIntent ? (deps.intentCheckAfterSeconds ?? intentCheckDefaults.checkAfterSeconds) : null;
    return { id, processor: deps.payments.name, ...intent, checkAfterSeconds };
  } catch (error) {
    throw new DomainError('PAYMENT_PROCESSOR_ERROR', 'The payment processor could not open a payment intent; nothing was held, try again', {
      reason: error instanceof Error ? error.name : 'unknown',
    });
  }
}

/** Throws HOLD_LIMIT_REACHED (telling the observer) when the client's other unpaid places and `requested` exceed its budget. */
async function refuseBeyondBudget(
  deps: CallerDeps,
  store: Pick<CheckoutStore, 'clientHolds'>,
  claim: { brandId: string; cartId: string; client: string; limit: number; requested: number },
  now: Date,
): Promise<void> {
  const { brandId, cartId, client, limit, requested } = claim;
  const held = await store.clientHolds(brandId, client, now.toISOString(), cartId);
  try {
    checkHoldBudget(limit, requested, held, now);
  } catch (error) {
    notify(deps.observer, (o) => o.holdLimitReached?.({ brandId, client, held: held.places, requested, limit }));
    throw error;
  }
}

/**
 * Prices the cart; then, unless `getOnlyTotalNetAmount`, asks for a human check where the brand wants
 * one (publishable keys only, src/domain/checkout/human-check.ts) and creates one `processing` booking per
 * item holding its places for `deps.holdTtlSeconds`, with a payment intent whose secret is returned; with a
 * publishable key, for `deps.publishableHolds.ttlSeconds` and within its client's budget (hold-budget.ts).
 * A cart costing nothing is confirmed (and paid) at once. Posting again for an unpaid cart replaces its
 * bookings; a paid cart is CART_ALREADY_PAID.
 */
export async function createPaymentIntent(deps: CallerDeps, input: CreatePaymentIntentInput): Promise<PaymentIntentResult> {
  const now = deps.now();
  const read = await readForCheckout(deps, input, now);
  const { brand } = read;
  refusePublishableInput(deps.principal, brand, input);
  checkCheckoutShape(input);
  if (input.data.length > 1) requireFeature(brand, 'shoppingCart', 'A cart of more than one item', 'data');
  const items = await prepareItems(deps, read, input, now);
  const payment = choosePayment(
    brand,
    items.map((item) => item.experience),
    input,
  );
  const totalMinor = sumTotals(items.map((item) => item.pricing));
  const totalNetAmount = toDecimal(totalMinor, brand.currency);
  if (input.getOnlyTotalNetAmount) return { totalNetAmount, brandId: brand.id, cartId: null };
  // A quote holds nothing, so it is never asked. Checked after the cart: a cart refused for its input
  // keeps its (single-use) token unspent.
  await requireHumanCheck(deps, brand, 'A checkout');

  const holding = payment.charged && totalMinor > 0;
  const holds = deps.publishableHolds ?? defaultPublishableHolds;
  const holder = holderOf(deps.principal, holds, deps.clientAddress);
  const requested = items.reduce((sum, item) => sum + item.participants.length, 0);
  // A publishable key's places left unpaid, held for a card or confirmed with the amount due (a method the
  // brand collects, which it must allow: publishable-input.ts), count against its client's budget and the
  // publishable share alike. Only a publishable key has a client.
  const leftUnpaid = totalMinor > 0 && (holding || !payment.charged);
  const claim =
    leftUnpaid && holder.client
      ? { brandId: brand.id, cartId: input.cartId, client: holder.client, limit: holds.placesPerClient, requested }
      : null;
  // A refusal costs no processor call; the unit of work checks again, the authoritative check.
  if (claim) await refuseBeyondBudget(deps, deps.db.checkout, claim, now);
  // Only a card payment goes through the processor; the other methods confirm at once with the amount due.
  const intent = holding ? await openIntent(deps, brand, input.cartId, totalMinor) : null;
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
    holdTtlSeconds: holder.keyKind === 'publishable' ? holds.ttlSeconds : deps.holdTtlSeconds,
    waitlistOfferTtlSeconds: deps.waitlistOfferTtlSeconds,
    holder,
    budget: claim ? { client: claim.client, check: async (tx, at) => refuseBeyondBudget(deps, tx.checkout, claim, at) } : null,
    publishableSharePercent: claim ? brand.publishableHoldSharePercent : null,
  });
  return {
    totalNetAmount,
    ...(intent ? { paymentIntentSecret: intent.clientSecret } : {}),
    brandId: brand.id,
    cartId: input.cartId,
    ...written,
  };
}
