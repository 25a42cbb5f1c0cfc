/**
 * A write's GraphQL answer made from what its unit of work wrote (issue 38: no read of what the unit
 * just wrote) is the answer a read right after gives: createPaymentIntent's new cart, cancelBookings'
 * items (a guest cancelled, a part refunded).
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { startApp } from '../../support/app.ts';
import { guest } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const brand = await createBrand(db, { currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const sail = (await createExperience(db, brand.id)).experience;
await createSession(db, sail, { startLocal: '2027-01-05T18:00:00', capacity: 10 });
await createSession(db, sail, { startLocal: '2027-01-06T18:00:00', capacity: 10 });
const t = await startApp(db, { now: () => new Date('2026-11-25T12:00:00.000Z') });

const bookingFields = `id uuid confirmationCode cartId cartConfirmationCode amount currency amountRefunded status
  purchaser { firstName lastName emailAddress } participants { id uuid firstName lastName priceTierName cancelledAt }
  paymentMethod amountDue chargedTo createdAt notes event { timezone startDateTime } session { id remaining }`;
const cartFields = `id uuid confirmationCode status paymentIntentStatus totalAmount currency bookings { ${bookingFields} }`;

const hold = `mutation($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
  createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) { paymentIntentSecret cart { ${cartFields} } } }`;
const cartQuery = `query($b: UUID!, $c: UUID!) { cart(brandId: $b, cartId: $c) { ${cartFields} } }`;
const cancel = `mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) { items { ${bookingFields} } errors { code } } }`;
const bookingQuery = `query($id: UUID!) { booking(id: $id) { ${bookingFields} } }`;

const items = (names: string[][]) => ({
  data: names.map((people, i) => ({
    experienceId: sail.id,
    sessionTime: i === 0 ? '2027-01-05T18:00:00' : '2027-01-06T18:00:00',
    participants: people.map((name) => guest(name)),
  })),
});

async function cartNow(cartId: string) {
  const res = await t.gql(cartQuery, { b: brand.id, c: cartId }, { key });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.cart;
}

it("createPaymentIntent's cart, new or posted again, is the cart as a read right after shows it", async () => {
  const cartId = randomUUID();
  const first = await t.gql(hold, { brandId: brand.id, cartId, input: items([['Ana', 'Rui'], ['Eva']]) }, { key });
  expect(first.body.errors).toBeUndefined();
  const answered = first.body.data.createPaymentIntent.cart;
  expect(answered).toStrictEqual(await cartNow(cartId));
  expect(answered.status).toBe('OPEN');
  expect(answered.paymentIntentStatus).toBe('REQUIRES_PAYMENT');
  expect(
    answered.bookings.map((b: { participants: Array<{ firstName: string }> }) => b.participants.map((p) => p.firstName)),
  ).toStrictEqual([['Ana', 'Rui'], ['Eva']]);
  expect(answered.bookings.map((b: { session: { remaining: number } }) => b.session.remaining)).toStrictEqual([8, 9]);
  expect(answered.totalAmount).toBe(answered.bookings.reduce((sum: number, b: { amount: number }) => sum + b.amount, 0));

  // Posted again: the cart exists, so the answer is read; it shows only the new checkout.
  const again = await t.gql(hold, { brandId: brand.id, cartId, input: items([['Ana']]) }, { key });
  expect(again.body.errors).toBeUndefined();
  expect(again.body.data.createPaymentIntent.cart).toStrictEqual(await cartNow(cartId));
  expect(again.body.data.createPaymentIntent.cart.bookings).toHaveLength(1);
  expect(again.body.data.createPaymentIntent.cart.confirmationCode).toBe(answered.confirmationCode);
});

it("cancelBookings' items, a guest cancelled and a part refunded, are the bookings as a read right after shows them", async () => {
  const cartId = randomUUID();
  const held = await t.gql(hold, { brandId: brand.id, cartId, input: items([['Ana', 'Rui']]) }, { key });
  const secret = held.body.data.createPaymentIntent.paymentIntentSecret;
  expect(held.body.errors).toBeUndefined();
  const paid = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret: secret, outcome: 'succeeded' } });
  expect(paid.body.paymentIntentStatus).toBe('succeeded');
  const booking = (await cartNow(cartId)).bookings[0];
  const bookingNow = async () => (await t.gql(bookingQuery, { id: booking.uuid }, { key })).body.data.booking;

  const cancelled = await t.gql(
    cancel,
    { input: { bookings: [{ bookingId: booking.uuid, participants: [booking.participants[1].uuid] }] } },
    { key },
  );
  expect(cancelled.body.data.cancelBookings.errors).toStrictEqual([]);
  const [afterCancel] = cancelled.body.data.cancelBookings.items;
  expect(afterCancel).toStrictEqual(await bookingNow());
  expect(afterCancel.participants.map((p: { cancelledAt: string | null }) => p.cancelledAt !== null)).toStrictEqual([false, true]);

  const refunded = await t.gql(cancel, { input: { bookings: [{ bookingId: booking.uuid, refundAmount: 10 }] } }, { key });
  expect(refunded.body.data.cancelBookings.errors).toStrictEqual([]);
  const [afterRefund] = refunded.body.data.cancelBookings.items;
  expect(afterRefund).toStrictEqual(await bookingNow());
  expect(afterRefund.amountRefunded).toBe(10);
});
