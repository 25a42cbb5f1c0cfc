/**
 * T6, the write mix: `CONNECTIONS` clients each run, one after the other, the life of a booking as a
 * frontend drives it: hold two places (GraphQL createPaymentIntent), pay (the sandbox's confirm, REST:
 * the only face it has), cancel one of the two guests (GraphQL cancelBookings), refund part of the
 * rest (GraphQL cancelBookings with refundAmount). Every answer is checked; one failure fails the run.
 * The figure is completed sequences (bookings) per second; latencies are those of whole sequences.
 * Given several gateways on one database, each request goes to the next gateway in turn, as a
 * round-robin load balancer without stickiness would send it: a booking's four steps cross gateways.
 * A `503` (write admission turning away what the gateway cannot take: nothing was written) is retried
 * after its `Retry-After`, as a client should, and counted in the row's non-2xx column.
 */
import { randomUUID } from 'node:crypto';
import { LISBON, LISBON_KEY, type WriteMixWorld } from './data.ts';
import { cancelMutation, holdMutation } from '../../fixtures/graphql/documents.ts';
import { CONNECTIONS, LoadError, type Measurement } from './load.ts';
import { graphqlRequest, RefusedError, sendOk, type RequestSpec } from './requests.ts';

/** Refunded by the last step, in EUR: part of the remaining guest's price. */
export const REFUND_AMOUNT = 10;

interface Hold {
  createPaymentIntent: {
    paymentIntentSecret: string;
    cart: { bookings: Array<{ uuid: string; participants: Array<{ uuid: string }>; session: { remaining: number } }> };
  };
}

interface Cancelled {
  cancelBookings: {
    items: Array<{ amountRefunded: number; participants: Array<{ uuid: string; cancelledAt: string | null }> }>;
    errors: unknown[];
  };
}

export const guest = (firstName: string) => ({
  firstName,
  lastName: 'Bench',
  priceTierName: 'Adult',
  emailAddress: `${firstName.toLowerCase()}@bench.test`,
});

/** 503s answered to the write mix (retried), since the process started; measureWriteMix counts its own. */
let refused = 0;

/** `sendOk`, retrying a 503 after its Retry-After (at most 10 times): the gateway wrote nothing. */
async function sendWrite<T>(baseUrl: string, spec: RequestSpec, what: string): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await sendOk<T>(baseUrl, spec, what);
    } catch (error) {
      const after = error instanceof RefusedError ? error.retryAfterSeconds : null;
      if (after === null || attempt > 10) throw error;
      refused += 1;
      await new Promise((resolve) => setTimeout(resolve, after * 1000));
    }
  }
}

async function cancel(baseUrl: string, item: Record<string, unknown>, what: string) {
  const { data } = await sendWrite<{ data: Cancelled }>(
    baseUrl,
    graphqlRequest(LISBON_KEY, cancelMutation, { input: { bookings: [item] } }),
    what,
  );
  const result = data.cancelBookings;
  if (result.errors.length > 0 || result.items.length !== 1) throw new Error(`${what}: ${JSON.stringify(result)}`);
  return result.items[0]!;
}

/** Holds places of the write-mix session at `sessionTime`, one per guest, in a new cart (GraphQL createPaymentIntent). */
export async function hold(
  baseUrl: string,
  world: WriteMixWorld,
  sessionTime: string,
  guests: string[],
): Promise<Hold['createPaymentIntent']> {
  const input = { data: [{ experienceId: world.experienceId, sessionTime, participants: guests.map(guest) }] };
  const answer = await sendWrite<{ data: Hold }>(
    baseUrl,
    graphqlRequest(LISBON_KEY, holdMutation, { brandId: LISBON, cartId: randomUUID(), input }),
    'hold',
  );
  return answer.data.createPaymentIntent;
}

/** One booking's life, each request to the gateway `gateway()` names; throws on any answer that is not the expected one. */
async function bookingSequence(gateway: () => string, world: WriteMixWorld, n: number): Promise<void> {
  const { paymentIntentSecret, cart } = await hold(gateway(), world, world.sessionTimes[n % world.sessionTimes.length]!, ['Ana', 'Rui']);
  const booking = cart.bookings[0]!;

  const confirmBody = JSON.stringify({ paymentIntentSecret, outcome: 'succeeded' });
  const confirm = {
    method: 'POST',
    path: '/v1/sandbox/payment_intents/confirm',
    headers: { 'content-type': 'application/json' },
    body: confirmBody,
  } as const;
  const confirmed = await sendWrite<{ paymentIntentStatus: string }>(gateway(), confirm, 'confirm');
  if (confirmed.paymentIntentStatus !== 'succeeded') throw new Error(`confirm: ${JSON.stringify(confirmed)}`);

  const second = booking.participants[1]!.uuid;
  const afterCancel = await cancel(gateway(), { bookingId: booking.uuid, participants: [second] }, 'cancel participant');
  if (!afterCancel.participants.find((p) => p.uuid === second)?.cancelledAt)
    throw new Error(`cancel participant: ${JSON.stringify(afterCancel)}`);

  const afterRefund = await cancel(gateway(), { bookingId: booking.uuid, refundAmount: REFUND_AMOUNT }, 'refund');
  if (afterRefund.amountRefunded !== REFUND_AMOUNT) throw new Error(`refund: ${JSON.stringify(afterRefund)}`);
}

/** `count` bookings' lives one after the other, every request to `baseUrl`. */
export async function bookingsInTurn(baseUrl: string, world: WriteMixWorld, count: number, first = 0): Promise<void> {
  for (let n = first; n < first + count; n += 1) await bookingSequence(() => baseUrl, world, n);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** Runs the mix with `clients` clients for about `seconds`: they start no new sequence after that, and the ones under way finish. */
export async function measureWriteMix(
  baseUrl: string | readonly string[],
  world: WriteMixWorld,
  seconds: number,
  clients = CONNECTIONS,
): Promise<Measurement> {
  const gateways = typeof baseUrl === 'string' ? [baseUrl] : baseUrl;
  let sent = 0;
  const gateway = () => gateways[sent++ % gateways.length]!;
  const durations: number[] = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let started = 0;
  const refusedBefore = refused;
  let failure: unknown = null;
  const client = async () => {
    while (performance.now() < deadline && failure === null) {
      const begun = performance.now();
      try {
        await bookingSequence(gateway, world, started++);
      } catch (error) {
        failure ??= error;
        return;
      }
      durations.push(performance.now() - begun);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  if (failure !== null) throw new LoadError(`T6 write mix: ${failure instanceof Error ? failure.message : String(failure)}`);
  const elapsed = (performance.now() - start) / 1000;
  durations.sort((a, b) => a - b);
  return {
    requestsPerSecond: durations.length / elapsed,
    p50Ms: percentile(durations, 50),
    p99Ms: percentile(durations, 99),
    requests: durations.length * 4,
    non2xx: refused - refusedBefore,
  };
}
