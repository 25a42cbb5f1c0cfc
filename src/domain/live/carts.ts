/**
 * Live carts: the cart as it reads after each event of one of its bookings (held, then confirmed once
 * paid, or failed when the hold lapses), so a page waits for the confirmation instead of polling.
 */
import { assertKeyMayUse } from '../access/publishable.ts';
import { findCart, type Cart } from '../bookings/carts.ts';
import type { EventRow } from '../outbox/store.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { notFound } from '../shared/errors.ts';
import { liveHubOf } from './live-hub-of.ts';
import { LiveStream } from './stream.ts';

const ofCart = (event: EventRow, cartId: string) => event.type.startsWith('booking.') && event.payload.cartId === cartId;

/**
 * The cart after each change of its bookings from now on, read again once per batch of events (a
 * consumer reading late gets the latest). Checked as the `cart` query is: secret keys only (FORBIDDEN
 * for a publishable key), FORBIDDEN for a brand the key may not act for, NOT_FOUND for a cart that is
 * not the brand's (or not checked out yet).
 */
export async function watchCart(deps: CallerDeps, input: { brandId: string; cartId: string }): Promise<AsyncIterableIterator<Cart>> {
  assertKeyMayUse(deps.principal, undefined, 'watch a cart');
  const cart = await findCart(deps, input);
  if (!cart) throw notFound('Cart', input.cartId);
  const hub = liveHubOf(deps);
  // One read at a time, in batch order, so an older state never follows a newer one.
  let reading: Promise<void> = Promise.resolve();
  let unlisten = () => {};
  const stream = new LiveStream<Cart>(() => unlisten());
  unlisten = hub.listen((events) => {
    if (!events.some((event) => ofCart(event, cart.id))) return;
    reading = reading.then(async () => {
      if (stream.closed) return;
      try {
        const now = await findCart(deps, input);
        if (now) stream.offer(() => now);
      } catch (error) {
        stream.fail(error);
      }
    });
  });
  return stream;
}
