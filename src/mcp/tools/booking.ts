/**
 * Booking for a traveller: a quote, a hold that answers the link the traveller opens to pay, the held
 * cart's state, a waitlist. Open to publishable keys (uses `checkout` and `waitlist`) with every rule of
 * the REST routes they mirror: the hold budget of the caller's client, the brand's publishable share,
 * the fields a shopper may send. An assistant never sees card data: payment happens on the linked page.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { readHeldCart, type Cart } from '../../domain/bookings/carts.ts';
import { createPaymentIntent, type CreatePaymentIntentInput } from '../../domain/checkout/checkout.ts';
import {
  EMAIL_PATTERN,
  MAX_ANSWER_VALUES,
  MAX_CART_ITEMS,
  MAX_PARTICIPANTS,
  MAX_RESPONSES,
  maxLength,
} from '../../domain/checkout/input.ts';
import { joinWaitlist } from '../../domain/waitlists/join.ts';
import { localTime, moneyOfDecimal } from '../answers.ts';
import { paymentLink } from '../settings.ts';
import { tool } from '../tool.ts';
import { brandIdArg, brandOf, idArg, languageArg } from './shapes.ts';

const name = (what: string) => z.string().min(1).max(maxLength.name).describe(what);
const answers = z
  .array(
    z.strictObject({
      questionId: z.string().min(1).max(maxLength.questionId),
      answer: z
        .array(
          z.strictObject({
            value: z.string().max(maxLength.answerValue).optional(),
            key: z.string().max(maxLength.answerValue).optional(),
          }),
        )
        .max(MAX_ANSWER_VALUES)
        .describe('Text questions: one { value }; select questions: one { key } per chosen option.'),
    }),
  )
  .max(MAX_RESPONSES)
  .optional()
  .describe("Answers to the experience's questions of this scope (get_experience lists them): questionId is the customQuestionId.");

const participant = z.strictObject({
  firstName: name("The guest's first name."),
  lastName: name("The guest's last name."),
  priceTierName: z.string().min(1).max(maxLength.name).describe("One of the experience's price tier names (get_experience), e.g. 'Adult'."),
  customQuestionResponses: answers,
});

const item = <P extends z.ZodType>(participants: P) =>
  z.strictObject({
    experienceId: idArg("The experience's id."),
    sessionTime: z
      .string()
      .min(1)
      .max(maxLength.sessionTime)
      .describe("The session's local start as check_availability gives it (start.localDateTime), e.g. '2026-12-01T09:30:00'."),
    participants: z.array(participants).min(1).max(MAX_PARTICIPANTS),
    couponCode: z.string().min(1).max(maxLength.code).optional().describe('A coupon code the brand issued, if the traveller has one.'),
  });

const quoteParticipant = z.strictObject({
  priceTierName: participant.shape.priceTierName,
  firstName: name("The guest's first name (not needed for a quote).").optional(),
  lastName: name("The guest's last name (not needed for a quote).").optional(),
});

const purchaser = z
  .strictObject({
    firstName: name("The traveller's first name."),
    lastName: name("The traveller's last name."),
    emailAddress: z
      .string()
      .max(maxLength.email)
      .regex(new RegExp(EMAIL_PATTERN), 'must be an e-mail address')
      .describe('Where the confirmation goes.'),
    phoneNumber: z.string().max(maxLength.phone).optional(),
    customQuestionResponses: answers,
  })
  .describe('Who books and pays: the traveller.');

/** A cart's state without anyone's name or contact details (a publishable key may not read them; an assistant needs none). */
function cartView(cart: Cart, language: string) {
  return {
    cartId: cart.id,
    confirmationCode: cart.confirmationCode,
    status: cart.status,
    paymentIntentStatus: cart.paymentIntentStatus,
    total: moneyOfDecimal(cart.totalAmount, cart.currency, language),
    bookings: cart.bookings.map((booking) => ({
      bookingId: booking.id,
      confirmationCode: booking.confirmationCode,
      status: booking.status,
      experience: booking.experience,
      start: localTime(booking.event.startDateTime, booking.event.timezone),
      guests: booking.participants.filter((p) => p.cancelledAt === null).length,
    })),
  };
}

export const quoteCartTool = tool({
  name: 'quote_cart',
  title: 'Price a cart',
  description:
    'What the traveller would pay for sessions and guests (price tiers, coupon, taxes), in minor units and written out. ' +
    'Holds nothing and writes nothing; the same checks as a booking (sessions exist and have places, tiers exist).',
  use: 'checkout',
  writes: false,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ brandId: brandIdArg, items: z.array(item(quoteParticipant)).min(1).max(MAX_CART_ITEMS), language: languageArg }),
  async run({ caller }, args) {
    const { brand, language } = await brandOf(caller, args.brandId, args.language);
    const data = args.items.map((entry) => ({
      ...entry,
      participants: entry.participants.map((guest, i) => ({
        priceTierName: guest.priceTierName,
        firstName: guest.firstName ?? 'Guest',
        lastName: guest.lastName ?? String(i + 1),
      })),
    }));
    const quote = await createPaymentIntent(caller, { brandId: brand.id, cartId: randomUUID(), data, getOnlyTotalNetAmount: true });
    return { brandId: brand.id, total: moneyOfDecimal(quote.totalNetAmount, brand.currency, language) };
  },
});

export const holdPlacesTool = tool({
  name: 'hold_places',
  title: 'Hold places and get a payment link',
  description:
    'Books the cart unpaid: the places are held for the traveller until `expiresAt` (a few minutes with a publishable key), ' +
    'and `paymentLink` is the page where the traveller pays; give it to them, the booking is confirmed once paid. You never ' +
    'handle card details. A publishable key holds at most a few places per client at once (HOLD_LIMIT_REACHED says how many ' +
    'and when to retry). Use the same cartId to replace the cart before it is paid. paymentIntentSecret lets cart_status read the cart.',
  use: 'checkout',
  writes: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    brandId: brandIdArg,
    cartId: z.string().uuid().optional().describe('A UUID of your choosing to name the cart; a new one when left out.'),
    items: z.array(item(participant)).min(1).max(MAX_CART_ITEMS),
    purchaser,
    language: languageArg,
  }),
  async run(context, args) {
    const { caller, settings } = context;
    const { brand, language } = await brandOf(caller, args.brandId, args.language);
    const input: CreatePaymentIntentInput = {
      brandId: brand.id,
      cartId: args.cartId ?? randomUUID(),
      data: args.items,
      purchaser: args.purchaser,
    };
    const held = await createPaymentIntent(caller, input);
    const secret = held.paymentIntentSecret;
    return {
      brandId: brand.id,
      cartId: held.cartId,
      cartConfirmationCode: held.cartConfirmationCode,
      total: moneyOfDecimal(held.totalNetAmount, brand.currency, language),
      expiresAt: held.expiresAt ?? null,
      bookings: held.bookings ?? [],
      paymentLink: secret ? paymentLink(settings, { brandId: brand.id, cartId: held.cartId!, paymentIntentSecret: secret }) : null,
      paymentIntentSecret: secret ?? null,
    };
  },
});

export const cartStatusTool = tool({
  name: 'cart_status',
  title: "Read a held cart's state",
  description:
    "A cart hold_places made: whether it is paid (status, paymentIntentStatus), each booking's status (processing while " +
    'unpaid, confirmed once paid, failed when the hold lapsed), total. A publishable key needs the paymentIntentSecret hold_places answered.',
  use: 'checkout',
  writes: false,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    brandId: brandIdArg,
    cartId: z.string().uuid().describe('The cartId hold_places answered.'),
    paymentIntentSecret: z.string().min(1).max(200).optional().describe('The paymentIntentSecret hold_places answered (publishable keys).'),
    language: languageArg,
  }),
  async run({ caller }, args) {
    const { brand, language } = await brandOf(caller, args.brandId, args.language);
    const cart = await readHeldCart(caller, { brandId: brand.id, cartId: args.cartId, paymentIntentSecret: args.paymentIntentSecret });
    return { brandId: brand.id, ...cartView(cart, language) };
  },
});

export const joinWaitlistTool = tool({
  name: 'join_waitlist',
  title: 'Join the waitlist of a full session',
  description:
    "Queues the traveller for a full session (check_availability gives the session's waitlistId and start): when places free up " +
    'the purchaser is e-mailed an offer to book them. SESSION_AVAILABLE means the session has places: book it instead.',
  use: 'waitlist',
  writes: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    brandId: brandIdArg,
    waitlistId: idArg("The session's waitlistId (check_availability)."),
    sessionStartDate: z.string().max(10).describe("The session's local start date, YYYY-MM-DD."),
    sessionStartTime: z.string().max(8).describe("The session's local start time, HH:MM."),
    sessionDuration: z.number().int().min(1).describe("The session's duration in minutes (check_availability's durationMinutes)."),
    purchaser,
    participants: z.array(participant).min(1).max(MAX_PARTICIPANTS),
  }),
  async run(context, args) {
    const { caller } = context;
    const { brand } = await brandOf(caller, args.brandId, undefined);
    const entry = await joinWaitlist(caller, { ...args, brandId: brand.id });
    return {
      brandId: brand.id,
      entryId: entry.id,
      waitlistId: entry.waitlistId,
      status: entry.status,
      position: entry.position,
      session: localTime(entry.sessionStartDateTime, entry.timezone),
      offerExpiresAt: entry.offerExpiresAt,
    };
  },
});
