import { Type } from 'typebox';
import { MAX_CANCEL_ITEMS, MAX_CANCEL_PARTICIPANTS } from '../../domain/cancellation/input.ts';
import { Booking } from './bookings.ts';
import { MoneyInput, Uuid, ref } from './common.ts';

const CancelItem = Type.Object(
  {
    bookingId: Type.String({ format: 'uuid', description: "The booking's id, not its confirmation code" }),
    cancel: Type.Optional(Type.Literal(true, { description: 'Cancels the whole booking (only `true` is allowed; omit otherwise)' })),
    participants: Type.Optional(
      Type.Array(Uuid, {
        minItems: 1,
        maxItems: MAX_CANCEL_PARTICIPANTS,
        uniqueItems: true,
        description: 'Participant ids to cancel; only these are cancelled, even with `cancel: true`. Omit to cancel the whole booking',
      }),
    ),
    refundAmount: Type.Optional(MoneyInput('Amount to refund', { exclusiveMinimum: 0 })),
  },
  { additionalProperties: false, description: 'At least one of cancel, participants, refundAmount' },
);

export const CancelItemError = Type.Object(
  {
    index: Type.Integer({ description: 'Position of the item in the request, from 0' }),
    bookingId: Type.Optional(
      Type.String({ description: "The item's `bookingId` as sent; absent when the item had none (or not a string)" }),
    ),
    code: Type.String({
      description:
        'NOT_FOUND, BOOKING_NOT_CANCELLABLE, BOOKING_NOT_PAID, PARTICIPANT_NOT_IN_BOOKING, REFUND_EXCEEDS_BALANCE, PAYMENT_PROCESSOR_ERROR, VALIDATION_FAILED',
    }),
    message: Type.String(),
    field: Type.Optional(Type.String({ description: 'The input field concerned, e.g. `bookings.2.participants.0`' })),
  },
  { $id: 'CancelItemError', description: 'A cancel item that failed: nothing changed for it' },
);

/** What the route itself checks: the envelope. The domain checks each item on its own (src/domain/cancellation/input.ts). */
export const cancelEnvelope = Type.Object(
  { bookings: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_CANCEL_ITEMS }) },
  { additionalProperties: false },
);

export const cancelBookingsSchema = {
  tags: ['Bookings'],
  operationId: 'cancelBookings',
  summary: 'Cancel bookings',
  description:
    'Cancels bookings or some of their participants, and refunds, item by item. Each item is checked and processed ' +
    'on its own: the answer is 200 with the updated bookings in `items` (request order) and the failed items in ' +
    '`errors` (a malformed item, a booking already named by an earlier item, an unknown booking, a refused change), ' +
    'even when every item failed; nothing changed for a failed item. Only a malformed envelope (`bookings` missing, ' +
    'not an array, empty, over 100 items, an unknown top-level field) is a 400. Send an `Idempotency-Key` header to ' +
    'retry safely.',
  body: Type.Object({ bookings: Type.Array(CancelItem, { minItems: 1, maxItems: MAX_CANCEL_ITEMS }) }, { additionalProperties: false }),
  response: {
    200: Type.Object(
      { items: Type.Array(ref(Booking)), errors: Type.Array(ref(CancelItemError)) },
      { description: 'The bookings updated and the items that failed' },
    ),
  },
};
