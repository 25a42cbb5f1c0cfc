/**
 * A simple model of bookings under cancel, refund and payment events, written from the rules in docs/rest.md
 * ("Cancel and refund", "Payment") and the issue 3 and 16 decisions, not from the implementation. The model
 * test (test/unit/cancellation/cancellation-model.test.ts) predicts each answer with it and compares the database.
 *
 * Rules encoded here, in the order an item is judged:
 * 1. item shape, item by item: refundAmount > 0, participants non-empty without repeats, asking for
 *    something, else the item is VALIDATION_FAILED naming the field; an item naming a booking an earlier
 *    good item names is VALIDATION_FAILED on its bookingId; the other items go ahead;
 * 2. a booking not visible to the key is NOT_FOUND; a refundAmount with more decimals than the booking's
 *    currency is VALIDATION_FAILED (it is read in that currency);
 * 3. a failed booking is BOOKING_NOT_CANCELLABLE; a participant id not of the booking is
 *    PARTICIPANT_NOT_IN_BOOKING; a refund of an unpaid booking is BOOKING_NOT_PAID, one taking the refunded
 *    total above the amount REFUND_EXCEEDS_BALANCE; a declined refund PAYMENT_PROCESSOR_ERROR. Without a
 *    refund the item must change something: PARTICIPANT_ALREADY_CANCELLED when every participant named
 *    is, BOOKING_ALREADY_CANCELLED for `cancel` with none active. A failed item changes nothing;
 * 4. cancelling: processing, confirmed and refunded bookings change (a refunded one holds no places);
 *    the listed participants, else all with `cancel`; the booking is cancelled when none is left;
 * 5. the refund adds to amountRefunded; reaching the amount makes a confirmed/cancelled booking refunded;
 *    a confirmed one so refunded is cancelled with its refund: every active participant is cancelled
 *    (`booking.cancelled`), its places go back;
 * 6. places held on a session = active participants of its processing and confirmed bookings.
 * Holds: when they lapse, the sweeper fails processing bookings (places back) and cancels their intents
 * (README is silent on the intent; the cart shows it as `canceled`).
 * Payment events: a failure fails processing bookings of an intent awaiting payment; a success confirms a
 * processing booking, takes places again for a failed one (or refunds it in full when they are gone:
 * README's rule for a lapsed hold, applied alike to a booking whose payment failed before it succeeded),
 * refunds what is left of a cancelled one; repeats change nothing.
 * Every change records its events (README "Waitlists and events"), each showing the booking as the change
 * left it: `booking.cancelled` when the booking becomes cancelled, `booking.participants_cancelled` when
 * only some participants are, `booking.refunded` for every settled refund, `booking.confirmed`,
 * `booking.failed`; a change that changes nothing records nothing.
 */
export type Status = 'processing' | 'confirmed' | 'failed' | 'cancelled' | 'refunded';
export type IntentStatus = 'requires_payment' | 'succeeded' | 'failed' | 'canceled';

export interface MBooking {
  id: string;
  /** Whether the caller's key may see it (false: another organization's booking). */
  visible: boolean;
  currency: string;
  exponent: number;
  sessionId: string;
  amount: number;
  refunded: number;
  status: Status;
  intent: { status: IntentStatus; secret: string; reference: string } | null;
  participants: string[];
  active: Set<string>;
  declinedRefunds: number;
  /** Events recorded for the booking: type, and the status and amountRefunded (minor) their data shows. */
  events: BookingEvent[];
}

export interface BookingEvent {
  type: string;
  status: Status;
  refunded: number;
}

export interface Model {
  bookings: MBooking[];
  capacity: Map<string, number>;
  /** The processor declines the next refund it is asked for. */
  declineNext: boolean;
  refundCalls: Array<{ amountMinor: number; currency: string }>;
}

/** An item as sent, plus what the model needs to know about its refund amount. */
export interface ModelItem {
  bookingId: string;
  cancel?: true;
  participants?: string[];
  refundAmount?: number;
  /** The refund in minor units, or null when the decimal has too many places for the currency. */
  refundMinor?: number | null;
}

export interface ItemError {
  index: number;
  code: string;
  field?: string;
}

export interface Prediction {
  items: string[];
  errors: ItemError[];
}

const holds = (status: Status) => status === 'processing' || status === 'confirmed';

export function placesHeld(model: Model, sessionId: string): number {
  return model.bookings.filter((b) => b.sessionId === sessionId && holds(b.status)).reduce((sum, b) => sum + b.active.size, 0);
}

/** `minor` shown in a currency with `exponent` decimals, spelled as JSON would carry it. */
export function decimalOf(minor: number, exponent: number): number {
  if (exponent === 0) return minor;
  const digits = String(minor).padStart(exponent + 1, '0');
  return Number(`${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`);
}

/** The field of the first thing wrong with the item's shape, in the order the domain checks, or null. */
function shapeProblem(item: ModelItem, i: number): string | null {
  if (item.refundAmount !== undefined && !(item.refundAmount > 0)) return `bookings.${i}.refundAmount`;
  const listed = item.participants;
  if (listed && listed.length === 0) return `bookings.${i}.participants`;
  const duplicate = listed ? listed.findIndex((id, j) => listed.indexOf(id) !== j) : -1;
  if (duplicate >= 0) return `bookings.${i}.participants.${duplicate}`;
  if (!item.cancel && !listed && item.refundAmount === undefined) return `bookings.${i}`;
  return null;
}

/** The processor is asked for a refund: false when it declines (it then declines no further ones). */
function askProcessor(model: Model, booking: MBooking, amountMinor: number): boolean {
  model.refundCalls.push({ amountMinor, currency: booking.currency });
  if (!model.declineNext) return true;
  model.declineNext = false;
  booking.declinedRefunds += 1;
  return false;
}

/** Cancels what the item asks for; returns the event type of the change, if anything changed. */
function cancelParticipants(booking: MBooking, item: ModelItem): string | null {
  // A refunded booking keeps its guests until cancelled (the spec's table: any booking may be cancelled).
  if (booking.status === 'failed' || booking.status === 'cancelled') return null;
  const targets = item.participants ? item.participants.filter((id) => booking.active.has(id)) : item.cancel ? [...booking.active] : [];
  for (const id of targets) booking.active.delete(id);
  if (item.participants ? booking.active.size === 0 : item.cancel) {
    booking.status = 'cancelled';
    return 'booking.cancelled';
  }
  return targets.length > 0 ? 'booking.participants_cancelled' : null;
}

const record = (booking: MBooking, ...types: Array<string | null>) => {
  for (const type of types) if (type) booking.events.push({ type, status: booking.status, refunded: booking.refunded });
};

function judgeItem(model: Model, item: ModelItem, index: number): ItemError | null {
  const booking = model.bookings.find((b) => b.id === item.bookingId);
  if (!booking || !booking.visible) return { index, code: 'NOT_FOUND' };
  const refundField = `bookings.${index}.refundAmount`;
  if (item.refundAmount !== undefined && item.refundMinor === null) return { index, code: 'VALIDATION_FAILED', field: refundField };
  if (booking.status === 'failed') return { index, code: 'BOOKING_NOT_CANCELLABLE' };
  const stranger = (item.participants ?? []).findIndex((id) => !booking.participants.includes(id));
  if (stranger >= 0) return { index, code: 'PARTICIPANT_NOT_IN_BOOKING', field: `bookings.${index}.participants.${stranger}` };
  const refund = item.refundMinor ?? null;
  if (refund === null) {
    // Without a refund, the request must change something.
    if (item.participants && !item.participants.some((id) => booking.active.has(id))) {
      return { index, code: 'PARTICIPANT_ALREADY_CANCELLED', field: `bookings.${index}.participants` };
    }
    if (!item.participants && item.cancel && booking.active.size === 0) return { index, code: 'BOOKING_ALREADY_CANCELLED' };
  }
  if (refund !== null) {
    if (booking.intent?.status !== 'succeeded') return { index, code: 'BOOKING_NOT_PAID' };
    if (booking.refunded + refund > booking.amount) return { index, code: 'REFUND_EXCEEDS_BALANCE', field: refundField };
    if (!askProcessor(model, booking, refund)) return { index, code: 'PAYMENT_PROCESSOR_ERROR' };
    booking.refunded += refund;
  }
  let cancellation = cancelParticipants(booking, item);
  if (refund !== null && booking.refunded === booking.amount && (booking.status === 'confirmed' || booking.status === 'cancelled')) {
    if (booking.status === 'confirmed') {
      booking.active.clear();
      cancellation = 'booking.cancelled';
    }
    booking.status = 'refunded';
  }
  // One transaction settles the refund with its cancellation: both events show the booking after both.
  record(booking, cancellation, refund !== null ? 'booking.refunded' : null);
  return null;
}

/** What a cancel request answers, applying its effects to `model`. */
export function predictCancel(model: Model, items: readonly ModelItem[]): Prediction {
  const done: string[] = [];
  const errors: ItemError[] = [];
  // Each item on its own: a malformed one, or one naming a booking an earlier good item names, is an error.
  const named = new Set<string>();
  items.forEach((item, index) => {
    const problem = shapeProblem(item, index);
    if (problem !== null) return errors.push({ index, code: 'VALIDATION_FAILED', field: problem });
    if (named.has(item.bookingId)) return errors.push({ index, code: 'VALIDATION_FAILED', field: `bookings.${index}.bookingId` });
    named.add(item.bookingId);
    const error = judgeItem(model, item, index);
    if (error) errors.push(error);
    else done.push(item.bookingId);
  });
  return { items: done, errors };
}

/** Refunds what is left of a paid booking that cannot be honoured; the booking is cancelled first. */
function refundTheRest(model: Model, booking: MBooking): string[] {
  if (booking.status !== 'cancelled') {
    booking.status = 'cancelled';
    booking.active.clear();
    record(booking, 'booking.cancelled');
  }
  const left = booking.amount - booking.refunded;
  if (left === 0) return [];
  if (!askProcessor(model, booking, left)) return ['PAYMENT_PROCESSOR_ERROR'];
  booking.refunded = booking.amount;
  booking.status = 'refunded';
  record(booking, 'booking.refunded');
  return [];
}

/** What a succeeded payment does to one booking it pays for; returns the automatic refund's error, if any. */
function settlePaid(model: Model, booking: MBooking): string[] {
  switch (booking.status) {
    case 'processing':
      booking.status = 'confirmed';
      record(booking, 'booking.confirmed');
      return [];
    case 'failed': {
      const free = (model.capacity.get(booking.sessionId) ?? 0) - placesHeld(model, booking.sessionId);
      if (free < booking.active.size) return refundTheRest(model, booking);
      booking.status = 'confirmed';
      record(booking, 'booking.confirmed');
      return [];
    }
    case 'cancelled':
      return refundTheRest(model, booking);
    default:
      return [];
  }
}

/**
 * What a payment event for `intent` does to the bookings it pays for (in cart order): whether it changed
 * anything, and the automatic refunds' errors.
 */
export function predictPayment(
  model: Model,
  intent: NonNullable<MBooking['intent']>,
  outcome: 'succeeded' | 'failed',
): { changed: boolean; refundErrors: string[] } {
  const paidFor = model.bookings.filter((b) => b.intent === intent);
  if (outcome === 'failed') {
    if (intent.status !== 'requires_payment') return { changed: false, refundErrors: [] };
    intent.status = 'failed';
    for (const booking of paidFor.filter((b) => b.status === 'processing')) {
      booking.status = 'failed';
      record(booking, 'booking.failed');
    }
    return { changed: true, refundErrors: [] };
  }
  if (intent.status === 'succeeded') return { changed: false, refundErrors: [] };
  intent.status = 'succeeded';
  return { changed: true, refundErrors: paidFor.flatMap((booking) => settlePaid(model, booking)) };
}

/** The holds of processing bookings lapse and the sweeper runs. */
export function predictLapse(model: Model): void {
  for (const booking of model.bookings) {
    if (booking.status !== 'processing') continue;
    booking.status = 'failed';
    record(booking, 'booking.failed');
    if (booking.intent?.status === 'requires_payment') booking.intent.status = 'canceled';
  }
}
