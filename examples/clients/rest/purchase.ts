/**
 * The whole purchase through the REST face, typed from the OpenAPI document: availability, a checkout,
 * the sandbox payment, the booking read back, then cancelled with a full refund. Every call is checked by
 * the compiler against `paths` (operations, parameters, headers, bodies and answers).
 */
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from './__generated__/tessera.ts';

export interface PurchaseOptions {
  /** Where the gateway listens, e.g. http://127.0.0.1:4000 */
  baseUrl: string;
  /** A brand's secret key. */
  apiKey: string;
  brandId: string;
  experienceId: string;
  /** Local dates to look for a session in, YYYY-MM-DD. */
  from: string;
  to: string;
}

export interface PurchaseResult {
  sessionStart: string;
  totalNetAmount: number;
  confirmationCode: string;
  paymentIntentStatus: string;
  booking: { status: string; amount: number; currency: string; participants: number };
  afterCancel: { status: string; amountRefunded: number };
}

/** An answer the flow cannot go on from: the API's error code and message. */
function failed(step: string, error: { error: { code: string; message: string } } | undefined, status: number): never {
  throw new Error(`${step}: HTTP ${status} ${error ? `${error.error.code}: ${error.error.message}` : ''}`);
}

export async function purchase(options: PurchaseOptions): Promise<PurchaseResult> {
  const client = createClient<paths>({ baseUrl: options.baseUrl, headers: { Authorization: `Bearer ${options.apiKey}` } });
  const { brandId, experienceId } = options;

  const sessions = await client.GET('/v1/brands/{brandId}/experiences/{experienceId}/availability', {
    params: { path: { brandId, experienceId }, query: { from: options.from, to: options.to } },
  });
  if (!sessions.data) failed('availability', sessions.error, sessions.response.status);
  const session = sessions.data.data.find((s) => s.remaining >= 3);
  if (!session) throw new Error('availability: no session with 3 places left');

  const experience = await client.GET('/v1/brands/{brandId}/experiences/{experienceId}', { params: { path: { brandId, experienceId } } });
  if (!experience.data) failed('experience', experience.error, experience.response.status);
  const [adult, child] = experience.data.priceTiers;
  if (!adult || !child) throw new Error('experience: two price tiers expected');

  // The client makes up the cart's id; the same Idempotency-Key makes a retried checkout safe.
  const cartId = randomUUID();
  const checkout = await client.POST('/v1/brands/{brandId}/carts/{cartId}/payment_intents', {
    params: { path: { brandId, cartId }, header: { 'Idempotency-Key': `checkout-${cartId}` } },
    body: {
      data: [
        {
          experienceId,
          sessionTime: session.startDateTime,
          participants: [
            { firstName: 'Rita', lastName: 'Moreira', priceTierName: adult.name },
            { firstName: 'Paulo', lastName: 'Moreira', priceTierName: adult.name },
            { firstName: 'Inês', lastName: 'Moreira', priceTierName: child.name },
          ],
        },
      ],
      purchaser: { firstName: 'Rita', lastName: 'Moreira', emailAddress: 'rita.moreira@example.com' },
    },
  });
  if (!checkout.data) failed('checkout', checkout.error, checkout.response.status);
  // 201 is a checkout (PaymentIntent); 200 would be a quote, which this request does not ask for.
  if (!('bookings' in checkout.data)) throw new Error('checkout: a quote came back');
  const { paymentIntentSecret, totalNetAmount, bookings } = checkout.data;
  const bookingId = bookings[0]?.id;
  if (!paymentIntentSecret || !bookingId) throw new Error('checkout: no payment to make');

  const payment = await client.POST('/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret, outcome: 'succeeded' } });
  if (!payment.data) failed('payment', payment.error, payment.response.status);

  const booking = await client.GET('/v1/bookings/{bookingId}', { params: { path: { bookingId } } });
  if (!booking.data) failed('booking', booking.error, booking.response.status);

  const cancel = await client.POST('/v1/bookings/cancel', {
    params: { header: { 'Idempotency-Key': `cancel-${bookingId}` } },
    body: { bookings: [{ bookingId, cancel: true, refundAmount: booking.data.amount }] },
  });
  if (!cancel.data) failed('cancel', cancel.error, cancel.response.status);
  const [cancelled] = cancel.data.items;
  if (!cancelled) failed(`cancel: ${cancel.data.errors[0]?.code ?? 'no booking'}`, undefined, cancel.response.status);

  return {
    sessionStart: session.startDateTime,
    totalNetAmount,
    confirmationCode: booking.data.confirmationCode,
    paymentIntentStatus: payment.data.paymentIntentStatus,
    booking: {
      status: booking.data.status,
      amount: booking.data.amount,
      currency: booking.data.currency,
      participants: booking.data.participants.length,
    },
    afterCancel: { status: cancelled.status, amountRefunded: cancelled.amountRefunded },
  };
}
