import { Type } from 'typebox';
import { bookingStatuses, paymentMethods } from '../../db/schema.ts';
import { DateTime, Nullable, Uuid } from './common.ts';
import { QuestionSnapshot } from './questions.ts';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

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
export const Booking = Type.Object(
  {
    id: Type.String(),
    confirmationCode: Type.String(),
    cartId: Nullable(Uuid),
    cartConfirmationCode: Nullable(Type.String()),
    amount: Type.Number(),
    currency: Type.String(),
    amountRefunded: Type.Number(),
    status: literals(bookingStatuses),
    purchaser: Purchaser,
    participants: Type.Array(Participant),
    paymentMethod: literals(paymentMethods),
    createdAt: DateTime,
    notes: Nullable(Type.String()),
    internalNotes: Nullable(Type.String()),
    event: Type.Object({ timezone: Type.String(), startDateTime: Type.String() }),
    experience: Type.Object({ id: Uuid, title: Type.String() }),
  },
);
