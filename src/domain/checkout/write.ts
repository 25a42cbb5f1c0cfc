/**
 * The checkout transaction: everything a checkout creates happens in it, or nothing does. It sweeps
 * lapsed holds and waitlist offers, replaces the cart's unpaid checkout, takes places (the authoritative
 * capacity check; an item naming a waitlist entry takes its offer's places), then writes the intent, the
 * bookings with participants and answers, and the credit redemptions. Places it freed and did not take
 * back are offered to the sessions' waitlists before it commits.
 */
import { randomUUID } from 'node:crypto';
import type { PaymentChoice } from '../payments/methods.ts';
import type { BookingStatus } from '../shared/values.ts';
import { hashSecret } from '../access/secrets.ts';
import type { Database, Stores } from '../shared/database.ts';
import type { BrandRow } from '../catalog/store.ts';
import { type AnswerInsert, type BookingInsert, type CartHolder, type IntentInsert, type ParticipantInsert } from './store.ts';
import type { StoredAnswer } from '../questions/answers.ts';
import { recordBookingEventsOf } from '../bookings/booking-events.ts';
import { toBooking } from '../bookings/booking-view.ts';
import type { Booking } from '../bookings/booking-view.ts';
import type { Cart } from '../bookings/carts.ts';
import type { SessionOfExperience } from '../availability/store.ts';
import { toDecimal } from '../shared/money.ts';
import type { PreparedItem } from './items.ts';
import type { PreparedPurchaser } from './purchaser.ts';
import { generateConfirmationCode } from './confirmation-codes.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { expireDueHolds, failProcessingBookings } from './holds.ts';
import { markConverted, takeOfferedPlaces } from '../waitlists/conversion.ts';
import { expireDueOffers, offerFreedPlaces } from '../waitlists/offers.ts';

export interface CheckoutPlan {
  brand: BrandRow;
  cartId: string;
  items: readonly PreparedItem[];
  purchaser: PreparedPurchaser;
  payment: PaymentChoice;
  totalMinor: number;
  /** The processor's intent; null when the cart costs nothing (its bookings confirm at once). */
  intent: {
    id: string;
    processor: string;
    reference: string;
    clientSecret: string;
    /** Ask the processor about the intent after this long, or when its hold lapses if sooner; null: never. */
    checkAfterSeconds: number | null;
  } | null;
  now: Date;
  holdTtlSeconds: number;
  waitlistOfferTtlSeconds: number;
  /** Who holds the cart's places from this checkout on. */
  holder: CartHolder;
  /**
   * For a publishable key's unpaid holds: the client, locked for the unit, and the check of its budget,
   * run once the cart's previous holds are given back (a re-post never counts against itself).
   */
  budget: { client: string; check: (tx: Stores, now: Date) => Promise<void> } | null;
  /**
   * Set for a publishable key's checkout that leaves its places unpaid (a card hold, or a method the brand
   * collects): the brand's publishable share (percent of each session's capacity) such places may take.
   * Null for secret keys, whose holds the share does not bound, and for carts paid at once (free).
   */
  publishableSharePercent: number | null;
}

/** Bookings of the cart this checkout replaces, and sessions whose freed places it offers before committing. */
interface Replacement {
  replaced: Set<string>;
  freed: Set<string>;
}

interface Written extends Replacement {
  at: string;
  cartCode: string;
  intentId: string | null;
  codes: FreshCodes;
}

const MAX_CODE_ATTEMPTS = 10;

/**
 * Fresh confirmation codes for one checkout, drawn and checked together: one question to the store for the
 * cart's code and every item's, asked with the unit's first question (`first`, `answered`) or on first use
 * (a code found taken is drawn again and asked about with the others found taken). `count` is the most the
 * checkout can need; a code not used is simply dropped. The unique indexes still decide a race (see
 * confirmationCodeInUse's adapters).
 */
export class FreshCodes {
  /** The codes drawn first, to be asked about with another question (`answered`), or by `next`. */
  readonly first: string[];
  private firstTaken: ReadonlySet<string> | undefined;
  private codes: string[] | undefined;

  constructor(
    private readonly tx: Stores,
    private readonly brandId: string,
    private readonly count: number,
  ) {
    this.first = drawCodes(count, []);
  }

  /** Which of `first` a question asked with another (CheckoutStore.checkoutChecks) found in use. */
  answered(taken: ReadonlySet<string>): void {
    this.firstTaken = taken;
  }

  async next(): Promise<string> {
    this.codes ??= await this.draw();
    const code = this.codes.shift();
    if (code === undefined) throw new Error('A checkout needed more confirmation codes than it drew');
    return code;
  }

  private async draw(): Promise<string[]> {
    const free: string[] = [];
    let drawn = this.first;
    for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS && drawn.length > 0; attempt++) {
      const taken = attempt === 0 && this.firstTaken ? this.firstTaken : await this.tx.checkout.confirmationCodesInUse(this.brandId, drawn);
      for (const code of drawn) if (!taken.has(code)) free.push(code);
      drawn = drawCodes(this.count - free.length, free);
    }
    if (free.length < this.count)
      throw new Error(`No free confirmation code for brand ${this.brandId} after ${MAX_CODE_ATTEMPTS} attempts`);
    return free;
  }
}

/** `count` new codes, none of them in `free` (codes already found free). */
function drawCodes(count: number, free: readonly string[]): string[] {
  const drawn = new Set<string>();
  while (drawn.size < count) {
    const code = generateConfirmationCode();
    if (!free.includes(code)) drawn.add(code);
  }
  return [...drawn];
}

/**
 * The cart's confirmation code, once the cart is created with `intent` (`created`), or its previous unpaid
 * checkout replaced. Creating it is tried first (most checkouts are a new cart's); only a cart that exists is
 * then taken and read.
 */
async function openCart(
  tx: Stores,
  plan: CheckoutPlan,
  at: string,
  replacement: Replacement,
  codes: FreshCodes,
  intent: IntentInsert | undefined,
): Promise<{ code: string; created: boolean }> {
  const confirmationCode = await codes.next();
  const newCart = { id: plan.cartId, brandId: plan.brand.id, confirmationCode, at, holder: plan.holder };
  if (await tx.checkout.insertCart(newCart, intent)) return { code: confirmationCode, created: true };
  const cart = await tx.carts.findCartRow(plan.cartId);
  if (!cart || cart.brandId !== plan.brand.id) throw notFound('Cart', plan.cartId);
  if (cart.status === 'paid') {
    throw new DomainError('CART_ALREADY_PAID', `Cart ${cart.id} is already paid; use a new cart id for a new checkout`, {
      field: 'cartId',
    });
  }
  const replaced = await tx.checkout.processingBookingIdsOfCart(cart.id);
  for (const id of replaced) replacement.replaced.add(id);
  // Their places are offered to waitlists only after this checkout took back what it needs.
  await failProcessingBookings(tx, replaced, plan.now, plan.waitlistOfferTtlSeconds, replacement.freed);
  await tx.checkout.cancelOpenIntentsOfCart(cart.id, at);
  await tx.checkout.holdCartFor(cart.id, plan.holder, at);
  return { code: cart.confirmationCode, created: false };
}

async function bookingCode(tx: Stores, plan: CheckoutPlan, item: PreparedItem, codes: FreshCodes): Promise<string> {
  const intended = item.intendedConfirmationCode;
  if (!intended) return codes.next();
  await tx.checkout.releaseCodeOfReplacedBooking(plan.cartId, intended);
  if (await tx.checkout.confirmationCodeInUse(plan.brand.id, intended)) {
    throw new DomainError('CONFIRMATION_CODE_TAKEN', `Confirmation code ${intended} is already used in this brand`, {
      field: `data.${item.index}.intendedConfirmationCode`,
    });
  }
  return intended;
}

function answerRows(
  bookingId: string,
  groups: ReadonlyArray<{ participantId: string | null; answers: readonly StoredAnswer[] }>,
): AnswerInsert[] {
  let position = 0;
  return groups.flatMap(({ participantId, answers }) =>
    answers.map((stored) => ({
      id: randomUUID(),
      bookingId,
      participantId,
      question: stored.question,
      answer: stored.answer,
      position: position++,
    })),
  );
}

/** What taking an item's places tells: whether they count in the publishable share, and the session as the take left it. */
interface ItemPlaces {
  publishableHold: boolean;
  /** Undefined when the places came from a waitlist offer (the offer's statements changed the session). */
  session: SessionOfExperience | undefined;
}

/**
 * From the item's waitlist offer when it names one; otherwise from places on sale, never from offers' holds.
 * Whether the places count in the session's publishable share: only places a publishable key leaves unpaid
 * count (a card hold until paid, a method the brand collects until cancelled); a free checkout keeps nothing
 * unpaid, and an offer's places were the entry's already.
 */
async function takeItemPlaces(tx: Stores, plan: CheckoutPlan, item: PreparedItem, written: Written): Promise<ItemPlaces> {
  const field = `data.${item.index}`;
  const count = item.participants.length;
  if (item.waitlistEntryId) {
    const claim = {
      entryId: item.waitlistEntryId,
      brandId: plan.brand.id,
      sessionId: item.session.id,
      cartId: plan.cartId,
      count,
      now: plan.now,
      field,
    };
    await takeOfferedPlaces(tx, claim, written.replaced, written.freed);
    return { publishableHold: false, session: undefined };
  }
  const sharePercent = plan.publishableSharePercent;
  const taken = await tx.capacity.takeItemPlaces(item.session.id, count, sharePercent);
  if ('taken' in taken) {
    const session = { ...taken.taken, brandId: plan.brand.id, timezoneId: item.experience.timezoneId };
    return { publishableHold: sharePercent !== null, session };
  }
  if (taken.refused === 'share-exhausted') {
    throw new DomainError(
      'PUBLISHABLE_SHARE_EXHAUSTED',
      `Unpaid holds made through the public booking key may take at most ${sharePercent}% of the session at ${item.session.startLocal}, ` +
        'and that share is held; the places left can be booked by a checkout that pays at once, or through the brand',
      { field: `${field}.participants`, sharePercent },
    );
  }
  throw new DomainError('CAPACITY_EXCEEDED', `Not enough places are left on the session at ${item.session.startLocal}`, {
    field: `${field}.participants`,
  });
}

function holdExpiry(plan: CheckoutPlan): string {
  return new Date(plan.now.getTime() + plan.holdTtlSeconds * 1000).toISOString();
}

/** The first time an intent is asked about at its processor: after `checkAfterSeconds`, at the latest when its hold lapses. */
function processorCheckAt(plan: CheckoutPlan, checkAfterSeconds: number | null): string | null {
  if (checkAfterSeconds === null) return null;
  return new Date(plan.now.getTime() + Math.min(checkAfterSeconds, plan.holdTtlSeconds) * 1000).toISOString();
}

/** What checkout tells of each booking it wrote. */
export interface WrittenBooking {
  id: string;
  confirmationCode: string;
  status: BookingStatus;
}

/** What writeItem wrote, with the booking's view as its events show it (nothing later in the unit changes it). */
interface WrittenItem {
  written: WrittenBooking;
  view: Booking;
  /** Its place in the cart (the item's index): the order findCart lists the cart's bookings in. */
  position: number;
  /** Its session as its take left it (ItemPlaces). */
  session: SessionOfExperience | undefined;
}

async function writeItem(tx: Stores, plan: CheckoutPlan, item: PreparedItem, written: Written): Promise<WrittenItem> {
  const { publishableHold, session } = await takeItemPlaces(tx, plan, item, written);
  const id = randomUUID();
  // Without a processor intent (a free cart, or a method paid outside Tessera) nothing is pending: confirmed now.
  const settled = plan.intent === null;
  const people: ParticipantInsert[] = item.participants.map((p, position) => ({
    id: randomUUID(),
    bookingId: id,
    position,
    ...p,
    cancelledAt: null,
  }));
  const groups = [
    { participantId: null, answers: item.answers.purchaser },
    ...people.map((p, j) => ({ participantId: p.id, answers: item.answers.participants[j] ?? [] })),
  ];
  const { purchaser } = plan;
  const confirmationCode = await bookingCode(tx, plan, item, written.codes);
  const status = settled ? 'confirmed' : 'processing';
  const booking: BookingInsert = {
    id,
    brandId: plan.brand.id,
    cartId: plan.cartId,
    experienceId: item.experience.id,
    sessionId: item.session.id,
    sessionStartLocal: item.session.startLocal,
    paymentIntentId: written.intentId,
    confirmationCode,
    cartConfirmationCode: written.cartCode,
    cartPosition: item.index,
    status,
    currency: plan.brand.currency,
    amountMinor: item.pricing.totalMinor,
    pricing: item.pricing,
    paymentMethod: plan.payment.method,
    // Nothing taken now: the guest owes the whole amount, collected by the brand.
    amountDueMinor: plan.payment.charged ? 0 : item.pricing.totalMinor,
    chargedTo: plan.payment.chargedTo,
    purchaserId: purchaser.id,
    purchaserFirstName: purchaser.firstName,
    purchaserLastName: purchaser.lastName,
    purchaserEmail: purchaser.emailAddress,
    purchaserPhone: purchaser.phoneNumber,
    notes: item.notes,
    internalNotes: item.internalNotes,
    metadata: item.metadata,
    holdExpiresAt: settled ? null : holdExpiry(plan),
    publishableHold,
    createdAt: written.at,
    updatedAt: written.at,
  };
  const answers = answerRows(id, groups);
  await tx.checkout.insertBooking(booking, people, answers);
  for (const redemption of item.redemptions) {
    if (
      !(await tx.checkout.redeemCredit({
        id: randomUUID(),
        bookingId: id,
        creditCodeId: redemption.creditCodeId,
        amountMinor: redemption.amountMinor,
      }))
    ) {
      throw new DomainError('INVALID_CREDIT_CODE', `Credit code ${redemption.code}: applied value exceeds balance`, {
        field: redemption.field,
        creditCode: redemption.code,
      });
    }
  }
  // The view as findBookingRecords would read it now, built from the rows just inserted (nothing else in
  // the unit changes them); the experience's title and zone as the checkout read them.
  const view = toBooking({
    booking: { ...booking, amountRefundedMinor: 0 },
    experienceTitle: item.experience.title,
    timezone: item.experience.timezoneId,
    startLocal: item.session.startLocal,
    participants: people,
    answers,
  });
  // A free booking is confirmed as it is created: both events, each showing it confirmed.
  await recordBookingEventsOf(tx, [view], settled ? ['booking.created', 'booking.confirmed'] : ['booking.created'], written.at);
  if (item.waitlistEntryId) await markConverted(tx, item.waitlistEntryId, id, written.at);
  return { written: { id, confirmationCode, status }, view, position: item.index, session };
}

/**
 * The cart a checkout created and held for a card, as findCart would read it right after the commit: the
 * row as inserted (status open), the intent just written (the newest, so the current one), and the
 * bookings' views their events were made from, in cart order.
 */
function newHeldCart(plan: CheckoutPlan, confirmationCode: string, items: readonly WrittenItem[]): Cart {
  const views = [...items].sort((a, b) => a.position - b.position).map((item) => item.view);
  return {
    id: plan.cartId,
    brandId: plan.brand.id,
    confirmationCode,
    status: 'open',
    paymentIntentStatus: 'requires_payment',
    totalAmount: toDecimal(
      plan.items.reduce((sum, item) => sum + item.pricing.totalMinor, 0),
      plan.brand.currency,
    ),
    currency: plan.brand.currency,
    bookings: views,
  };
}

/**
 * The items' sessions as the unit left them (the last take's row for a session several items share), when it
 * knows them all: not when a place came from a waitlist offer, nor when the unit offered freed places.
 */
function sessionsLeft(items: readonly WrittenItem[], replacement: Replacement): SessionOfExperience[] {
  if (replacement.freed.size > 0 || items.some((item) => !item.session)) return [];
  return [...new Map(items.map((item) => [item.session!.session.id, item.session!])).values()];
}

/** What writeCheckout wrote: the cart's code and the new bookings, in item order, and what a face shows of them. */
export interface WrittenCheckout {
  cartConfirmationCode: string;
  bookings: WrittenBooking[];
  expiresAt?: string;
  heldCart?: Cart;
  /** The items' sessions as the unit left them (`sessionsLeft`); empty when it does not know them. */
  sessions: SessionOfExperience[];
}

/** Writes the checkout in one transaction. */
export async function writeCheckout(db: Database, plan: CheckoutPlan): Promise<WrittenCheckout> {
  return db.transaction(async (tx) => {
    const at = plan.now.toISOString();
    // First lock of the unit: racing checkouts of one client count its holds one after the other.
    if (plan.budget) await tx.checkout.lockHoldClient(plan.brand.id, plan.budget.client);
    // The cart's code (when it is created) and the codes of the items without an intended one.
    const codes = new FreshCodes(tx, plan.brand.id, 1 + plan.items.filter((item) => !item.intendedConfirmationCode).length);
    // Most checkouts find nothing lapsed: one question first (asking about the codes too), the sweeps only
    // when it finds something.
    const checks = await tx.checkout.checkoutChecks({ at, brandId: plan.brand.id, codes: codes.first });
    codes.answered(checks.codesInUse);
    if (checks.sweepDue) {
      await expireDueOffers(tx, plan.now, plan.waitlistOfferTtlSeconds);
      await expireDueHolds(tx, plan.now, plan.waitlistOfferTtlSeconds);
    }
    const replacement: Replacement = { replaced: new Set(), freed: new Set() };
    const intent: IntentInsert | undefined = plan.intent
      ? {
          id: plan.intent.id,
          brandId: plan.brand.id,
          cartId: plan.cartId,
          processor: plan.intent.processor,
          processorReference: plan.intent.reference,
          secretHash: hashSecret(plan.intent.clientSecret),
          amountMinor: plan.totalMinor,
          currency: plan.brand.currency,
          status: 'requires_payment',
          createdAt: at,
          updatedAt: at,
          processorCheckAt: processorCheckAt(plan, plan.intent.checkAfterSeconds),
        }
      : undefined;
    // A new cart is written with its intent; the budget's check counts the client's other carts only, so
    // it may come after (a refusal undoes the unit).
    const { code: cartCode, created } = await openCart(tx, plan, at, replacement, codes, intent);
    if (plan.budget) await plan.budget.check(tx, plan.now);
    if (intent && !created) await tx.checkout.insertPaymentIntent(intent);
    const intentId = intent?.id ?? null;
    const items: WrittenItem[] = [];
    for (const item of plan.items) items.push(await writeItem(tx, plan, item, { at, cartCode, intentId, codes, ...replacement }));
    if (!plan.intent) await tx.payments.markCartPaid(plan.cartId, at);
    for (const sessionId of replacement.freed) await offerFreedPlaces(tx, sessionId, plan.now, plan.waitlistOfferTtlSeconds);
    // Every unpaid booking of a checkout lapses at the same instant.
    const expiresAt = plan.intent ? holdExpiry(plan) : undefined;
    const heldCart = created && plan.intent ? newHeldCart(plan, cartCode, items) : undefined;
    return {
      cartConfirmationCode: cartCode,
      bookings: items.map((item) => item.written),
      ...(expiresAt ? { expiresAt } : {}),
      ...(heldCart ? { heldCart } : {}),
      sessions: sessionsLeft(items, replacement),
    };
  });
}
