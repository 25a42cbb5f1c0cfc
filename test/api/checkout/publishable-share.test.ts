/**
 * The share of each session kept for paying customers (issue 27): unpaid holds made with a publishable key take
 * at most the brand's `publishable_hold_share_percent` of a session; the rest is sold by checkouts that pay at
 * once or through secret keys. Paying, failing, lapsing and cancelling give the share back; availability shows a
 * publishable key what it can hold. Through HTTP, on both engines, with every invariant checked after each test.
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

const NOW = new Date('2027-02-01T12:00:00.000Z');
const TTL = 900;
const SHOP = 'https://shop.example';
let clock = NOW;
const db = await freshDb();
const brand = await createBrand(db, {
  featuresActive: ['priceTiers', 'shoppingCart', 'creditCard', 'payUponArrival'],
});
const secretKey = (await createApiKey(db, { brandId: brand.id })).secret;
const publishableKey = (await createPublishableKey(db, brand.id, [SHOP])).secret;
const { experience } = await createExperience(db, brand.id, { paymentMethods: ['credit-card', 'pay-upon-arrival'] });

let t: TestApp;
beforeAll(async () => {
  // One test client makes every hold here: its own budget (checkout-hold-budget.test.ts's) out of the way.
  t = await startApp(db, { now: () => clock, holdTtlSeconds: TTL, publishableHoldPlacesPerClient: 1_000 });
});
afterEach(async () => {
  clock = NOW;
  expect(await invariantViolations(db)).toEqual([]);
});

let day = 0;
/** A new session of 8 places, on a day of its own. */
const session = () => {
  day += 1;
  return createSession(db, experience, { startLocal: `2027-03-${String(day).padStart(2, '0')}T10:00:00`, capacity: 8 });
};
type Session = Awaited<ReturnType<typeof session>>;

const publishable = { key: publishableKey, headers: { origin: SHOP } };
const secret = { key: secretKey };
const checkout = (
  s: Session,
  places: number,
  as: { key: string; headers?: Record<string, string> },
  { cartId = randomUUID(), paymentMethod }: { cartId?: string; paymentMethod?: string } = {},
) =>
  t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, {
    ...as,
    body: {
      data: [
        {
          experienceId: experience.id,
          sessionTime: s.startLocal,
          participants: Array.from({ length: places }, (_, i) => guest(`G${i}`)),
        },
      ],
      ...(paymentMethod ? { paymentMethod } : {}),
    },
  });
const holdOne = async (s: Session) => {
  const res = await checkout(s, 1, publishable);
  expect(res.status).toBe(201);
  return res.body as { paymentIntentSecret: string; bookings: Array<{ id: string; status: string }> };
};
const pay = (paymentIntentSecret: string, outcome: 'succeeded' | 'failed') =>
  t.rest('POST', '/v1/sandbox/payment_intents/confirm', { headers: { origin: SHOP }, body: { paymentIntentSecret, outcome } });
const stored = async (s: Session) => {
  const row = await db.row('sessions', { id: s.id });
  return { reserved: row!.reserved, publishableHeld: row!.publishableHeld };
};
/** `remaining` as the caller sees it, on both faces (they must agree). */
const remaining = async (s: Session, as: { key: string; headers?: Record<string, string> }) => {
  const date = s.startLocal.slice(0, 10);
  const rest = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${experience.id}/availability?from=${date}&to=${date}`, as);
  const gql = await t.gql(
    `query($b: UUID!, $e: UUID!, $d: LocalDate!) { availability(brandId: $b, experienceId: $e, from: $d, to: $d) { remaining } }`,
    { b: brand.id, e: experience.id, d: date },
    as,
  );
  const restRemaining = (rest.body as { data: Array<{ remaining: number }> }).data.map((x) => x.remaining);
  expect(gql.body.data.availability.map((x: { remaining: number }) => x.remaining)).toEqual(restRemaining);
  return restRemaining[0];
};
const exhausted = (s: Session) => ({
  status: 409,
  body: {
    error: {
      code: 'PUBLISHABLE_SHARE_EXHAUSTED',
      message:
        `Unpaid holds made through the public booking key may take at most 50% of the session at ${s.startLocal}, and that share ` +
        'is held; the places left can be booked by a checkout that pays at once, or through the brand',
      details: { field: 'data.0.participants', sharePercent: 50 },
      requestId: expect.any(String),
    },
  },
});

describe('the publishable share of a session (50 % of 8 places)', () => {
  it('stops unpaid publishable holds at 4 places; the secret key takes the rest, paying at once or not', async () => {
    const s = await session();
    for (let i = 0; i < 4; i++) await holdOne(s);
    const fifth = await checkout(s, 1, publishable);
    expect({ status: fifth.status, body: fifth.body }).toEqual(exhausted(s));
    const gql = await t.gql(
      `mutation($b: UUID!, $c: UUID!, $i: CreatePaymentIntentInput!) { createPaymentIntent(brandId: $b, cartId: $c, input: $i) { totalNetAmount } }`,
      {
        b: brand.id,
        c: randomUUID(),
        i: { data: [{ experienceId: experience.id, sessionTime: s.startLocal, participants: [guest('G')] }] },
      },
      publishable,
    );
    expect(gql.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['PUBLISHABLE_SHARE_EXHAUSTED']);
    expect([await remaining(s, publishable), await remaining(s, secret)]).toEqual([0, 4]);

    // A method the brand collects leaves the places unpaid: not the publishable key's (publishable-unpaid-methods.test.ts).
    expect((await checkout(s, 2, publishable, { paymentMethod: 'pay-upon-arrival' })).body.error.code).toBe('FORBIDDEN');
    const atOnce = await checkout(s, 2, secret, { paymentMethod: 'pay-upon-arrival' });
    expect(atOnce.status).toBe(201);
    expect(atOnce.body.bookings.map((b: { status: string }) => b.status)).toEqual(['confirmed']);
    const bySecret = await checkout(s, 2, secret);
    expect(bySecret.status).toBe(201);
    expect(bySecret.body.bookings.map((b: { status: string }) => b.status)).toEqual(['processing']);
    expect(await stored(s)).toEqual({ reserved: 8, publishableHeld: 4 });
    expect((await checkout(s, 1, publishable)).body.error.code).toBe('CAPACITY_EXCEEDED');
  });

  it('leaves secret keys unbounded: they can hold every place unpaid', async () => {
    const s = await session();
    const res = await checkout(s, 8, secret);
    expect(res.status).toBe(201);
    expect(await stored(s)).toEqual({ reserved: 8, publishableHeld: 0 });
  });

  it('frees the share of a hold once it is paid, for the next unpaid hold', async () => {
    const s = await session();
    const first = await holdOne(s);
    for (let i = 0; i < 3; i++) await holdOne(s);
    expect(await remaining(s, publishable)).toBe(0);
    expect((await pay(first.paymentIntentSecret, 'succeeded')).status).toBe(200);
    expect(await stored(s)).toEqual({ reserved: 4, publishableHeld: 3 });
    expect([await remaining(s, publishable), await remaining(s, secret)]).toEqual([1, 4]);
    await holdOne(s);
    expect((await checkout(s, 1, publishable)).status).toBe(409);
    expect(await stored(s)).toEqual({ reserved: 5, publishableHeld: 4 });
  });

  it('gives the share back when a payment fails, a hold lapses, a booking is cancelled or a cart checks out again', async () => {
    const s = await session();
    const failing = await holdOne(s);
    await holdOne(s); // lapses below
    const cancelled = await holdOne(s);
    const cartId = randomUUID();
    expect((await checkout(s, 1, publishable, { cartId })).status).toBe(201);
    expect(await stored(s)).toEqual({ reserved: 4, publishableHeld: 4 });

    // Checking the same cart out again replaces its hold: it counts once.
    expect((await checkout(s, 1, publishable, { cartId })).status).toBe(201);
    expect(await stored(s)).toEqual({ reserved: 4, publishableHeld: 4 });

    expect((await pay(failing.paymentIntentSecret, 'failed')).status).toBe(200);
    expect(await stored(s)).toEqual({ reserved: 3, publishableHeld: 3 });

    const cancel = await t.rest('POST', '/v1/bookings/cancel', {
      key: secretKey,
      body: { bookings: [{ bookingId: cancelled.bookings[0]!.id, cancel: true }] },
    });
    expect(cancel.status).toBe(200);
    expect(await stored(s)).toEqual({ reserved: 2, publishableHeld: 2 });
    expect(await remaining(s, publishable)).toBe(2);

    // Past the TTL every hold of the session has lapsed: the next checkout sweeps them first.
    clock = new Date(NOW.getTime() + TTL * 1000);
    const again = await checkout(s, 4, publishable);
    expect(again.status).toBe(201);
    expect(await stored(s)).toEqual({ reserved: 4, publishableHeld: 4 });
  });

  it('never lets racing publishable holds pass the share: of 12 holds of one place, exactly 4 pass', async () => {
    const s = await session();
    const results = await Promise.all(Array.from({ length: 12 }, () => checkout(s, 1, publishable)));
    const outcome = (res: { status: number; body: { error?: { code: string } } }) => (res.status === 201 ? 'held' : res.body.error!.code);
    expect(results.map(outcome).sort()).toEqual([...Array(8).fill('PUBLISHABLE_SHARE_EXHAUSTED'), ...Array(4).fill('held')].sort());
    expect(await stored(s)).toEqual({ reserved: 4, publishableHeld: 4 });
  });
});
