/**
 * The shape rules of a cancel request, checked in the domain so REST and GraphQL refuse the same input
 * the same way. REST's JSON Schema checks only the envelope: each item is checked here, on its own.
 */
import { MAX_PARTICIPANTS } from '../checkout/input.ts';
import { DomainError, invalid } from '../shared/errors.ts';

export const MAX_CANCEL_ITEMS = 100;
/** Participant ids per item: a booking holds at most this many participants. */
export const MAX_CANCEL_PARTICIPANTS = MAX_PARTICIPANTS;

export interface CancelItem {
  bookingId: string;
  cancel: boolean;
  participantIds: string[] | null;
  /** The decimal as sent; converted with the booking's currency once the booking is known. */
  refundAmount: number | null;
}

/** One item as read from the request: what it asks for, or why it cannot be processed. */
export type ParsedCancelItem = { index: number; item: CancelItem } | { index: number; bookingId: string | undefined; error: DomainError };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const itemFields = new Set(['bookingId', 'cancel', 'participants', 'refundAmount']);

const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);

function participantIds(value: unknown, field: string): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw invalid(field, `${field} must be an array of participant ids`);
  if (value.length === 0) throw invalid(field, `${field} must name at least one participant (omit it to cancel the whole booking)`);
  if (value.length > MAX_CANCEL_PARTICIPANTS) throw invalid(field, `${field} must name at most ${MAX_CANCEL_PARTICIPANTS} participants`);
  const stranger = value.findIndex((id) => !isUuid(id));
  if (stranger >= 0) throw invalid(`${field}.${stranger}`, `${field}.${stranger} must be a UUID`);
  // Ids match in any case, as in paths (src/rest/validation.ts): stored ids are lower-case.
  const ids = (value as string[]).map((id) => id.toLowerCase());
  const duplicate = ids.findIndex((id, j) => ids.indexOf(id) !== j);
  if (duplicate >= 0) throw invalid(`${field}.${duplicate}`, `${field} names participant ${ids[duplicate]} twice`);
  return [...ids];
}

function parseItem(raw: unknown, field: string): CancelItem {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(field, `${field} must be an object`);
  const item = raw as Record<string, unknown>;
  const unknownField = Object.keys(item).find((key) => !itemFields.has(key));
  if (unknownField !== undefined) throw invalid(`${field}.${unknownField}`, `${field}.${unknownField} is not a known field`);
  if (item.bookingId === undefined || item.bookingId === null) throw invalid(`${field}.bookingId`, `${field}.bookingId is required`);
  if (!isUuid(item.bookingId)) throw invalid(`${field}.bookingId`, `${field}.bookingId must be a UUID`);
  const cancel = item.cancel ?? null;
  if (cancel !== null && cancel !== true) {
    throw invalid(`${field}.cancel`, `${field}.cancel only accepts true; omit it to keep the booking`);
  }
  const refund = item.refundAmount ?? null;
  if (refund !== null && !(typeof refund === 'number' && Number.isFinite(refund) && refund > 0)) {
    throw invalid(`${field}.refundAmount`, `${field}.refundAmount must be a number greater than 0`);
  }
  const parsed: CancelItem = {
    bookingId: item.bookingId.toLowerCase(),
    cancel: cancel === true,
    participantIds: participantIds(item.participants, `${field}.participants`),
    refundAmount: refund,
  };
  if (!parsed.cancel && parsed.participantIds === null && parsed.refundAmount === null) {
    throw invalid(field, `${field} must ask for at least one of cancel, participants or refundAmount`);
  }
  return parsed;
}

/**
 * The request's items, each checked on its own (the spec: "each item is processed independently"): an
 * item that is malformed, or names a booking an earlier item already names, is reported and the others
 * go ahead. Only the envelope, 1 to 100 items, is refused as a whole.
 */
export function parseCancelItems(items: unknown): ParsedCancelItem[] {
  if (!Array.isArray(items)) throw invalid('bookings', 'bookings must be an array of items');
  if (items.length < 1 || items.length > MAX_CANCEL_ITEMS) {
    throw invalid('bookings', `bookings must hold 1 to ${MAX_CANCEL_ITEMS} items`);
  }
  const firstItemOf = new Map<string, number>();
  return items.map((raw: unknown, index): ParsedCancelItem => {
    const field = `bookings.${index}`;
    const named = (raw as { bookingId?: unknown } | null)?.bookingId;
    const bookingId = typeof named === 'string' ? named : undefined;
    try {
      const item = parseItem(raw, field);
      const id = item.bookingId.toLowerCase();
      const first = firstItemOf.get(id);
      if (first !== undefined) {
        throw invalid(`${field}.bookingId`, `Booking ${item.bookingId} is already named by bookings.${first}; combine the two items`);
      }
      firstItemOf.set(id, index);
      return { index, item };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { index, bookingId, error };
    }
  });
}
