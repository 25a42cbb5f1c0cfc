/**
 * Issue 34, item 1: the server sets prices. A publishable key (public: it ships in every shop's page) may send
 * checkout only what a shopper chooses; discounts, staff notes, chosen confirmation codes and metadata are
 * FORBIDDEN naming the field, on both faces, before anything is priced or held. Secret keys keep them all.
 * Through HTTP, on both engines.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { CREATE_PAYMENT_INTENT, checkoutRows, guest } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const SHOP = 'https://shop.example';
const NOW = new Date('2027-02-01T12:00:00.000Z');
const db = await freshDb();
const rows = checkoutRows(db);
const brand = await createBrand(db, { publishableHoldSharePercent: 100 });
const secretKey = (await createApiKey(db, { brandId: brand.id })).secret;
const publishableKey = (await createPublishableKey(db, brand.id, [SHOP])).secret;
const { experience } = await createExperience(db, brand.id);
const publishable = { key: publishableKey, headers: { origin: SHOP } };
const secret = { key: secretKey };

let t: TestApp;
beforeAll(async () => {
  t = await startApp(db, { now: () => NOW, publishableHoldPlacesPerClient: 1_000 });
});

let day = 0;
/** A new session of 8 places, on a day of its own. */
const session = () => {
  day += 1;
  return createSession(db, experience, { startLocal: `2027-03-${String(day).padStart(2, '0')}T10:00:00`, capacity: 8 });
};

const item = (s: { startLocal: string }, guests: number, extra: Record<string, unknown> = {}) => ({
  experienceId: experience.id,
  sessionTime: s.startLocal,
  participants: Array.from({ length: guests }, (_, i) => guest(`G${i}`)),
  ...extra,
});
type As = { key: string; headers?: Record<string, string> };
const rest = (body: Record<string, unknown>, as: As, cartId = randomUUID()) =>
  t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, { ...as, body });
const gql = (input: Record<string, unknown>, as: As, cartId = randomUUID()) =>
  t.gql(CREATE_PAYMENT_INTENT, { brandId: brand.id, cartId, input }, as);

const refusal = (field: string) => ({
  code: 'FORBIDDEN',
  message: `A publishable key may not set ${field}: the server sets prices, and staff-only fields need a secret key (sk_...) from a server`,
  details: { field, keyKind: 'publishable' },
  requestId: expect.any(String),
});
const gqlRefusal = (field: string) => ({
  code: 'FORBIDDEN',
  message: refusal(field).message,
  extensions: { code: 'FORBIDDEN', field, keyKind: 'publishable' },
});
const gqlError = (res: { body: any }) => {
  const [error] = res.body.errors;
  return { code: error.extensions.code, message: error.message, extensions: error.extensions };
};

describe("the issue's attack: a 100 % discount with the publishable key", () => {
  it('is 403 FORBIDDEN naming data.0.discountPercentage on REST, and the session keeps its 8 places', async () => {
    const s = await session();
    const cartId = randomUUID();
    const res = await rest({ data: [item(s, 7, { discountPercentage: 100 })] }, publishable, cartId);
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: refusal('data.0.discountPercentage') } });
    expect(await rows.reserved(s.id)).toBe(0);
    expect(await rows.cart(cartId)).toBeUndefined();
    const left = await t.rest(
      'GET',
      `/v1/brands/${brand.id}/experiences/${experience.id}/availability?from=${s.startLocal.slice(0, 10)}&to=${s.startLocal.slice(0, 10)}`,
      publishable,
    );
    expect(left.body.data.map((x: { remaining: number }) => x.remaining)).toEqual([8]);
  });

  it('is FORBIDDEN naming the field on GraphQL createPaymentIntent, nothing written', async () => {
    const s = await session();
    const cartId = randomUUID();
    const res = await gql({ data: [item(s, 7, { discountPercentage: 100 })] }, publishable, cartId);
    expect(res.body.data).toBeNull();
    expect(gqlError(res)).toEqual(gqlRefusal('data.0.discountPercentage'));
    expect(await rows.reserved(s.id)).toBe(0);
    expect(await rows.cart(cartId)).toBeUndefined();
  });

  it('is refused for a quote too: a publishable key is never shown a price it cannot pay', async () => {
    const s = await session();
    const res = await rest({ data: [item(s, 1, { discountAmount: 45.5 })], getOnlyTotalNetAmount: true }, publishable);
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: refusal('data.0.discountAmount') } });
  });

  it('still books with the secret key: 201, nothing to pay, confirmed, 7 places taken', async () => {
    const s = await session();
    const res = await rest({ data: [item(s, 7, { discountPercentage: 100 })] }, secret);
    expect(res.status).toBe(201);
    expect(res.body.totalNetAmount).toBe(0);
    expect(res.body.bookings.map((b: { status: string }) => b.status)).toEqual(['confirmed']);
    expect(await rows.reserved(s.id)).toBe(7);
  });
});

describe('each staff-only field of a cart item', () => {
  const staffOnly: Array<[string, unknown]> = [
    ['discountAmount', 10],
    ['discountPercentage', 100],
    ['internalNotes', 'STAFF: comp approved'],
    ['intendedConfirmationCode', 'COMP0001'],
    ['metadata', { comp: true }],
  ];

  it.each(staffOnly)('%s is refused with the publishable key, naming it, on both faces (second item of the cart)', async (name, value) => {
    const s = await session();
    const body = { data: [item(s, 1), item(s, 1, { [name]: value })] };
    const r = await rest(body, publishable);
    expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: { error: refusal(`data.1.${name}`) } });
    const g = await gql(body, publishable);
    expect(gqlError(g)).toEqual(gqlRefusal(`data.1.${name}`));
    expect(await rows.reserved(s.id)).toBe(0);
  });

  it('all of them are kept with the secret key, on both faces', async () => {
    const s = await session();
    const extras = { discountAmount: 10, internalNotes: 'STAFF: comp approved', metadata: { comp: true } };
    const cartId = randomUUID();
    const r = await rest({ data: [item(s, 1, { ...extras, intendedConfirmationCode: 'COMP0001' })] }, secret, cartId);
    expect(r.status).toBe(201);
    // (45.50 - 10) plus the experience's 23 % tax.
    expect(r.body.totalNetAmount).toBe(43.67);
    expect(r.body.bookings.map((b: { confirmationCode: string }) => b.confirmationCode)).toEqual(['COMP0001']);
    const g = await gql({ data: [item(s, 1, { ...extras, discountPercentage: 50, intendedConfirmationCode: 'COMP0002' })] }, secret);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.createPaymentIntent.cart.bookings.map((b: { confirmationCode: string }) => b.confirmationCode)).toEqual([
      'COMP0002',
    ]);
    const [stored] = await rows.bookingsOfCart(cartId);
    expect(JSON.parse(stored!.metadata!)).toEqual({ partner: { comp: true } });
    expect(await rows.reserved(s.id)).toBe(2);
  });

  it("no longer tells a publishable key which confirmation codes exist (CONFIRMATION_CODE_TAKEN is the secret key's)", async () => {
    const s = await session();
    expect((await rest({ data: [item(s, 1, { intendedConfirmationCode: 'TAKEN001' })] }, secret)).status).toBe(201);
    const probe = await rest({ data: [item(s, 1, { intendedConfirmationCode: 'TAKEN001' })] }, publishable);
    const fresh = await rest({ data: [item(s, 1, { intendedConfirmationCode: 'FREE0001' })] }, publishable);
    expect([probe.status, probe.body.error.code, fresh.status, fresh.body.error.code]).toEqual([403, 'FORBIDDEN', 403, 'FORBIDDEN']);
  });

  it('lets a publishable key send what a shopper chooses, and GraphQL nulls for staff-only fields', async () => {
    const s = await session();
    const shopper = {
      notes: 'Vegetarian, please',
      accessCode: 'VIP',
      resourceGroupId: 'boat-2',
      resourceQuantity: 1,
      sessionDuration: 120,
    };
    const r = await rest({ data: [item(s, 2, shopper)], purchaser: { firstName: 'Ana', lastName: 'Silva' } }, publishable);
    expect(r.status).toBe(201);
    // Two adults at 45.50, plus 23 % tax: the catalogue's price, nothing taken off.
    expect(r.body.totalNetAmount).toBe(111.93);
    const nulls = { discountAmount: null, discountPercentage: null, internalNotes: null, intendedConfirmationCode: null, metadata: null };
    const g = await gql({ data: [item(s, 1, { ...shopper, ...nulls })] }, publishable);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.createPaymentIntent.totalNetAmount).toBe(55.97);
    expect(await rows.reserved(s.id)).toBe(3);
  });
});
