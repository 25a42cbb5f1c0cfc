import { Type } from 'typebox';
import { bookingStatuses, cartStatuses, paymentIntentStatuses, paymentMethods } from '../../domain/shared/values.ts';
import { DateTime, Nullable, Uuid, errorResponses, ref } from './common.ts';
import { QuestionSnapshot } from './questions.ts';

const AnswerValue = Type.Object({
  value: Type.Union([Type.String(), Type.Array(Type.String()), Type.Boolean(), Type.Null()]),
  key: Type.Optional(Nullable(Type.String())),
});

const CustomQuestionAnswer = Type.Object({
  id: Type.String(),
  answer: Type.Array(AnswerValue),
  question: ref(QuestionSnapshot),
});

const Purchaser = Type.Object({
  id: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  emailAddress: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  customQuestionAnswers: Type.Optional(Type.Array(CustomQuestionAnswer)),
});

const Participant = Type.Object({
  id: Uuid,
  firstName: Type.String(),
  lastName: Type.String(),
  emailAddress: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  priceTierName: Type.String(),
  cancelledAt: Nullable(DateTime),
  customQuestionAnswers: Type.Optional(Type.Array(CustomQuestionAnswer)),
});

/** The spec's Booking resource, field for field. */
export const Booking = Type.Object(
  {
    id: Type.String(),
    confirmationCode: Type.String(),
    cartId: Nullable(Uuid),
    cartConfirmationCode: Nullable(Type.String()),
    amount: Type.Number(),
    currency: Type.String(),
    amountRefunded: Type.Number(),
    status: Type.Enum(bookingStatuses),
    purchaser: Purchaser,
    participants: Type.Array(Participant),
    paymentMethod: Type.Enum(paymentMethods),
    createdAt: DateTime,
    notes: Nullable(Type.String()),
    internalNotes: Nullable(Type.String()),
    event: Type.Object({ timezone: Type.String(), startDateTime: Type.String() }),
    experience: Type.Object({ id: Uuid, title: Type.String() }),
  },
  { $id: 'Booking', description: "The spec's Booking resource" },
);

export const getBookingSchema = {
  tags: ['Bookings'],
  operationId: 'getBooking',
  summary: 'Get a booking',
  description:
    'The booking with this id. 404 when it does not exist or belongs to a brand the key may not see ' +
    '(an organization key narrowed by the Tessera-Brand-Id header sees that brand only).',
  params: Type.Object({ bookingId: Uuid }),
  response: { 200: ref(Booking, 'The booking'), ...errorResponses(404) },
};

const SessionStart = Type.Object(
  { timezone: Type.String(), startDateTime: Type.String({ description: 'Local date-time in that zone, no offset' }) },
  { description: 'Where a booking was before a move' },
);

export const rescheduleBookingSchema = {
  tags: ['Bookings'],
  operationId: 'rescheduleBooking',
  summary: 'Reschedule a booking',
  description:
    'Moves a confirmed booking to another session of its experience: its active participants take places there ' +
    '(409 CAPACITY_EXCEEDED when too few remain) and give theirs back on the old session (offered to its waitlist ' +
    'first). The booking keeps its id, confirmation code and amounts (prices belong to the experience, not to a ' +
    "session). Needs the brand feature enableRescheduleBookings (422 FEATURE_NOT_ENABLED); the brand's reschedule " +
    'policy sets a notice window before the old session and a maximum number of moves (409 RESCHEDULE_NOT_ALLOWED ' +
    'with `details.rule`: status, notice, limit, same-session); a session that has started is 422 SESSION_STARTED. ' +
    'Records a `booking.rescheduled` event. Send an `Idempotency-Key` header to retry safely.',
  params: Type.Object({ bookingId: Uuid }),
  body: Type.Object(
    {
      sessionTime: Type.String({ maxLength: 40, description: "The new session's local start, as in checkout (`YYYY-MM-DDTHH:MM[:SS]`)" }),
      sessionDuration: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 100_000, description: "When given, the new session's length in minutes" }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object(
      { data: ref(Booking), previousSession: SessionStart },
      { description: 'The booking after the move, and where it was' },
    ),
    ...errorResponses(404, 409, 422),
  },
};

export const Cart = Type.Object(
  {
    id: Uuid,
    confirmationCode: Type.String(),
    status: Type.Enum(cartStatuses, { description: '`paid` once its checkout is settled: no further checkout' }),
    paymentIntentStatus: Nullable(
      Type.Enum(paymentIntentStatuses, { description: "The current checkout's intent; null when it has none" }),
    ),
    totalAmount: Type.Number({ description: "Sum of the bookings' amounts" }),
    currency: Type.String(),
    bookings: Type.Array(ref(Booking)),
  },
  { $id: 'Cart', description: "A cart with its current checkout's bookings" },
);

export const getCartSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'getCart',
  summary: 'Get a cart',
  description:
    "The cart with its current checkout's bookings (a new checkout of an unpaid cart replaces them). 404 when the " +
    "cart is unknown or another brand's.",
  params: Type.Object({ brandId: Uuid, cartId: Uuid }),
  response: {
    200: Type.Object({ data: ref(Cart) }, { description: 'The cart' }),
    ...errorResponses(404),
  },
};

export const listBookingsSchema = {
  tags: ['Bookings'],
  operationId: 'listBookings',
  summary: "List a brand's bookings",
  description:
    'Newest first. Filter by `status` and by the session date (`from`, `to`: local dates, both included). Pages of ' +
    "`limit` (1 to 100, default 20); pass the answer's `next` as `cursor` for the following page (null on the last). " +
    'Cursors hold the position, so bookings created meanwhile never shift the pages that follow.',
  params: Type.Object({ brandId: Uuid }),
  querystring: Type.Object({
    status: Type.Optional(Type.Enum(bookingStatuses)),
    from: Type.Optional(Type.String({ format: 'date', description: 'First session date, YYYY-MM-DD' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Last session date, YYYY-MM-DD' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  }),
  response: {
    200: Type.Object(
      { items: Type.Array(ref(Booking)), next: Nullable(Type.String({ description: 'The cursor of the next page' })) },
      { description: 'One page of bookings, newest first' },
    ),
  },
};
