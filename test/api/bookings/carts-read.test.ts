import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createCart, createPaymentIntent } from '../../../fixtures/factories/carts.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { inTurn } from '../../../fixtures/factories/in-turn.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db);
const brand = await createBrand(db, { name: 'Coast Lisbon', organizationId: org.id, currency: 'EUR' });
const sister = await createBrand(db, { name: 'Coast Tokyo', organizationId: org.id, currency: 'JPY' });
const outsider = await createBrand(db, { name: 'Elsewhere' });
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;

const sail = (await createExperience(db, brand.id, { title: 'Sunset Sail' })).experience;
const session = await createSession(db, sail, { startLocal: '2026-12-01T09:00:00' });

/** A booking of `cart` made by the checkout that created `intent` (none for a free checkout). */
async function cartBooking(
  cart: { id: string; brandId: string; confirmationCode: string },
  intent: { id: string } | null,
  spec: {
    status: 'processing' | 'confirmed' | 'failed';
    priceMinor: number;
    createdAt: string;
    sessionOf?: typeof session;
  },
) {
  return (
    await createBooking(db, {
      brandId: cart.brandId,
      session: spec.sessionOf ?? session,
      status: spec.status,
      currency: cart.brandId === sister.id ? 'JPY' : 'EUR',
      participants: [{ priceMinor: spec.priceMinor }],
      overrides: {
        cartId: cart.id,
        cartConfirmationCode: cart.confirmationCode,
        paymentIntentId: intent?.id ?? null,
        createdAt: spec.createdAt,
      },
    })
  ).booking;
}

// An open cart checked out twice: the first intent was replaced, its booking failed.
const open = await createCart(db, brand.id, { confirmationCode: 'OPEN0001' });
const replaced = await createPaymentIntent(db, open, { status: 'canceled', createdAt: '2026-11-20T10:00:00.000Z' });
await cartBooking(open, replaced, { status: 'failed', priceMinor: 9900, createdAt: '2026-11-20T10:00:00.000Z' });
const current = await createPaymentIntent(db, open, { status: 'requires_payment', createdAt: '2026-11-20T10:05:00.000Z' });
const openFirst = await cartBooking(open, current, { status: 'processing', priceMinor: 4550, createdAt: '2026-11-20T10:05:00.000Z' });
const openSecond = await cartBooking(open, current, { status: 'processing', priceMinor: 2005, createdAt: '2026-11-20T10:05:00.000Z' });

// A cart paid at once because its total was 0: no payment intent at all.
const free = await createCart(db, brand.id, { confirmationCode: 'FREE0001', status: 'paid' });
const freeBooking = await cartBooking(free, null, { status: 'confirmed', priceMinor: 0, createdAt: '2026-11-21T09:00:00.000Z' });

// An unpaid checkout replaced by a free one (a coupon brought the total to 0).
const turnedFree = await createCart(db, brand.id, { confirmationCode: 'FREE0002', status: 'paid' });
const dropped = await createPaymentIntent(db, turnedFree, { status: 'canceled', createdAt: '2026-11-22T09:00:00.000Z' });
await cartBooking(turnedFree, dropped, { status: 'failed', priceMinor: 4550, createdAt: '2026-11-22T09:00:00.000Z' });
const turnedFreeBooking = await cartBooking(turnedFree, null, {
  status: 'confirmed',
  priceMinor: 0,
  createdAt: '2026-11-22T09:10:00.000Z',
});

// A paid cart of a JPY brand.
const tokyo = (await createExperience(db, sister.id, { timezoneId: 'Asia/Tokyo' })).experience;
const tokyoSession = await createSession(db, tokyo, { startLocal: '2026-12-03T19:30:00' });
const yenCart = await createCart(db, sister.id, { confirmationCode: 'YEN00001', status: 'paid' });
const yenIntent = await createPaymentIntent(db, yenCart, { status: 'succeeded', currency: 'JPY', amountMinor: 11000 });
const yenBookings = await inTurn([8000, 3000], (priceMinor) =>
  cartBooking(yenCart, yenIntent, { status: 'confirmed', priceMinor, createdAt: '2026-11-20T10:00:00.000Z', sessionOf: tokyoSession }),
);

const foreignCart = await createCart(db, outsider.id);

beforeAll(async () => {
  t = await startApp(db);
});

// The raw ids (`uuid`) as `id`: the cases compare them with the rows created above.
const cartQuery = `query($brandId: UUID!, $cartId: UUID!) { cart(brandId: $brandId, cartId: $cartId) {
  id: uuid confirmationCode status paymentIntentStatus totalAmount currency
  bookings { id: uuid status amount cartId cartConfirmationCode }
} }`;

async function cartOf(brandId: string, cartId: string, key = brandKey) {
  const res = await t.gql(cartQuery, { brandId, cartId }, { key });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.cart;
}

describe('GraphQL cart', () => {
  it("shows an open cart's current intent and only the bookings of its current checkout", async () => {
    expect(await cartOf(brand.id, open.id)).toStrictEqual({
      id: open.id,
      confirmationCode: 'OPEN0001',
      status: 'OPEN',
      paymentIntentStatus: 'REQUIRES_PAYMENT',
      totalAmount: 65.55,
      currency: 'EUR',
      bookings: [
        { id: openFirst.id, status: 'PROCESSING', amount: 45.5, cartId: open.id, cartConfirmationCode: 'OPEN0001' },
        { id: openSecond.id, status: 'PROCESSING', amount: 20.05, cartId: open.id, cartConfirmationCode: 'OPEN0001' },
      ],
    });
  });

  it('shows a free cart as paid with no payment intent', async () => {
    expect(await cartOf(brand.id, free.id)).toMatchObject({
      status: 'PAID',
      paymentIntentStatus: null,
      totalAmount: 0,
      bookings: [{ id: freeBooking.id, status: 'CONFIRMED', amount: 0 }],
    });
    expect(await cartOf(brand.id, turnedFree.id)).toMatchObject({
      status: 'PAID',
      paymentIntentStatus: null,
      totalAmount: 0,
      bookings: [{ id: turnedFreeBooking.id, status: 'CONFIRMED' }],
    });
  });

  it('totals a JPY cart in whole yen, for an organization key', async () => {
    expect(await cartOf(sister.id, yenCart.id, orgKey)).toMatchObject({
      status: 'PAID',
      paymentIntentStatus: 'SUCCEEDED',
      totalAmount: 11000,
      currency: 'JPY',
      bookings: yenBookings.map((b) => ({ id: b.id, amount: b.amountMinor })),
    });
  });

  it('returns the same Booking objects as booking(id)', async () => {
    const fields =
      'id uuid confirmationCode amount currency status purchaser { id key firstName } participants { id uuid priceTierName cancelledAt } event { timezone startDateTime } experience { id uuid title }';
    const res = await t.gql(
      `query($brandId: UUID!, $cartId: UUID!, $id: UUID!) { cart(brandId: $brandId, cartId: $cartId) { bookings { ${fields} } } booking(id: $id) { ${fields} } }`,
      { brandId: brand.id, cartId: open.id, id: openFirst.id },
      { key: brandKey },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.cart.bookings[0]).toStrictEqual(res.body.data.booking);
    expect(res.body.data.booking.uuid).toBe(openFirst.id);
    // The booked experience is the Experience itself (in the brand's default language): the same object `experience` answers.
    const read = await t.gql(
      `query($b: UUID!, $id: UUID!) { experience(brandId: $b, id: $id) { id } }`,
      { b: brand.id, id: sail.id },
      { key: brandKey },
    );
    expect(res.body.data.booking.experience).toStrictEqual({ id: read.body.data.experience.id, uuid: sail.id, title: 'Sunset Sail' });
  });

  it("is null for an unknown cart and for another brand's cart", async () => {
    expect(await cartOf(brand.id, randomUUID())).toBeNull();
    expect(await cartOf(brand.id, foreignCart.id)).toBeNull();
    expect(await cartOf(brand.id, yenCart.id, orgKey)).toBeNull();
  });

  it('gives FORBIDDEN for a brand the key may not act for, UNAUTHENTICATED without a key, BAD_USER_INPUT for a bad id', async () => {
    const forbidden = await t.gql(cartQuery, { brandId: outsider.id, cartId: foreignCart.id }, { key: brandKey });
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const sisterCart = await t.gql(cartQuery, { brandId: sister.id, cartId: yenCart.id }, { key: brandKey });
    expect(sisterCart.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.gql(cartQuery, { brandId: brand.id, cartId: open.id })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const bad = await t.gql(cartQuery, { brandId: brand.id, cartId: 'nope' }, { key: brandKey });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
