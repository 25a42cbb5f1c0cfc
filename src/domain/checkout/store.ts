import type { AnswerRow, BookingRow, ParticipantRow } from '../bookings/store.ts';
import type { ApiKeyKind, PaymentIntentStatus } from '../shared/values.ts';
import type { BrandRow, ExperienceRow } from '../catalog/store.ts';
import type { AssignedQuestionRow } from '../questions/store.ts';
import type { SessionRow } from '../availability/store.ts';

export interface AddOnRow {
  id: string;
  experienceId: string;
  name: string;
  priceMinor: number;
  position: number;
}

export interface CouponRow {
  id: string;
  brandId: string;
  /** Upper-case; codes are matched case-insensitively. */
  code: string;
  percentOffBasisPoints: number | null;
  amountOffMinor: number | null;
  validFrom: string | null;
  validUntil: string | null;
  active: boolean;
}

export interface CreditCodeRow {
  id: string;
  brandId: string;
  code: string;
  balanceMinor: number;
}

/** An experience with what pricing a cart item of it needs. */
export interface CheckoutExperience {
  experience: ExperienceRow;
  /** By position. */
  priceTiers: Array<{ name: string; priceMinor: number }>;
  /** By position, then id. */
  addOns: AddOnRow[];
  /** By position. */
  taxes: Array<{ name: string; rateBasisPoints: number }>;
}

/** Where a cart item asks for a session: its experience and local start (`YYYY-MM-DDTHH:MM:SS`, the experience's zone). */
export interface ItemStart {
  experienceId: string;
  startLocal: string;
}

/** A session a cart item names, with the places `processing` bookings whose hold lapsed keep on it until swept. */
export interface ItemSession {
  session: SessionRow;
  lapsedPlaces: number;
}

/** What a cart's `processing` bookings hold: places per session and credit per code. */
export interface CartHolds {
  places: Array<{ sessionId: string; count: number }>;
  credits: Array<{ creditCodeId: string; amountMinor: number }>;
}

/** What a checkout reads before its unit of work, named by its request. */
export interface CheckoutReadRequest {
  brandId: string;
  cartId: string;
  /** The items' experiences. */
  experienceIds: readonly string[];
  /** The items' sessions whose local start is known before their experience is (`findItemSessions`). */
  starts: readonly ItemStart[];
  /** ISO 8601 UTC: the instant holds are counted at. */
  at: string;
}

/**
 * Everything a checkout reads before its unit, each part exactly as its own method answers it: the brand
 * (`BrandsStore.findBrand`), the experiences' active questions (`QuestionsStore.activeQuestionsOfExperiences`)
 * when the brand has the `customQuestions` feature (none without: it asks none), the cart's holds (`holdsOfCart`), the experiences
 * (`findCheckoutExperiences`) and the sessions of `starts` (`findItemSessions`).
 */
export interface CheckoutReads {
  brand: BrandRow | undefined;
  questions: AssignedQuestionRow[];
  holds: CartHolds;
  experiences: CheckoutExperience[];
  sessions: ItemSession[];
}

/** Who holds a cart's places from a checkout on: the key's kind and, for a publishable key, the client (else null). */
export interface CartHolder {
  keyKind: ApiKeyKind;
  client: string | null;
}

/** What one client holds unpaid in a brand. */
export interface ClientHolds {
  /**
   * Active participants of the client's `processing` bookings whose hold has not lapsed, and of its bookings
   * confirmed with an amount due (`publishableHold`, a method the brand collects) whose session has not started.
   */
  places: number;
  /** When the first of those stops counting (a hold's `holdExpiresAt`, a session's start; ISO 8601 UTC); null when it holds nothing. */
  oldestExpiresAt: string | null;
}

/** A new payment intent (the cart's next checkout attempt). */
export type IntentInsert = {
  id: string;
  brandId: string;
  cartId: string;
  processor: string;
  /** The processor's own id of the intent. */
  processorReference: string;
  secretHash: string;
  amountMinor: number;
  currency: string;
  status: PaymentIntentStatus;
  createdAt: string;
  updatedAt: string;
  /** When to ask the processor about the intent first (payments/intent-reconciler.ts); absent or null: never. */
  processorCheckAt?: string | null;
};

/** A new booking: every column but the refunded amount, which starts at 0. */
export type BookingInsert = Omit<BookingRow, 'amountRefundedMinor'>;

export type ParticipantInsert = ParticipantRow;

export type AnswerInsert = AnswerRow;

/** A `processing` booking with the places it holds. */
export interface HeldBooking {
  id: string;
  sessionId: string;
  paymentIntentId: string | null;
  /** Active participants: the places the booking holds on its session. */
  places: number;
  /** Whether those places count in the session's publishable share (`BookingRow.publishableHold`). */
  publishableHold: boolean;
}

export interface CheckoutStore {
  /**
   * What a checkout reads before its unit of work, at once (a hot path: one question to the database where
   * it can ask several things in one). Read outside a unit, nothing of it is trusted for places or money:
   * the unit's guards decide.
   */
  readCheckout(request: CheckoutReadRequest): Promise<CheckoutReads>;
  /**
   * The experiences of `ids` that exist, by id (byte order), each with its price tiers, add-ons and taxes:
   * what a quote or checkout reads of its items' experiences, at once (a hot path).
   */
  findCheckoutExperiences(ids: readonly string[]): Promise<CheckoutExperience[]>;
  /**
   * The sessions starting at `starts` that exist, by experience id (byte order), then start, each with the
   * places held on it by `processing` bookings whose hold lapsed at or before `at` but is not swept yet:
   * what a quote or checkout reads of its items' sessions, at once (a hot path).
   */
  findItemSessions(starts: readonly ItemStart[], at: string): Promise<ItemSession[]>;
  /** The brand's coupon with `code` (coupon codes are stored upper-case). */
  findCoupon(brandId: string, upperCode: string): Promise<CouponRow | undefined>;
  /** The brand's credit codes among `upperCodes`, compared upper-case; by code. */
  creditCodesByCode(brandId: string, upperCodes: readonly string[]): Promise<CreditCodeRow[]>;
  /**
   * What the cart's `processing` bookings hold, all of which a new checkout gives back: places of holds
   * still running at `at` (lapsed ones are counted with the session's lapsed places), by session id, and
   * credit per code, by credit code id.
   */
  holdsOfCart(brandId: string, cartId: string, at: string): Promise<CartHolds>;
  /** The cart's `processing` bookings: checkouts in creation order, each in its items' order, then by id. */
  processingBookingIdsOfCart(cartId: string): Promise<string[]>;
  /** The cart's intents still awaiting payment become `canceled`. */
  cancelOpenIntentsOfCart(cartId: string, at: string): Promise<void>;
  /** Whether a booking or a cart of the brand already has `code`. */
  confirmationCodeInUse(brandId: string, code: string): Promise<boolean>;
  /**
   * Whether anything a checkout sweeps first lapsed by `at`: a waitlist offer still `offered`, or a
   * `processing` booking's hold. One question, so a checkout with nothing to sweep asks only it.
   */
  sweepDue(at: string): Promise<boolean>;
  /**
   * What a checkout's unit asks first, in one question: `sweepDue(at)`, and `confirmationCodesInUse(brandId, codes)`
   * for the codes it drew.
   */
  checkoutChecks(request: {
    at: string;
    brandId: string;
    codes: readonly string[];
  }): Promise<{ sweepDue: boolean; codesInUse: Set<string> }>;
  /** Which of `codes` a booking or a cart of the brand already has (one question for a checkout's codes). */
  confirmationCodesInUse(brandId: string, codes: readonly string[]): Promise<Set<string>>;
  /**
   * Frees `code` when a `failed` booking of the same cart (an earlier, replaced checkout) holds it, by
   * suffixing that booking's code with `~` and a part of its id: a re-post may reuse its intended code.
   */
  releaseCodeOfReplacedBooking(cartId: string, code: string): Promise<void>;
  /**
   * A new open cart, its places held by `holder` (holdCartFor), and with `intent` its first checkout attempt
   * (attempt 1), in one step; true. When a cart with its id exists (or one being inserted by another unit
   * commits meanwhile), nothing is written: false, and a unit then takes that cart (`findCartRow`).
   */
  insertCart(
    row: { id: string; brandId: string; confirmationCode: string; at: string; holder: CartHolder },
    intent?: IntentInsert,
  ): Promise<boolean>;
  /**
   * Records who holds the cart's places from this checkout on, and `at` as its last change. Call it in the
   * unit that took the cart (one that created it names its holder in insertCart).
   */
  holdCartFor(cartId: string, holder: CartHolder, at: string): Promise<void>;
  /**
   * Inside a unit of work: the unit becomes the only one counting and taking holds of `client` in `brandId`
   * until it ends; another unit asking for the same client and brand waits until then, on any gateway, and
   * then sees what the first committed. Take it before any row (it is first in the lock order): units
   * holding it wait only for rows, and no unit holding a row waits for it. Outside a unit it does nothing.
   */
  lockHoldClient(brandId: string, client: string): Promise<void>;
  /**
   * What `client` holds unpaid in `brandId` at `at`, apart from cart `exceptCartId`'s bookings, among the
   * bookings of carts it holds (`holdCartFor`): the `processing` ones whose hold lapses after `at`, and the
   * `confirmed` ones with `publishableHold` and an amount due whose session starts after `at`.
   */
  clientHolds(brandId: string, client: string, at: string, exceptCartId: string): Promise<ClientHolds>;
  /**
   * Inserts the cart's next checkout attempt (`attempt` = the cart's highest + 1). Call it in a unit of work
   * that took the cart (`findCartRow`) or created it (`insertCart`): racing checkouts then number attempts in turn.
   */
  insertPaymentIntent(row: IntentInsert): Promise<void>;
  /**
   * Writes a booking with its participants and answers. Several writes: call it inside a unit of work,
   * which makes them all or none (checkout does), as every multi-row write of the port.
   */
  insertBooking(booking: BookingInsert, people: readonly ParticipantInsert[], answerRows: readonly AnswerInsert[]): Promise<void>;
  /**
   * Takes `amountMinor` from a credit code and records the redemption, if its balance covers it; false
   * (nothing changed) otherwise.
   */
  redeemCredit(row: { id: string; bookingId: string; creditCodeId: string; amountMinor: number }): Promise<boolean>;
}

export interface HoldsStore {
  /**
   * Those of `ids` that are still `processing`, in the order `lapsedHolds` gives. Inside a unit of work
   * the bookings found are the unit's (see `Database.transaction`), so of racing units failing them only
   * one finds them still processing; the same for `lapsedHolds`.
   */
  processingBookings(ids: readonly string[]): Promise<HeldBooking[]>;
  /** `processing` bookings whose hold lapsed at or before `at` (ISO 8601 UTC), by hold expiry, then creation, then cart position, then id. */
  lapsedHolds(at: string): Promise<HeldBooking[]>;
  /** `processing` -> `failed`; the guard keeps a booking that moved on meanwhile untouched. */
  markBookingsFailed(ids: readonly string[], at: string): Promise<void>;
  /** Adds the credit the bookings redeemed back to each code's balance and forgets the redemptions. */
  returnCreditRedemptions(bookingIds: readonly string[]): Promise<void>;
  /**
   * Of `ids`, the intents still `requires_payment` with no `processing` booking left become `canceled`:
   * nothing they could pay for is held any more.
   */
  cancelIntentsWithoutHolds(ids: readonly string[], at: string): Promise<void>;
}
