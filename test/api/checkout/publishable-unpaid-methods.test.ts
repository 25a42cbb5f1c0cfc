/**
 * Issue 34, item 2: every unpaid place counts. `pay-upon-arrival`, `pay-later`, `room-charge` and
 * `member-number` confirm places with nothing paid, so with the public key anyone could take a whole session.
 * A brand offers them to its publishable key only with the feature `publishableUnpaidMethods` (off unless
 * listed: FORBIDDEN naming `paymentMethod`); with it, those places count against the client's hold budget
 * (PUBLISHABLE_HOLD_PLACES_PER_CLIENT, 10) and the publishable share while unpaid, as card holds do, until the
 * booking is cancelled or moved, or its session starts. Through HTTP, on both engines, invariants checked.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { guest } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { invariantViolations } from '../../support/invariants.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const SHOP = 'https://shop.example';
const NOW = new Date('2027-02-01T12:00:00.000Z');
let clock = NOW;
const db = await freshDb();
const unpaid = ['pay-upon-arrival', 'pay-later', 'room-charge', 'member-number'] as const;
const features = ['priceTiers', 'shoppingCart', 'creditCard', 'payUponArrival', 'roomMemberCharge', 'enableRescheduleBookings'];

let t: TestApp;
beforeAll(async () => {
  // Behind a proxy on this host: X-Forwarded-For names the client.
  t = await startApp(db, { now: () => clock, http: { TRUST_PROXY: ['127.0.0.1'] } });
});
afterEach(async () => {
  clock = NOW;
  expect(await invariantViolations(db)).toEqual([]);
});

/** A brand of its own (with or without the flag), its keys, and an experience taking every method. */
async function shop(allowUnpaid: boolean) {
  const brand = await createBrand(db, { featuresActive: allowUnpaid ? [...features, 'publishableUnpaidMethods'] : features });
  const secret = (await createApiKey(db, { brandId: brand.id })).secret;
  const publishable = (await createPublishableKey(db, brand.id, [SHOP])).secret;
  const { experience } = await createExperience(db, brand.id, { paymentMethods: ['credit-card', ...unpaid] });
  let day = 0;
  /** A session of 12 places on a day of its own. */
  const session = () => {
    day += 1;
    return createSession(db, experience, { startLocal: `2027-03-${String(day).padStart(2, '0')}T10:00:00`, capacity: 12 });
  };
  const body = (s: { startLocal: string }, guests: number, paymentMethod?: string) => ({
    data: [
      { experienceId: experience.id, sessionTime: s.startLocal, participants: Array.from({ length: guests }, (_, i) => guest(`G${i}`)) },
    ],
    ...(paymentMethod ? { paymentMethod } : {}),
    ...(paymentMethod === 'room-charge' ? { roomNumber: '214' } : {}),
    ...(paymentMethod === 'member-number' ? { memberNumber: 'M-77' } : {}),
  });
  const checkout = (
    s: { startLocal: string },
    guests: number,
    { method, client = '198.51.100.1', bySecret = false }: { method?: string; client?: string; bySecret?: boolean } = {},
  ) =>
    t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key: bySecret ? secret : publishable,
      headers: { origin: SHOP, 'x-forwarded-for': client },
      body: body(s, guests, method),
    });
  const gql = (s: { startLocal: string }, guests: number, paymentMethod: string, client = '198.51.100.1') =>
    t.gql(
      `mutation($b: UUID!, $c: UUID!, $i: CreatePaymentIntentInput!) { createPaymentIntent(brandId: $b, cartId: $c, input: $i) { totalNetAmount cart { bookings { status } } } }`,
      { b: brand.id, c: randomUUID(), i: { ...body(s, guests), paymentMethod } },
      { key: publishable, headers: { origin: SHOP, 'x-forwarded-for': client } },
    );
  /** The methods the experience advertises to a key, on both faces (they must agree). */
  const advertised = async (bySecret = false) => {
    const as = { key: bySecret ? secret : publishable, headers: { origin: SHOP } };
    const r = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}`, as);
    const g = await t.gql(
      `query($b: UUID!, $e: UUID!) { experience(brandId: $b, id: $e) { paymentMethods } }`,
      { b: brand.id, e: experience.id },
      as,
    );
    expect(g.body.data.experience.paymentMethods.map((m: string) => m.toLowerCase().replaceAll('_', '-'))).toEqual(r.body.paymentMethods);
    return r.body.paymentMethods;
  };
  const stored = async (s: { id: string }) => {
    const row = await db.row('sessions', { id: s.id });
    return { reserved: row!.reserved, publishableHeld: row!.publishableHeld };
  };
  return { brand, secret, experience, session, checkout, gql, stored, advertised };
}

const forbidden = (brandId: string, method: string) => ({
  code: 'FORBIDDEN',
  message: `Brand ${brandId} does not offer ${method} to its publishable key (it confirms places without payment): pay by card, or book through the brand`,
  details: { field: 'paymentMethod', keyKind: 'publishable', method },
  requestId: expect.any(String),
});

describe('without publishableUnpaidMethods (the default)', () => {
  it("refuses the issue's attack: pay-upon-arrival for all 12 places of a session, on both faces; nothing is taken", async () => {
    const w = await shop(false);
    const s = await w.session();
    const res = await w.checkout(s, 12, { method: 'pay-upon-arrival' });
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: forbidden(w.brand.id, 'pay-upon-arrival') } });
    const g = await w.gql(s, 12, 'PAY_UPON_ARRIVAL');
    expect(g.body.data).toBeNull();
    expect(g.body.errors[0].extensions).toEqual({
      code: 'FORBIDDEN',
      field: 'paymentMethod',
      keyKind: 'publishable',
      method: 'pay-upon-arrival',
    });
    expect(await w.stored(s)).toEqual({ reserved: 0, publishableHeld: 0 });
  });

  it.each(unpaid)('refuses %s to the publishable key, naming paymentMethod', async (method) => {
    const w = await shop(false);
    const s = await w.session();
    const res = await w.checkout(s, 1, { method });
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: forbidden(w.brand.id, method) } });
    expect(await w.stored(s)).toEqual({ reserved: 0, publishableHeld: 0 });
  });

  it('advertises to the publishable key only the methods it may use (a payment picker never offers a refused one)', async () => {
    const w = await shop(false);
    expect([await w.advertised(), await w.advertised(true)]).toEqual([['credit-card'], ['credit-card', ...unpaid]]);
    const allowed = await shop(true);
    expect(await allowed.advertised()).toEqual(['credit-card', ...unpaid]);
  });

  it('leaves card checkouts of the publishable key and every method of the secret key as they were', async () => {
    const w = await shop(false);
    const s = await w.session();
    const card = await w.checkout(s, 2);
    expect([card.status, card.body.bookings[0].status]).toEqual([201, 'processing']);
    const bySecret = await w.checkout(s, 10, { method: 'pay-upon-arrival', bySecret: true });
    expect([bySecret.status, bySecret.body.bookings[0].status]).toEqual([201, 'confirmed']);
    expect(await w.stored(s)).toEqual({ reserved: 12, publishableHeld: 2 });
  });
});

describe('with publishableUnpaidMethods, unpaid places count as card holds do', () => {
  it("bounds the issue's attack by the client's budget: 12 places at once is HOLD_LIMIT_REACHED, nothing taken", async () => {
    const w = await shop(true);
    const s = await w.session();
    const res = await w.checkout(s, 12, { method: 'pay-upon-arrival' });
    expect({ status: res.status, code: res.body.error.code, details: res.body.error.details }).toEqual({
      status: 429,
      code: 'HOLD_LIMIT_REACHED',
      details: { field: 'data', limit: 10, requested: 12, held: 0 },
    });
    expect(await w.stored(s)).toEqual({ reserved: 0, publishableHeld: 0 });
  });

  it('takes the publishable share: 6 of 12 places unpaid, then PUBLISHABLE_SHARE_EXHAUSTED for any client and method', async () => {
    const w = await shop(true);
    const s = await w.session();
    const first = await w.checkout(s, 4, { method: 'pay-upon-arrival', client: '198.51.100.1' });
    expect([first.status, first.body.bookings[0].status, first.body.paymentIntentSecret]).toEqual([201, 'confirmed', undefined]);
    const second = await w.gql(s, 2, 'PAY_LATER', '198.51.100.2');
    expect(second.body.data.createPaymentIntent.cart.bookings).toEqual([{ status: 'CONFIRMED' }]);
    expect(await w.stored(s)).toEqual({ reserved: 6, publishableHeld: 6 });
    for (const method of ['room-charge', undefined]) {
      const beyond = await w.checkout(s, 1, { method, client: '198.51.100.3' });
      expect([beyond.status, beyond.body.error.code]).toEqual([409, 'PUBLISHABLE_SHARE_EXHAUSTED']);
    }
    const bySecret = await w.checkout(s, 6, { method: 'pay-upon-arrival', bySecret: true });
    expect(bySecret.status).toBe(201);
    expect(await w.stored(s)).toEqual({ reserved: 12, publishableHeld: 6 });
  });

  it("counts them in the client's budget until the session starts, across methods and sessions", async () => {
    const w = await shop(true);
    const [s1, s2, s3] = [await w.session(), await w.session(), await w.session()];
    expect((await w.checkout(s1, 5, { method: 'member-number' })).status).toBe(201);
    expect((await w.checkout(s2, 3, { method: 'room-charge' })).status).toBe(201);
    const startsAt = (await db.row('sessions', { id: s1.id }))!.startsAt as string;
    const retryAfterSeconds = Math.ceil((Date.parse(startsAt) - NOW.getTime()) / 1000);
    const card = await w.checkout(s2, 3);
    expect({ status: card.status, retryAfter: card.headers['retry-after'], details: card.body.error.details }).toEqual({
      status: 429,
      retryAfter: String(retryAfterSeconds),
      details: { limit: 10, requested: 3, held: 8, retryAfterSeconds },
    });
    expect((await w.checkout(s2, 3, { method: 'pay-later' })).body.error.code).toBe('HOLD_LIMIT_REACHED');
    // Another client is not held back by the first one's places.
    expect((await w.checkout(s2, 3, { method: 'pay-later', client: '198.51.100.9' })).status).toBe(201);
    expect((await w.checkout(s3, 2)).status).toBe(201);
    // Once the first session starts, its 5 unpaid places no longer count (nor the card hold, lapsed); the 3 on s2 still do.
    clock = new Date(Date.parse(startsAt) + 1000);
    expect((await w.checkout(s3, 6, { method: 'pay-later' })).status).toBe(201);
    const over = await w.checkout(s3, 2, { method: 'pay-later' });
    expect([over.status, over.body.error.details.held]).toEqual([429, 9]);
  });

  it('gives the share and the budget back when the brand cancels or moves the booking', async () => {
    const w = await shop(true);
    const [s1, s2] = [await w.session(), await w.session()];
    const cancelled = await w.checkout(s1, 4, { method: 'pay-upon-arrival' });
    const moved = await w.checkout(s1, 2, { method: 'pay-upon-arrival' });
    expect(await w.stored(s1)).toEqual({ reserved: 6, publishableHeld: 6 });
    expect((await w.checkout(s2, 5)).body.error.code).toBe('HOLD_LIMIT_REACHED');

    const cancel = await t.rest('POST', '/v1/bookings/cancel', {
      key: w.secret,
      body: { bookings: [{ bookingId: cancelled.body.bookings[0].id, cancel: true }] },
    });
    expect(cancel.status).toBe(200);
    expect(await w.stored(s1)).toEqual({ reserved: 2, publishableHeld: 2 });

    const move = await t.rest('POST', `/v1/bookings/${moved.body.bookings[0].id}/reschedule`, {
      key: w.secret,
      body: { sessionTime: s2.startLocal },
    });
    expect(move.status).toBe(200);
    expect([await w.stored(s1), await w.stored(s2)]).toEqual([
      { reserved: 0, publishableHeld: 0 },
      { reserved: 2, publishableHeld: 0 },
    ]);
    // A move is the brand's: the booking counts no more, so the client holds nothing now.
    expect((await w.checkout(s2, 6, { method: 'pay-upon-arrival' })).status).toBe(201);
    expect(await w.stored(s2)).toEqual({ reserved: 8, publishableHeld: 6 });
  });
});
