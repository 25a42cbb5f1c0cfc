import { randomUUID } from 'node:crypto';
import { execute, type Connection } from './execute.ts';
import { AvailabilityQuery, BookingQuery, CancelBookingsMutation, CheckoutMutation, ExperienceQuery } from './operations.ts';

export interface PurchaseInput {
  brandId: string;
  experienceId: string;
  /** Local dates (the experience's zone) to look for a session in, `YYYY-MM-DD`. */
  from: string;
  to: string;
  /** The guests' first names; each books the experience's first price tier. */
  guests: string[];
}

/**
 * The whole purchase, as a storefront and then a support desk would run it: availability, checkout
 * (createPaymentIntent), the guest's payment (the sandbox processor's confirm call, a REST endpoint
 * that plays the card processor), the booking read back, then a cancellation with a full refund.
 */
export async function purchase(connection: Connection, input: PurchaseInput) {
  const { experience } = await execute(connection, ExperienceQuery, { brandId: input.brandId, id: input.experienceId });
  if (!experience) throw new Error(`experience ${input.experienceId} not found`);
  const tier = experience.priceTiers[0];
  if (!tier) throw new Error(`${experience.title} has no price tier`);

  const { availability } = await execute(connection, AvailabilityQuery, {
    brandId: input.brandId,
    experienceId: input.experienceId,
    from: input.from,
    to: input.to,
  });
  if (!availability) throw new Error(`availability of ${experience.title} could not be read`);
  const session = availability.find((s) => s.remaining >= input.guests.length);
  if (!session) throw new Error(`no session of ${experience.title} has ${input.guests.length} places from ${input.from} to ${input.to}`);

  const { createPaymentIntent: checkout } = await execute(connection, CheckoutMutation, {
    brandId: input.brandId,
    cartId: randomUUID(),
    input: {
      data: [
        {
          experienceId: input.experienceId,
          sessionTime: session.startDateTime,
          participants: input.guests.map((firstName) => ({
            firstName,
            lastName: 'Client',
            priceTierName: tier.name,
            emailAddress: `${firstName.toLowerCase()}@example.com`,
          })),
        },
      ],
      paymentMethod: 'CREDIT_CARD',
    },
  });
  const [created] = checkout.cart?.bookings ?? [];
  if (!created || !checkout.paymentIntentSecret) throw new Error('checkout answered no booking or no payment secret');

  const paymentIntentStatus = await paySandbox(connection, checkout.paymentIntentSecret);
  const { booking: paid } = await execute(connection, BookingQuery, { id: created.uuid });

  const { cancelBookings } = await execute(connection, CancelBookingsMutation, {
    input: { bookings: [{ bookingId: created.uuid, cancel: true, refundAmount: paid?.amount ?? 0 }] },
  });
  const { booking: cancelled } = await execute(connection, BookingQuery, { id: created.uuid });

  return {
    experience: { title: experience.title, currency: experience.currency, priceTier: tier },
    session: { startDateTime: session.startDateTime, timezone: session.timezone, remaining: session.remaining },
    checkout: { totalNetAmount: checkout.totalNetAmount, cartStatus: checkout.cart?.status, booking: created },
    paymentIntentStatus,
    paid,
    cancellation: cancelBookings,
    cancelled,
  };
}

/** Pays as the guest would at the sandbox processor (Tessera's development stand-in for a card form). */
async function paySandbox(connection: Connection, paymentIntentSecret: string): Promise<string> {
  const response = await fetch(new URL('/v1/sandbox/payment_intents/confirm', connection.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentIntentSecret, outcome: 'succeeded' }),
  });
  const body = (await response.json()) as { paymentIntentStatus?: string; error?: { code: string; message: string } };
  if (!response.ok || !body.paymentIntentStatus) throw new Error(`sandbox payment: HTTP ${response.status} ${body.error?.code ?? ''}`);
  return body.paymentIntentStatus;
}
