/**
 * What partners do, as HTTP calls: check out, pay through the sandbox, read a cart's bookings, cancel
 * and refund, join a waitlist. `Send` is either a TestApp's `rest` (app.inject) or `fetchSender` (a real
 * port), so the same traffic drives in-process tests and a server in a child process.
 */
import { randomUUID } from 'node:crypto';

export interface HttpAnswer {
  status: number;
  body: any;
}

export type Send = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options?: { key?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<HttpAnswer>;

/** Real HTTP to `base` (`http://127.0.0.1:<port>`). */
export function fetchSender(base: string): Send {
  return async (method, url, { key, body, headers } = {}) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** A brand's key and one experience whose sessions the traffic books. */
export interface Shop {
  brandId: string;
  key: string;
  experienceId: string;
  waitlistId: string;
  /** How long its sessions last. */
  sessionMinutes: number;
}

export interface BookingSummary {
  id: string;
  /** GraphQL's enum value: `CONFIRMED`, `CANCELLED`... */
  status: string;
  amount: number;
  amountRefunded: number;
  participants: Array<{ id: string }>;
}

export const guests = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    firstName: `Guest${i + 1}`,
    lastName: 'Silva',
    priceTierName: i % 3 === 2 ? 'Child' : 'Adult',
    emailAddress: `guest${i + 1}@example.test`,
  }));

/** POST .../payment_intents for one item; `sessionTime` is `YYYY-MM-DDTHH:MM`. */
export async function checkout(send: Send, shop: Shop, sessionTime: string, count: number, headers: Record<string, string> = {}) {
  const cartId = randomUUID();
  const answer = await send('POST', `/v1/brands/${shop.brandId}/carts/${cartId}/payment_intents`, {
    key: shop.key,
    headers,
    body: { data: [{ experienceId: shop.experienceId, sessionTime, participants: guests(count) }] },
  });
  return {
    cartId,
    status: answer.status,
    secret: answer.body?.paymentIntentSecret as string | undefined,
    code: answer.body?.error?.code as string | undefined,
  };
}

/** The sandbox processor announcing the payment's outcome. */
export const pay = (send: Send, secret: string, outcome: 'succeeded' | 'failed') =>
  send('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret: secret, outcome } });

const CART = /* GraphQL */ `
  query Cart($brandId: UUID!, $cartId: UUID!) {
    cart(brandId: $brandId, cartId: $cartId) {
      bookings {
        id: uuid
        status
        amount
        amountRefunded
        participants {
          id: uuid
        }
      }
    }
  }
`;

export async function cartBookings(send: Send, shop: Shop, cartId: string): Promise<BookingSummary[]> {
  const answer = await send('POST', '/graphql', { key: shop.key, body: { query: CART, variables: { brandId: shop.brandId, cartId } } });
  return answer.body?.data?.cart?.bookings ?? [];
}

export interface CancelItem {
  bookingId: string;
  cancel?: boolean;
  participants?: string[];
  refundAmount?: number;
}

export const cancel = (send: Send, shop: Shop, items: CancelItem[], headers: Record<string, string> = {}) =>
  send('POST', '/v1/bookings/cancel', { key: shop.key, headers, body: { bookings: items } });

/** `ok`, the first item's error code, or the HTTP status of a refused request. */
const cancelOutcome = (answer: HttpAnswer) => (answer.status === 200 ? (answer.body.errors[0]?.code ?? 'ok') : String(answer.status));

/** Joins the waitlist of the session starting at `sessionTime` (`YYYY-MM-DDTHH:MM`). */
export const joinWaitlist = (send: Send, shop: Shop, sessionTime: string, count: number) =>
  send('POST', `/v1/brands/${shop.brandId}/waitlists/${shop.waitlistId}/entries`, {
    key: shop.key,
    body: {
      sessionStartDate: sessionTime.slice(0, 10),
      sessionStartTime: sessionTime.slice(11, 16),
      sessionDuration: shop.sessionMinutes,
      purchaser: { firstName: 'Wait', lastName: 'Listed', emailAddress: `wait-${randomUUID()}@example.test` },
      participants: guests(count),
    },
  });

/**
 * One customer, at random: checks out 1 to 3 guests (joining the waitlist when the session is full),
 * pays (or the payment fails, or they never pay and the hold lapses), then may cancel the booking, some
 * participants, or ask for refunds, sometimes two at once. Returns what happened, for a tally.
 */
export async function customerJourney(send: Send, shop: Shop, sessionTimes: readonly string[], random: () => number): Promise<string> {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const sessionTime = pick(sessionTimes);
  const count = 1 + Math.floor(random() * 3);
  const headers: Record<string, string> = random() < 0.3 ? { 'idempotency-key': randomUUID() } : {};
  const bought = await checkout(send, shop, sessionTime, count, headers);
  if (bought.status !== 201 || !bought.secret) {
    if (bought.code === 'CAPACITY_EXCEEDED' && random() < 0.5)
      return `waitlist ${(await joinWaitlist(send, shop, sessionTime, count)).status}`;
    return `checkout ${bought.code ?? bought.status}`;
  }
  const paying = random();
  if (paying < 0.1) return 'unpaid';
  if (paying < 0.2) return `payment failed ${(await pay(send, bought.secret, 'failed')).status}`;
  await pay(send, bought.secret, 'succeeded');
  if (random() < 0.1) await pay(send, bought.secret, 'succeeded'); // a repeated processor event
  const [booking] = await cartBookings(send, shop, bought.cartId);
  if (!booking || booking.status !== 'CONFIRMED') return `paid ${booking?.status ?? 'unknown'}`;
  const action = random();
  if (action < 0.2) return `cancel ${cancelOutcome(await cancel(send, shop, [{ bookingId: booking.id, cancel: true }]))}`;
  if (action < 0.4 && booking.participants.length > 1) {
    return `cancel participant ${cancelOutcome(await cancel(send, shop, [{ bookingId: booking.id, participants: [booking.participants[0]!.id] }]))}`;
  }
  if (action < 0.55) return `refund part ${cancelOutcome(await cancel(send, shop, [{ bookingId: booking.id, refundAmount: 1 }]))}`;
  if (action < 0.7)
    return `refund all and cancel ${cancelOutcome(await cancel(send, shop, [{ bookingId: booking.id, cancel: true, refundAmount: booking.amount }]))}`;
  if (action < 0.8) {
    // Two refunds racing for the same balance: at most one may take it all.
    const both = await Promise.all(
      [10, booking.amount].map((refundAmount) => cancel(send, shop, [{ bookingId: booking.id, refundAmount }])),
    );
    return `racing refunds ${both.map(cancelOutcome).sort().join(' + ')}`;
  }
  return 'confirmed';
}
