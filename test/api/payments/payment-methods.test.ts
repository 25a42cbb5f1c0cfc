/**
 * Payment methods from checkout to cancellation, on both faces: `credit-card` through the processor;
 * `pay-upon-arrival`, `pay-later`, `room-charge` and `member-number` confirmed at once with the amount
 * due (nothing taken, so nothing to refund); `loyalty`, `regional-processor` and `cash` refused. Each needs
 * the brand's feature and every experience of the cart to accept it.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const cardsOnly = ['reviews', 'customQuestions', 'priceTiers', 'shoppingCart', 'unlistedExperience', 'creditCard'];
const brand = await createBrand(db, { featuresActive: [...cardsOnly, 'payUponArrival', 'roomMemberCharge'] });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id, {
  paymentMethods: ['credit-card', 'pay-upon-arrival', 'pay-later', 'room-charge', 'member-number', 'loyalty', 'cash', 'regional-processor'],
});
const { experience: cardOnly } = await createExperience(db, brand.id, { title: 'Card only', paymentMethods: ['credit-card'] });
const session = await createSession(db, experience, { startLocal: '2027-03-01T10:00:00', capacity: 50 });
await createSession(db, cardOnly, { startLocal: '2027-03-01T10:00:00' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2027-02-01T12:00:00.000Z') });
});

beforeEach(async () => {
  await db.update(
    'brands',
    { id: brand.id },
    { featuresActive: [...cardsOnly, 'payUponArrival', 'roomMemberCharge'], validateRoomCharge: false, validateMemberCharge: false },
  );
});

const reserved = async () => ((await db.one('SELECT reserved FROM sessions WHERE id = ?', session.id)) as { reserved: number }).reserved;
const item = (experienceId = experience.id) => ({
  experienceId,
  sessionTime: '2027-03-01T10:00',
  participants: [{ firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult' }],
});
const checkout = (body: Record<string, unknown>, cartId = randomUUID()) =>
  t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, { key, body: { data: [item()], ...body } });
const bookingOfCart = async (cartId: string) =>
  (await db.one(
    'SELECT id, status, payment_method AS method, amount_minor AS amount, amount_due_minor AS due, charged_to AS "chargedTo", payment_intent_id AS "intentId" FROM bookings WHERE cart_id = ?',
    cartId,
  )) as any;
const eventsOf = async (id: string) =>
  ((await db.all('SELECT type FROM events WHERE resource_id = ? ORDER BY sequence', id)) as Array<{ type: string }>).map((e) => e.type);
const cancel = (bookings: unknown[]) => t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings } });
const gqlBooking = `query($id: UUID!) { booking(id: $id) { status paymentMethod amount amountDue chargedTo } }`;

describe.each([
  ['pay-upon-arrival', {}, null],
  ['pay-later', {}, null],
  ['room-charge', { roomNumber: '412' }, '412'],
  ['member-number', { memberNumber: 'GOLD-1234' }, 'GOLD-1234'],
] as const)('%s', (method, extra, chargedTo) => {
  it('confirms at once with the whole amount due and nothing charged; a refund is refused, a cancellation gives the places back', async () => {
    const cartId = randomUUID();
    const before = await reserved();
    const res = await checkout({ paymentMethod: method, ...extra }, cartId);
    const booking = await bookingOfCart(cartId);
    // 45.50 + 23 % VAT; no payment intent to confirm.
    expect([res.status, res.body]).toEqual([
      201,
      {
        totalNetAmount: 55.97,
        cartConfirmationCode: expect.any(String),
        bookings: [{ id: booking.id, confirmationCode: expect.any(String), status: 'confirmed' }],
      },
    ]);
    expect(booking).toEqual({ id: booking.id, status: 'confirmed', method, amount: 5597, due: 5597, chargedTo, intentId: null });
    expect(await eventsOf(booking.id)).toEqual(['booking.created', 'booking.confirmed']);
    expect(await reserved()).toBe(before + 1);

    const rest = await t.rest('GET', `/v1/bookings/${booking.id}`, { key });
    expect([rest.body.paymentMethod, rest.body.status, 'amountDue' in rest.body]).toEqual([method, 'confirmed', false]);
    const graph = await t.gql(gqlBooking, { id: booking.id }, { key });
    expect(graph.body.data.booking).toEqual({
      status: 'CONFIRMED',
      paymentMethod: method.toUpperCase().replaceAll('-', '_'),
      amount: 55.97,
      amountDue: 55.97,
      chargedTo,
    });

    const refund = await cancel([{ bookingId: booking.id, refundAmount: 10 }]);
    expect(refund.body.errors).toEqual([
      {
        index: 0,
        bookingId: booking.id,
        code: 'BOOKING_NOT_PAID',
        message: `The booking is paid by ${method}, outside Tessera: no money was taken here, so none can be refunded here`,
      },
    ]);
    const cancelled = await cancel([{ bookingId: booking.id, cancel: true }]);
    expect([cancelled.body.items[0].status, cancelled.body.items[0].amountRefunded, await reserved()]).toEqual(['cancelled', 0, before]);
  });
});

describe('the choice of a method', () => {
  it('takes a card through the processor by default, and says so on both faces', async () => {
    const cartId = randomUUID();
    const res = await checkout({}, cartId);
    expect(res.body.paymentIntentSecret).toEqual(expect.any(String));
    expect(await bookingOfCart(cartId)).toMatchObject({ status: 'processing', method: 'credit-card', due: 0, chargedTo: null });
    const graph = await t.gql(
      `mutation($b: UUID!, $c: UUID!, $input: CreatePaymentIntentInput!) { createPaymentIntent(brandId: $b, cartId: $c, input: $input) { totalNetAmount paymentIntentSecret } }`,
      { b: brand.id, c: randomUUID(), input: { data: [item()], paymentMethod: 'PAY_LATER' } },
      { key },
    );
    expect(graph.body.data.createPaymentIntent).toEqual({ totalNetAmount: 55.97, paymentIntentSecret: null });
  });

  it.each(['loyalty', 'regional-processor', 'cash'])('refuses %s, which the gateway cannot take', async (method) => {
    const res = await checkout({ paymentMethod: method, getOnlyTotalNetAmount: true });
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([
      422,
      'PAYMENT_METHOD_NOT_SUPPORTED',
      { field: 'paymentMethod', method },
    ]);
  });

  it.each([
    ['pay-upon-arrival', 'payUponArrival', {}],
    ['room-charge', 'roomMemberCharge', { roomNumber: '12' }],
    ['member-number', 'roomMemberCharge', { memberNumber: '12' }],
    ['credit-card', 'creditCard', {}],
  ] as const)('refuses %s without the brand feature %s, naming it', async (method, flag, extra) => {
    const features = [...cardsOnly, 'payUponArrival', 'roomMemberCharge'].filter((f) => f !== flag);
    await db.update('brands', { id: brand.id }, { featuresActive: features });
    const cartId = randomUUID();
    const res = await checkout({ paymentMethod: method, ...extra }, cartId);
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([
      422,
      'FEATURE_NOT_ENABLED',
      { flag, field: 'paymentMethod' },
    ]);
    expect(await bookingOfCart(cartId)).toBeUndefined();
  });

  it('refuses a method an experience of the cart does not accept, naming the item', async () => {
    const res = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key,
      body: { data: [item(), item(cardOnly.id)], paymentMethod: 'pay-upon-arrival' },
    });
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([
      422,
      'PAYMENT_METHOD_NOT_ACCEPTED',
      { field: 'data.1.experienceId', method: 'pay-upon-arrival', accepted: ['credit-card'] },
    ]);
  });

  it.each([
    ['room-charge', 'roomNumber', {}],
    ['member-number', 'memberNumber', {}],
    ['room-charge', 'roomNumber', { roomNumber: '4 12' }],
  ] as const)('needs a well-formed number with %s (%s)', async (method, field, extra) => {
    const res = await checkout({ paymentMethod: method, ...extra });
    expect([res.status, res.body.error.code, res.body.error.details.field]).toEqual([400, 'VALIDATION_FAILED', field]);
  });

  it.each([
    ['room-charge', 'validateRoomCharge', { roomNumber: '412' }, 'roomNumber'],
    ['member-number', 'validateMemberCharge', { memberNumber: 'GOLD-1' }, 'memberNumber'],
  ] as const)(
    'refuses %s where the brand has it validated: Tessera has nothing to validate it against',
    async (method, column, extra, field) => {
      await db.update('brands', { id: brand.id }, { [column]: true });
      const cartId = randomUUID();
      const res = await checkout({ paymentMethod: method, ...extra }, cartId);
      expect([res.status, res.body.error.code, res.body.error.details]).toEqual([422, 'PAYMENT_METHOD_NOT_VERIFIABLE', { field, method }]);
      expect(await bookingOfCart(cartId)).toBeUndefined();
    },
  );
});
