/**
 * A brand's own staff assistant: read a booking, cancel it, refund it. Secret keys only (no publishable
 * use), as `GET /v1/bookings/{id}` and `POST /v1/bookings/cancel`; a brand key reaches its brand's
 * bookings, another brand's answer NOT_FOUND. Cancelling and refunding go through `cancelBookings`, the
 * REST and GraphQL operation, so the brand's policy, the balance and the processor's refund are its.
 */
import { z } from 'zod';
import { getBooking } from '../../domain/bookings/bookings.ts';
import type { Booking } from '../../domain/bookings/booking-view.ts';
import { cancelBookings } from '../../domain/cancellation/cancellation.ts';
import { MAX_CANCEL_PARTICIPANTS } from '../../domain/cancellation/input.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { toDecimal } from '../../domain/shared/money.ts';
import { localTime, moneyOfDecimal } from '../answers.ts';
import { tool, type ToolContext } from '../tool.ts';
import { languageArg } from './shapes.ts';

const bookingIdArg = z.string().uuid().describe("The booking's id.");
const language = (args: { language?: string }) => args.language ?? 'en';

function bookingView(booking: Booking, lang: string) {
  return {
    bookingId: booking.id,
    confirmationCode: booking.confirmationCode,
    status: booking.status,
    experience: booking.experience,
    start: localTime(booking.event.startDateTime, booking.event.timezone),
    amount: moneyOfDecimal(booking.amount, booking.currency, lang),
    amountRefunded: moneyOfDecimal(booking.amountRefunded, booking.currency, lang),
    paymentMethod: booking.paymentMethod,
    purchaser: booking.purchaser,
    participants: booking.participants.map((p) => ({
      participantId: p.id,
      firstName: p.firstName,
      lastName: p.lastName,
      emailAddress: p.emailAddress,
      phoneNumber: p.phoneNumber,
      priceTierName: p.priceTierName,
      cancelledAt: p.cancelledAt,
    })),
    createdAt: booking.createdAt,
  };
}

/** One item through cancelBookings; its item error, if any, is the tool's error (with the field named in the tool's arguments). */
async function cancelOne(
  context: ToolContext,
  item: { bookingId: string; cancel?: true; participants?: string[]; refundAmountMinor?: number },
  lang: string,
) {
  const { caller } = context;
  // The booking first: the caller may see it (NOT_FOUND otherwise), and its currency turns minor units into the operation's decimal.
  const booking = await getBooking(caller, { bookingId: item.bookingId });
  const refundAmount = item.refundAmountMinor === undefined ? undefined : toDecimal(item.refundAmountMinor, booking.currency);
  const { items, errors } = await cancelBookings(caller, {
    bookings: [{ bookingId: item.bookingId, cancel: item.cancel, participants: item.participants, refundAmount }],
  });
  const [failed] = errors;
  if (failed) {
    const field = failed.field?.replace(/^bookings\.0\./, '').replace(/^refundAmount$/, 'refundAmountMinor');
    throw new DomainError(failed.code, failed.message, field ? { field } : undefined);
  }
  return bookingView(items[0]!, lang);
}

const writeAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

export const getBookingTool = tool({
  name: 'get_booking',
  title: 'Read a booking (staff)',
  description: "A booking of the brand with its guests and their contact details. Secret keys only: a brand's staff assistant.",
  use: undefined,
  writes: false,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ bookingId: bookingIdArg, language: languageArg }),
  async run({ caller }, args) {
    return bookingView(await getBooking(caller, { bookingId: args.bookingId }), language(args));
  },
});

export const cancelBookingTool = tool({
  name: 'cancel_booking',
  title: 'Cancel a booking (staff)',
  description:
    'Cancels a booking, or some of its guests (participants: their participantId from get_booking), and refunds what the ' +
    "brand's cancellation policy gives back, or refundAmountMinor when given. Secret keys only.",
  use: undefined,
  writes: true,
  annotations: writeAnnotations,
  input: z.strictObject({
    bookingId: bookingIdArg,
    participants: z.array(z.string().uuid()).min(1).max(MAX_CANCEL_PARTICIPANTS).optional().describe('Cancel only these guests.'),
    refundAmountMinor: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Refund this much (minor units of the booking's currency) instead of the policy's amount."),
    language: languageArg,
  }),
  async run(context, args) {
    return cancelOne(
      context,
      { bookingId: args.bookingId, cancel: true, participants: args.participants, refundAmountMinor: args.refundAmountMinor },
      language(args),
    );
  },
});

export const refundBookingTool = tool({
  name: 'refund_booking',
  title: 'Refund a booking (staff)',
  description:
    'Refunds part or all of what a booking paid, keeping the booking (a goodwill refund); at most what is left of its payment ' +
    '(REFUND_EXCEEDS_BALANCE). Secret keys only.',
  use: undefined,
  writes: true,
  annotations: writeAnnotations,
  input: z.strictObject({
    bookingId: bookingIdArg,
    amountMinor: z.number().int().min(1).describe("How much to refund, in minor units of the booking's currency."),
    language: languageArg,
  }),
  async run(context, args) {
    return cancelOne(context, { bookingId: args.bookingId, refundAmountMinor: args.amountMinor }, language(args)).catch(
      (error: unknown) => {
        if (error instanceof DomainError && error.details?.field === 'refundAmountMinor') {
          throw new DomainError(error.code, error.message, { ...error.details, field: 'amountMinor' });
        }
        throw error;
      },
    );
  },
});
