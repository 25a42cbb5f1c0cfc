import type { BookingStatus, PaymentIntentStatus, PaymentMethod } from '../../domain/shared/values.ts';
import type { AnswerValueJson, PricingBreakdown, QuestionSnapshotJson } from '../../domain/shared/json-types.ts';

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

/** What a cart's `processing` bookings hold: places per session and credit per code. */
export interface CartHolds {
  places: Array<{ sessionId: string; count: number }>;
  credits: Array<{ creditCodeId: string; amountMinor: number }>;
}

export interface IntentInsert {
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
}

export interface BookingInsert {
  id: string;
  brandId: string;
  cartId: string | null;
  experienceId: string;
  sessionId: string;
  /** The session's local start, copied so back-office date filters are one index range. */
  sessionStartLocal: string;
  paymentIntentId: string | null;
  confirmationCode: string;
  cartConfirmationCode: string | null;
  /** Position of the item in its cart (0-based), so a cart lists its bookings in item order. */
  cartPosition: number;
  status: BookingStatus;
  currency: string;
  amountMinor: number;
  /** How the amount was reached (tiers, add-ons, discounts, taxes), in minor units. */
  pricing: PricingBreakdown;
  paymentMethod: PaymentMethod;
  /** What the guest still owes, collected outside Tessera (pay upon arrival, pay later, room or member charge); 0 when paid by card. */
  amountDueMinor: number;
  /** The room or member number charged (room-charge, member-number); null otherwise. */
  chargedTo: string | null;
  purchaserId: string;
  purchaserFirstName: string;
  purchaserLastName: string;
  purchaserEmail: string | null;
  purchaserPhone: string | null;
  notes: string | null;
  internalNotes: string | null;
  metadata: Record<string, unknown> | null;
  /** While `processing`: when the hold lapses and the booking fails. */
  holdExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ParticipantInsert {
  id: string;
  bookingId: string;
  position: number;
  firstName: string;
  lastName: string;
  emailAddress: string | null;
  phoneNumber: string | null;
  priceTierName: string;
  priceMinor: number;
  cancelledAt: string | null;
}

export interface AnswerInsert {
  id: string;
  bookingId: string;
  /** Null for purchaser-scoped answers. */
  participantId: string | null;
  question: QuestionSnapshotJson;
  answer: AnswerValueJson[];
  position: number;
}

/** A `processing` booking with the places it holds. */
export interface HeldBooking {
  id: string;
  sessionId: string;
  paymentIntentId: string | null;
  /** Active participants: the places the booking holds on its session. */
  places: number;
}

export interface CheckoutStore {
  addOnsOfExperience(experienceId: string): Promise<AddOnRow[]>;
  /** The brand's coupon with `code` (coupon codes are stored upper-case). */
  findCoupon(brandId: string, upperCode: string): Promise<CouponRow | undefined>;
  /** The brand's credit codes among `upperCodes`, compared upper-case. */
  creditCodesByCode(brandId: string, upperCodes: readonly string[]): Promise<CreditCodeRow[]>;
  /**
   * What the cart's `processing` bookings hold, all of which a new checkout gives back: places of holds
   * still running at `at` (lapsed ones are counted with the session's lapsed places) and credit per code.
   */
  holdsOfCart(brandId: string, cartId: string, at: string): Promise<CartHolds>;
  processingBookingIdsOfCart(cartId: string): Promise<string[]>;
  /** The cart's intents still awaiting payment become `canceled`. */
  cancelOpenIntentsOfCart(cartId: string, at: string): Promise<void>;
  /** Whether a booking or a cart of the brand already has `code`. */
  confirmationCodeInUse(brandId: string, code: string): Promise<boolean>;
  /**
   * Frees `code` when a `failed` booking of the same cart (an earlier, replaced checkout) holds it, by
   * suffixing that booking's code with `~` and a part of its id: a re-post may reuse its intended code.
   */
  releaseCodeOfReplacedBooking(cartId: string, code: string): Promise<void>;
  insertCart(row: { id: string; brandId: string; confirmationCode: string; at: string }): Promise<void>;
  touchCart(cartId: string, at: string): Promise<void>;
  /** Inserts the cart's next checkout attempt (`attempt` = the cart's highest + 1). */
  insertPaymentIntent(row: IntentInsert): Promise<void>;
  /** A booking with its participants and answers (one prepared single-row insert each), written together. */
  insertBooking(booking: BookingInsert, people: readonly ParticipantInsert[], answerRows: readonly AnswerInsert[]): Promise<void>;
  /**
   * Takes `amountMinor` from a credit code and records the redemption, if its balance covers it; false
   * (nothing changed) otherwise.
   */
  redeemCredit(row: { id: string; bookingId: string; creditCodeId: string; amountMinor: number }): Promise<boolean>;
}

export interface HoldsStore {
  /** Those of `ids` that are still `processing`. */
  processingBookings(ids: readonly string[]): Promise<HeldBooking[]>;
  /** `processing` bookings whose hold lapsed at or before `at` (ISO 8601 UTC): one range of the hold index. */
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
  /**
   * Places held on a session by `processing` bookings whose hold lapsed at or before `at` but is not swept
   * yet. Every quote and checkout item asks: prepared once.
   */
  lapsedPlaces(sessionId: string, at: string): Promise<number>;
}
