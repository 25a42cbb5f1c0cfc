/**
 * A write's GraphQL answer made from what its unit of work wrote (issue 38: no read of what the unit
 * just wrote) is the answer a read right after gives: createPaymentIntent's new cart, cancelBookings'
 * items (a guest cancelled, a part refunded) and their sessions.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../support/app.ts';
import { guest } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { createWaitlistEntry } from '../../../fixtures/factories/waitlists.ts';

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

describe("cancelBookings' session, taken from the units instead of read after them", () => {
  const sessionQuery = `query($id: ID!) { node(id: $id) { ... on Session { id remaining } } }`;
  const sessionNow = async (id: string) => (await t.gql(sessionQuery, { id }, { key })).body.data.node;
  const cancelGuests = (items: Array<{ bookingId: string; participants: string[] }>) =>
    t.gql(
      `mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) { items { uuid session { id remaining } } errors { code } } }`,
      { input: { bookings: items } },
      { key },
    );

  it('is the session after the offers its freed place made to the waitlist, as a read right after shows it', async () => {
    const { experience } = await createExperience(db, brand.id);
    const waitlist = await createWaitlist(db, experience.id);
    const s = await createSession(db, experience, { startLocal: '2027-02-01T10:00:00', capacity: 3 });
    const { booking, participants } = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}, {}] });
    await createWaitlistEntry(db, { waitlist, session: s, brandId: brand.id, position: 1 });
    const res = await cancelGuests([{ bookingId: booking.id, participants: [participants[2]!.id] }]);
    expect(res.body.data.cancelBookings.errors).toStrictEqual([]);
    const [item] = res.body.data.cancelBookings.items;
    // The freed place went to the waiting party: none is on sale.
    expect(item.session.remaining).toBe(0);
    expect(item.session).toStrictEqual(await sessionNow(item.session.id));
  });

  it('is the session after the last item that touched it, for several items of one request', async () => {
    const s = await createSession(db, sail, { startLocal: '2027-02-02T10:00:00', capacity: 10 });
    const a = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    const b = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}, {}] });
    const res = await cancelGuests([
      { bookingId: a.booking.id, participants: [a.participants[1]!.id] },
      { bookingId: b.booking.id, participants: [b.participants[1]!.id, b.participants[2]!.id] },
    ]);
    expect(res.body.data.cancelBookings.errors).toStrictEqual([]);
    const sessions = res.body.data.cancelBookings.items.map((item: { session: unknown }) => item.session);
    expect(sessions.map((x: { remaining: number }) => x.remaining)).toStrictEqual([8, 8]);
    expect(sessions[0]).toStrictEqual(await sessionNow(sessions[0].id));
  });
});

describe("createPaymentIntent's sessions, taken from its unit instead of read after it", () => {
  const sessionFields = 'id uuid startDateTime timezone duration capacity remaining waitlistId status';
  const sessionQuery = `query($id: ID!) { node(id: $id) { ... on Session { ${sessionFields} } } }`;
  const holdSessions = `mutation($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
    createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) { cart { bookings { session { ${sessionFields} } } } } }`;
  const sessionsHeld = async (input: unknown, as: { key: string; headers?: Record<string, string> }) => {
    const res = await t.gql(holdSessions, { brandId: brand.id, cartId: randomUUID(), input }, as);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.createPaymentIntent.cart.bookings.map((b: { session: unknown }) => b.session);
  };
  const sessionNow = async (id: string, as: { key: string; headers?: Record<string, string> } = { key }) =>
    (await t.gql(sessionQuery, { id }, as)).body.data.node;
  const at = (experienceId: string, startLocal: string, people: string[]) => ({
    experienceId,
    sessionTime: startLocal,
    participants: people.map((name) => guest(name)),
  });

  it('is the session after the last item that took its places, with its waitlist, as a read right after shows it', async () => {
    const { experience } = await createExperience(db, brand.id);
    const waitlist = await createWaitlist(db, experience.id);
    await createSession(db, experience, { startLocal: '2027-03-01T10:00:00', capacity: 10 });
    const input = { data: [at(experience.id, '2027-03-01T10:00:00', ['Ana', 'Rui']), at(experience.id, '2027-03-01T10:00:00', ['Eva'])] };
    const sessions = await sessionsHeld(input, { key });
    expect(sessions.map((s: { remaining: number }) => s.remaining)).toStrictEqual([7, 7]);
    expect(sessions[0].waitlistId).toBe(waitlist.id);
    expect(sessions[0]).toStrictEqual(await sessionNow(sessions[0].id));
    expect(sessions[1]).toStrictEqual(sessions[0]);
  });

  it("shows a publishable key what it may still hold of the brand's share, as a read right after shows it", async () => {
    const shop = 'https://shop.example';
    const publishable = { key: (await createPublishableKey(db, brand.id, [shop])).secret, headers: { origin: shop } };
    const { experience } = await createExperience(db, brand.id);
    await createSession(db, experience, { startLocal: '2027-03-02T10:00:00', capacity: 10 });
    const [session] = await sessionsHeld({ data: [at(experience.id, '2027-03-02T10:00:00', ['Ana', 'Rui'])] }, publishable);
    // Half of 10 places for unpaid publishable holds, 2 of them held: 3 left to this key, 8 on sale to a secret key.
    expect(session.remaining).toBe(3);
    expect(session).toStrictEqual(await sessionNow(session.id, publishable));
    expect((await sessionNow(session.id)).remaining).toBe(8);
  });
});
