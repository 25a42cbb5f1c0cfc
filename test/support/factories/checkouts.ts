import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { creditCodes, creditRedemptions, paymentIntents } from '../../../src/db/schema.ts';
import { createBooking, type BookingSpec } from './bookings.ts';
import { createCart, createPaymentIntent } from './carts.ts';

export function createCreditCode(db: Db, brandId: string, code: string, balanceMinor: number) {
  const row = { id: randomUUID(), brandId, code, balanceMinor };
  db.insert(creditCodes).values(row).run();
  return row;
}

export interface CheckoutItem extends Omit<BookingSpec, 'brandId'> {
  /** Credit this booking redeemed from a code (the code's balance is reduced as checkout would). */
  credit?: { code: { id: string; code: string }; amountMinor: number };
}

export interface CheckoutSpec {
  brandId: string;
  items: CheckoutItem[];
  /** An existing cart (a later checkout of it); a new open cart otherwise. */
  cart?: { id: string; brandId: string; confirmationCode: string };
  intent?: Partial<typeof paymentIntents.$inferInsert>;
}

/**
 * A checkout awaiting payment, as createPaymentIntent leaves it: a cart, one booking per item (status
 * `processing` with a hold unless told otherwise), their credit redemptions, and the intent paying for
 * them. `secret` is the intent's client secret, `reference` the processor's id of it.
 */
export function createCheckout(db: Db, spec: CheckoutSpec) {
  const cart = spec.cart ?? createCart(db, spec.brandId);
  const made = spec.items.map((item, position) => {
    const { credit, ...bookingSpec } = item;
    const booking = createBooking(db, {
      ...bookingSpec,
      brandId: spec.brandId,
      status: item.status ?? 'processing',
      overrides: {
        cartId: cart.id,
        cartConfirmationCode: cart.confirmationCode,
        cartPosition: position,
        holdExpiresAt: (item.status ?? 'processing') === 'processing' ? '2026-11-25T12:15:00.000Z' : null,
        ...item.overrides,
      },
    });
    if (credit) redeem(db, booking.booking, credit);
    return booking;
  });
  const amountMinor = made.reduce((sum, m) => sum + m.booking.amountMinor, 0);
  const intent = createPaymentIntent(db, cart, { amountMinor, ...spec.intent });
  for (const m of made) db.$client.prepare('UPDATE bookings SET payment_intent_id = ? WHERE id = ?').run(intent.id, m.booking.id);
  return { cart, intent, secret: `secret-${intent.id}`, reference: intent.processorReference, bookings: made };
}

/** Records the credit the booking took, with a credit discount in its pricing, and takes it from the code. */
function redeem(db: Db, booking: { id: string; amountMinor: number }, credit: NonNullable<CheckoutItem['credit']>) {
  db.insert(creditRedemptions).values({ id: randomUUID(), bookingId: booking.id, creditCodeId: credit.code.id, amountMinor: credit.amountMinor }).run();
  db.$client.prepare('UPDATE credit_codes SET balance_minor = balance_minor - ? WHERE id = ?').run(credit.amountMinor, credit.code.id);
  const pricing = {
    tiersMinor: booking.amountMinor + credit.amountMinor,
    addOns: [],
    subtotalMinor: booking.amountMinor + credit.amountMinor,
    discounts: [{ kind: 'credit', code: credit.code.code, amountMinor: credit.amountMinor }],
    netMinor: booking.amountMinor,
    taxes: [],
    totalMinor: booking.amountMinor,
  };
  db.$client.prepare('UPDATE bookings SET pricing = ? WHERE id = ?').run(JSON.stringify(pricing), booking.id);
}
