import type { ApiKeyKind, BookingStatus, CartStatus, PaymentIntentStatus, PaymentMethod } from '../shared/values.ts';
import type { AnswerValueJson, PricingBreakdown, QuestionSnapshotJson } from '../shared/json-types.ts';

export interface BookingWithContext {
  booking: BookingRow;
  experienceTitle: string;
  timezone: string;
  startLocal: string;
}

export type ParticipantRow = {
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
};

export type AnswerRow = {
  id: string;
  bookingId: string;
  /** Null for purchaser-scoped answers. */
  participantId: string | null;
  question: QuestionSnapshotJson;
  answer: AnswerValueJson[];
  position: number;
};

/** What a back-office booking list is narrowed to: one brand, optionally a status and a session-start range. */
export interface BookingFilter {
  brandId: string;
  status?: BookingRow['status'] | null;
  /** Sessions starting at or after this local date-time (`YYYY-MM-DDTHH:MM:SS`). */
  startFrom?: string | null;
  /** Sessions starting strictly before this local date-time. */
  startBefore?: string | null;
}

/** A position in newest-first order: the last booking seen. */
export interface BookingKey {
  createdAt: string;
  id: string;
}

export interface BookingRow {
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
  amountRefundedMinor: number;
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
  /**
   * An unpaid hold a publishable key took from places on sale: while `processing`, its active participants count
   * in the session's `publishableHeld`.
   */
  publishableHold: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CartRow {
  id: string;
  brandId: string;
  /** Shared by every booking of the cart (`cartConfirmationCode`). */
  confirmationCode: string;
  status: CartStatus;
  createdAt: string;
  updatedAt: string;
  /** The kind of key whose checkout holds the cart's places now; null before its first checkout. */
  holdKeyKind: ApiKeyKind | null;
  /** For a publishable key, the client holding them (an HMAC of its address); null otherwise. */
  holdClient: string | null;
}

/** What reading a cart needs of a payment intent (never its secret hash). */
export interface CartIntentRow {
  id: string;
  status: PaymentIntentStatus;
  createdAt: string;
}

/** What choosing a cart's current bookings needs of each booking. */
export type CartBookingRow = Pick<BookingRow, 'id' | 'paymentIntentId' | 'amountMinor'>;

/** Every checkout of a cart: what telling the current one needs. */
export interface CartCheckouts {
  /** The cart's payment intents, the current (latest) checkout's first. */
  intents: CartIntentRow[];
  /** Every booking ever created for the cart: checkouts in creation order, each in its items' order. */
  bookings: CartBookingRow[];
}

/** A booking with all its view shows: the session's start, the experience's title and zone, its participants and answers. */
export interface BookingRecord extends BookingWithContext {
  /** By position. */
  participants: ParticipantRow[];
  /** By position. */
  answers: AnswerRow[];
}

export interface BookingsStore {
  /**
   * The bookings of `ids` that exist, by id (byte order), each with its participants and answers. Every
   * booking view is built from it (each booking event's payload too): a hot path, read at once.
   */
  findBookingRecords(ids: readonly string[]): Promise<BookingRecord[]>;
  /**
   * Up to `limit` of the bookings matching `filter`, newest first (creation time, then id, both
   * descending): those after `after` in that order, or from the newest when it is null.
   */
  findBookingPage(filter: BookingFilter, after: BookingKey | null, limit: number): Promise<BookingKey[]>;
  /** How many bookings match, and how many of them sit at or before `after` in newest-first order, read together (from one state of the data). */
  countBookings(filter: BookingFilter, after: BookingKey | null): Promise<{ total: number; before: number }>;
}

export interface CartsStore {
  findCartRow(cartId: string): Promise<CartRow | undefined>;
  /** The cart's intents and bookings, read at once (every cart view and every payment asks). */
  checkoutsOfCart(cartId: string): Promise<CartCheckouts>;
}

/** What moving a booking to another session needs to know of it. */
export type ReschedulableBooking = Pick<
  BookingRow,
  'id' | 'brandId' | 'status' | 'experienceId' | 'sessionId' | 'sessionStartLocal' | 'publishableHold' | 'paymentMethod'
> & {
  /** Participants not cancelled: the places the booking holds, and takes on the new session. */
  activeParticipants: number;
  /** How many times it was moved already. */
  reschedules: number;
};

/** One move of a booking: from where, to where, when, by which API key. */
export interface RescheduleRecord {
  id: string;
  bookingId: string;
  /** 1 for the booking's first move, 2 for its second... */
  sequence: number;
  fromSessionId: string;
  fromStartLocal: string;
  toSessionId: string;
  toStartLocal: string;
  apiKeyId: string;
  at: string;
}

export interface ReschedulesStore {
  findReschedulable(bookingId: string): Promise<ReschedulableBooking | undefined>;
  /**
   * Puts the booking on `to` (its session and the local start copied onto it). A move is the brand's: the
   * booking no longer stands for places a publishable key left unpaid (`publishableHold` becomes false).
   */
  moveBooking(bookingId: string, to: { sessionId: string; startLocal: string }, at: string): Promise<void>;
  recordReschedule(row: RescheduleRecord): Promise<void>;
  /** The moves of the bookings: by booking id, each booking's in order (by `sequence`). */
  reschedulesOfBookings(bookingIds: readonly string[]): Promise<RescheduleRecord[]>;
}
