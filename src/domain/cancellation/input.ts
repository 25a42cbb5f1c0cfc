/**
 * The shape rules of a cancel request, checked in the domain so REST and GraphQL refuse the same input
 * the same way (REST's JSON Schema catches most of it first, with the same field names).
 */
import { MAX_PARTICIPANTS } from '../checkout/input.ts';
import { invalid } from '../shared/errors.ts';

export const MAX_CANCEL_ITEMS = 100;
/** Participant ids per item: a booking holds at most this many participants. */
export const MAX_CANCEL_PARTICIPANTS = MAX_PARTICIPANTS;

/** One item as either face receives it; GraphQL sends null for omitted fields. */
export interface CancelItemInput {
  bookingId: string;
  cancel?: boolean | null;
  participants?: readonly string[] | null;
  refundAmount?: number | null;
}

export interface CancelItem {
  bookingId: string;
  cancel: boolean;
  participantIds: string[] | null;
  /** The decimal as sent; converted with the booking's currency once the booking is known. */
  refundAmount: number | null;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkUuid(value: string, field: string): void {
  if (!uuidPattern.test(value)) throw invalid(field, `${field} must be a UUID`);
}

function participantIds(value: readonly string[] | null | undefined, field: string): string[] | null {
  if (value === null || value === undefined) return null;
  if (value.length === 0) throw invalid(field, `${field} must name at least one participant (omit it to cancel the whole booking)`);
  if (value.length > MAX_CANCEL_PARTICIPANTS) throw invalid(field, `${field} must name at most ${MAX_CANCEL_PARTICIPANTS} participants`);
  value.forEach((id, j) => checkUuid(id, `${field}.${j}`));
  const duplicate = value.findIndex((id, j) => value.indexOf(id) !== j);
  if (duplicate >= 0) throw invalid(`${field}.${duplicate}`, `${field} names participant ${value[duplicate]} twice`);
  return [...value];
}

function parseItem(item: CancelItemInput, field: string): CancelItem {
  checkUuid(item.bookingId, `${field}.bookingId`);
  if (item.cancel === false) throw invalid(`${field}.cancel`, `${field}.cancel only accepts true; omit it to keep the booking`);
  const refund = item.refundAmount ?? null;
  if (refund !== null && !(Number.isFinite(refund) && refund > 0)) {
    throw invalid(`${field}.refundAmount`, `${field}.refundAmount must be a number greater than 0`);
  }
  const parsed: CancelItem = {
    bookingId: item.bookingId,
    cancel: item.cancel === true,
    participantIds: participantIds(item.participants, `${field}.participants`),
    refundAmount: refund,
  };
  if (!parsed.cancel && parsed.participantIds === null && parsed.refundAmount === null) {
    throw invalid(field, `${field} must ask for at least one of cancel, participants or refundAmount`);
  }
  return parsed;
}

/** The request's items, checked: 1 to 100 of them, each asking for something, no booking twice. */
export function parseCancelItems(items: readonly CancelItemInput[]): CancelItem[] {
  if (items.length < 1 || items.length > MAX_CANCEL_ITEMS) {
    throw invalid('bookings', `bookings must hold 1 to ${MAX_CANCEL_ITEMS} items`);
  }
  const parsed = items.map((item, i) => parseItem(item, `bookings.${i}`));
  const seen = new Set<string>();
  parsed.forEach((item, i) => {
    const id = item.bookingId.toLowerCase();
    if (seen.has(id)) throw invalid(`bookings.${i}.bookingId`, `Booking ${item.bookingId} appears in more than one item; combine them`);
    seen.add(id);
  });
  return parsed;
}
