import { Type } from 'typebox';
import { bookingStatuses, paymentMethods } from '../../domain/shared/values.ts';
import { DateTime, Nullable, Uuid, errorResponses } from './common.ts';
import { QuestionSnapshot } from './questions.ts';

const AnswerValue = Type.Object({
  value: Type.Union([Type.String(), Type.Array(Type.String()), Type.Boolean(), Type.Null()]),
  key: Type.Optional(Nullable(Type.String())),
});

const CustomQuestionAnswer = Type.Object({
  id: Type.String(),
  answer: Type.Array(AnswerValue),
  question: QuestionSnapshot,
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
export const Booking = Type.Object({
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
});

export const getBookingSchema = {
  tags: ['Bookings'],
  summary: 'Get a booking',
  description:
    'The booking with this id. 404 when it does not exist or belongs to a brand the key may not see ' +
    '(an organization key narrowed by the Tessera-Brand-Id header sees that brand only).',
  params: Type.Object({ bookingId: Uuid }),
  response: { 200: Booking, ...errorResponses(404) },
};
