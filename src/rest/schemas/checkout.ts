import { Type } from 'typebox';
import { bookingStatuses, paymentMethods } from '../../domain/shared/values.ts';
import {
  EMAIL_PATTERN,
  MAX_ADD_ONS,
  MAX_ANSWER_VALUES,
  MAX_CART_ITEMS,
  MAX_CREDIT_CODES,
  MAX_PARTICIPANTS,
  MAX_QUANTITY,
  MAX_RESPONSES,
  maxLength,
} from '../../domain/checkout/input.ts';
import { ErrorResponse, HUMAN_CHECK_UNAVAILABLE_ANSWER, MoneyInput, Uuid, errorResponses, ref } from './common.ts';

const Text = (limit: number, description: string, minLength = 0) => Type.String({ maxLength: limit, minLength, description });

const CustomQuestionResponse = Type.Object(
  {
    questionId: Text(maxLength.questionId, "The question's `customQuestionId`", 1),
    answer: Type.Array(
      Type.Object(
        {
          value: Type.Optional(Text(maxLength.answerValue, 'The text, the option label, or `"true"` to accept terms')),
          key: Type.Optional(Text(maxLength.id, "For select questions, the chosen option's key")),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_ANSWER_VALUES, description: 'One entry for text and terms; one per chosen option for select questions' },
    ),
  },
  { additionalProperties: false },
);

export const personFields = {
  firstName: Text(maxLength.name, 'First name', 1),
  lastName: Text(maxLength.name, 'Last name', 1),
  emailAddress: Type.Optional(Type.String({ maxLength: maxLength.email, pattern: EMAIL_PATTERN, description: 'Email address' })),
  phoneNumber: Type.Optional(Text(maxLength.phone, 'Phone number')),
  customQuestionResponses: Type.Optional(Type.Array(CustomQuestionResponse, { maxItems: MAX_RESPONSES })),
};

export const CheckoutParticipant = Type.Object(
  { ...personFields, priceTierName: Text(maxLength.name, "One of the experience's price tier names", 1) },
  { additionalProperties: false },
);

const Purchaser = Type.Object(personFields, {
  additionalProperties: false,
  description: 'Who pays and receives the confirmation; without it, the first participant of the first item',
});

const CartItem = Type.Object(
  {
    sessionTime: Text(
      maxLength.sessionTime,
      "The session's local start `YYYY-MM-DDTHH:MM[:SS]` in the experience's zone; an explicit offset is converted",
      1,
    ),
    participants: Type.Array(CheckoutParticipant, { minItems: 1, maxItems: MAX_PARTICIPANTS }),
    experienceId: Type.String({ format: 'uuid', description: 'An experience of the brand' }),
    sessionDuration: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100_000, description: "Minutes; when given it must equal the session's" }),
    ),
    couponCode: Type.Optional(Text(maxLength.code, 'A brand coupon code (case-insensitive)')),
    discountAmount: Type.Optional(MoneyInput('A fixed discount (secret keys only: 403 FORBIDDEN for a publishable key)', { minimum: 0 })),
    discountPercentage: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100,
        multipleOf: 0.01,
        description: 'A percentage discount, at most 2 decimals (12.5, 33.33). Secret keys only (403 FORBIDDEN for a publishable key)',
      }),
    ),
    accessCode: Type.Optional(Text(maxLength.code, 'Access code (kept with the booking)')),
    notes: Type.Optional(Text(maxLength.notes, 'Notes on the booking')),
    metadata: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Free-form data kept with the booking. Secret keys only (403 FORBIDDEN for a publishable key)',
      }),
    ),
    internalNotes: Type.Optional(
      Text(maxLength.notes, 'Staff notes, hidden from the guest. Secret keys only (403 FORBIDDEN for a publishable key)'),
    ),
    listingAddOns: Type.Optional(
      Type.Array(
        Type.Object(
          { addOnId: Uuid, quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY }) },
          { additionalProperties: false, description: 'An add-on of the experience and how many' },
        ),
        { maxItems: MAX_ADD_ONS },
      ),
    ),
    appliedCreditCodes: Type.Optional(
      Type.Array(
        Type.Object(
          {
            code: Text(maxLength.code, 'A credit code of the brand', 1),
            appliedValue: MoneyInput('Credit to use', { minimum: 0 }),
            sequence: Type.Integer({ description: 'Order in which credits apply' }),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_CREDIT_CODES },
      ),
    ),
    intendedConfirmationCode: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9]{4,16}$',
        description:
          'Confirmation code to use when free in the brand (4-16 letters and digits, upper-cased). Secret keys only (403 FORBIDDEN for a publishable key)',
      }),
    ),
    waitlistEntryId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'A waitlist entry offered places on this session: the item takes the places held for it (at most its party) and converts it',
      }),
    ),
    resourceGroupId: Type.Optional(Text(maxLength.code, 'Resource group (kept with the booking)')),
    resourceQuantity: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_QUANTITY, description: 'Units of the resource (kept with the booking)' }),
    ),
  },
  { additionalProperties: false },
);

export const Quote = Type.Object(
  { totalNetAmount: Type.Number({ description: "What the guest pays, in the brand's currency" }) },
  { $id: 'Quote', description: 'What the cart would cost' },
);

export const PaymentIntent = Type.Object(
  {
    totalNetAmount: Type.Number({ description: "What the guest pays, in the brand's currency" }),
    cartConfirmationCode: Type.String({ description: "The cart's confirmation code, shared by its bookings" }),
    bookings: Type.Array(
      Type.Object({
        id: Uuid,
        confirmationCode: Type.String(),
        status: Type.Enum(bookingStatuses, { description: '`processing` until paid by card; `confirmed` at once otherwise' }),
      }),
      {
        description:
          'The bookings created, one per item, in item order: read them with GET /v1/bookings/{id}, cancel them with POST /v1/bookings/cancel',
      },
    ),
    paymentIntentSecret: Type.Optional(
      Type.String({
        description:
          'Confirms the payment at the processor; absent when the cart costs nothing or is paid outside Tessera (any method but `credit-card`)',
      }),
    ),
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          "When the `processing` bookings' hold lapses and their places return (sooner with a publishable key); absent when nothing is held",
      }),
    ),
  },
  { $id: 'PaymentIntent', description: 'A checkout: the bookings it created and how to pay for them' },
);

export const createPaymentIntentSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'createPaymentIntent',
  summary: 'Create a payment intent',
  description:
    'Prices the cart. With `getOnlyTotalNetAmount: true` it is a quote (200, nothing held or written). Otherwise ' +
    'one `processing` booking per item holds its places until the hold lapses, and the answer (201) carries the ' +
    "payment intent's secret; a cart costing nothing is confirmed at once and has no secret. Posting again for an " +
    'unpaid cart replaces its bookings; a paid cart is 409 CART_ALREADY_PAID. With a publishable key, holds last ' +
    'PUBLISHABLE_HOLD_TTL_SECONDS (`expiresAt` says until when) and one client (address) holds at most ' +
    'PUBLISHABLE_HOLD_PLACES_PER_CLIENT unpaid places of the brand: beyond, 429 HOLD_LIMIT_REACHED with Retry-After.',
  params: Type.Object({
    brandId: Uuid,
    cartId: Type.String({ format: 'uuid', description: 'The cart id, a UUID generated by the client' }),
  }),
  body: Type.Object(
    {
      data: Type.Array(CartItem, { minItems: 1, maxItems: MAX_CART_ITEMS }),
      getOnlyTotalNetAmount: Type.Optional(Type.Boolean({ description: 'True: only compute the total' })),
      purchaser: Type.Optional(Purchaser),
      paymentMethod: Type.Optional(
        Type.Enum(paymentMethods, {
          description:
            'How the cart is paid (default `credit-card`, through the payment processor). `pay-upon-arrival`, `pay-later`, ' +
            '`room-charge` and `member-number` confirm the bookings at once with the amount due, collected by the brand; ' +
            '`loyalty`, `regional-processor` and `cash` are refused (PAYMENT_METHOD_NOT_SUPPORTED). Needs the brand feature ' +
            'and every experience of the cart to accept it. With a publishable key, the methods but `credit-card` need the brand ' +
            'feature `publishableUnpaidMethods` (403 FORBIDDEN otherwise).',
        }),
      ),
      roomNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'The room charged, with `room-charge`' })),
      memberNumber: Type.Optional(
        Type.String({ minLength: 1, maxLength: 32, description: 'The membership charged, with `member-number`' }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: ref(Quote, 'A quote: nothing held or written'),
    201: ref(PaymentIntent, 'The checkout: bookings held (or confirmed when free)'),
    ...errorResponses(404, 409, 422),
    502: ref(ErrorResponse, `PAYMENT_PROCESSOR_ERROR: the payment processor failed; nothing was held. ${HUMAN_CHECK_UNAVAILABLE_ANSWER}`),
  },
};
