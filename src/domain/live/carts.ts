/**
 * Live carts: the cart as it reads after each event of one of its bookings (held, then confirmed once
 * paid, or failed when the hold lapses), so a page waits for the confirmation instead of polling.
 */
import { assertHoldsCurrentIntent, findCart, type Cart } from '../bookings/carts.ts';
import type { EventRow } from '../outbox/store.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { notFound } from '../shared/errors.ts';
import { liveHubOf } from './live-hub-of.ts';
import { LiveStream } from './stream.ts';

const ofCart = (event: EventRow, cartId: string) => event.type.startsWith('booking.') && event.payload.cartId === cartId;

/** Reads of a cart to find one state (`settledCart`) before the last read is taken as it is. */
const MAX_READS = 3;

/**
 * The cart in one state, as its JSON: `findCart` reads the cart, its checkouts and its bookings in separate
 * statements, so a read across a commit can mix the states before and after it (the cart still open, its
 * booking already confirmed by the payment). A state counts once a second read agrees with it; under
 * writes that never pause, the last of MAX_READS reads.
 */
async function settledCart(deps: CallerDeps, input: { brandId: string; cartId: string }): Promise<[Cart | null, string]> {
  let cart = await findCart(deps, input);
  let json = JSON.stringify(cart);
  for (let reads = 1; reads < MAX_READS; reads += 1) {
    const again = await findCart(deps, input);
    const againJson = JSON.stringify(again);
    if (againJson === json) break;
    [cart, json] = [again, againJson];
  }
  return [cart, json];
}

/**
 * The cart after each change of its bookings from now on, read again once per batch of events (a
 * consumer reading late gets the latest). A secret key is checked as the `cart` query checks it:
 * FORBIDDEN for a brand the key may not act for, NOT_FOUND for a cart that is not the brand's (or not
 * checked out yet). A publishable key (the booking page's) may watch the cart it checked out when it
 * shows the client secret of the cart's current payment intent, the credential createPaymentIntent gave
 * it, as Stripe.js reads an intent with a publishable key and the client secret.
 */
export async function watchCart(
  deps: CallerDeps,
  input: { brandId: string; cartId: string; paymentIntentSecret?: string | null },
): Promise<AsyncIterableIterator<Cart>> {
  const cart = await findCart(deps, input);
  if (deps.principal.kind === 'publishable') await assertHoldsCurrentIntent(deps, cart, input.paymentIntentSecret);
  if (!cart) throw notFound('Cart', input.cartId);
  const hub = liveHubOf(deps);
  // One read at a time, in batch order, so an older state never follows a newer one; a state equal to
  // the last one sent is not sent again.
  let reading: Promise<void> = Promise.resolve();
  let last = '';
  const read = (only?: (cart: Cart) => boolean) => {
    reading = reading.then(async () => {
      if (stream.closed) return;
      try {
        const [now, seen] = await settledCart(deps, input);
        if (!now || seen === last || (only && !only(now))) return;
        last = seen;
        stream.offer(() => now);
      } catch (error) {
        stream.fail(error);
      }
    });
  };
  let unlisten = () => {};
  const stream = new LiveStream<Cart>(() => unlisten());
  unlisten = await hub.listen((events) => {
    if (events.some((event) => ofCart(event, cart.id))) read();
  });
  // A page that subscribes just after paying (its payment may land before its watch listens) gets the
  // settled cart at once rather than waiting for a change that already happened. Read after listening,
  // so nothing committed in between is missed.
  read((now) => now.status === 'paid' || now.bookings.some((booking) => booking.status !== 'processing'));
  return stream;
}
