/**
 * Issue 27, denial of inventory: a publishable key's client (its address, the proxy's header only when
 * TRUST_PROXY trusts the peer) holds at most PUBLISHABLE_HOLD_PLACES_PER_CLIENT (10 by default) unpaid
 * places of a brand, for PUBLISHABLE_HOLD_TTL_SECONDS (300); secret keys hold as before, for HOLD_TTL_SECONDS.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { CheckoutTestProcessor, checkoutRows, guest } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { sample, scrape } from '../../support/metrics.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const SHOP = 'https://shop.example';
const NOW = new Date('2026-11-25T12:00:00.000Z');
let clock = NOW;
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

const db = await freshDb();
const rows = checkoutRows(db);
const processor = new CheckoutTestProcessor({ now: () => clock });
const logs: Array<Record<string, any>> = [];
let t: TestApp;
beforeAll(async () => {
  // Behind a proxy on this host: X-Forwarded-For names the client.
  t = await startApp(db, {
    now: () => clock,
    payments: processor,
    http: { TRUST_PROXY: ['127.0.0.1'] },
    logStream: { write: (line) => logs.push(JSON.parse(line)) },
  });
});

/** A brand of its own, its keys and an experience with a day of sessions: each test counts its own clients. */
async function world(capacities: number[]) {
  // Every place open to publishable holds (the share kept for paying customers is publishable-share.test.ts's).
  const brand = await createBrand(db, { publishableHoldSharePercent: 100 });
  const secret = (await createApiKey(db, { brandId: brand.id })).secret;
  const publishable = (await createPublishableKey(db, brand.id, [SHOP])).secret;
  const { experience } = await createExperience(db, brand.id);
  const sessions: Array<Awaited<ReturnType<typeof createSession>>> = [];
  for (const [i, capacity] of capacities.entries())
    sessions.push(await createSession(db, experience, { startLocal: `2026-12-01T${String(9 + i).padStart(2, '0')}:00:00`, capacity }));
  const body = (session: { startLocal: string }, guests: number) => ({
    data: [
      {
        experienceId: experience.id,
        sessionTime: session.startLocal,
        participants: Array.from({ length: guests }, (_, i) => guest(`G${i}`)),
      },
    ],
  });
  /** A checkout from `client` (an address, through the trusted proxy) with the publishable key, or with the secret key. */
  const checkout = (session: { startLocal: string }, guests: number, by: { client?: string; secret?: true; cartId?: string } = {}) =>
    t.rest('POST', `/v1/brands/${brand.id}/carts/${by.cartId ?? randomUUID()}/payment_intents`, {
      key: by.secret ? secret : publishable,
      headers: { origin: SHOP, ...(by.client ? { 'x-forwarded-for': by.client } : {}) },
      body: body(session, guests),
    });
  const reserved = async () => {
    const counts = [];
    for (const s of sessions) counts.push(await rows.reserved(s.id));
    return counts;
  };
  return { brand, publishable, experience, sessions, body, checkout, reserved };
}

const refusal = (held: number, requested: number, retryAfterSeconds: number) => ({
  status: 429,
  retryAfter: String(retryAfterSeconds),
  error: {
    code: 'HOLD_LIMIT_REACHED',
    message: `This client already holds ${held} unpaid places of this brand (at most 10 at once): pay for them, or retry in ${retryAfterSeconds} s when the oldest hold lapses`,
    details: { limit: 10, requested, held, retryAfterSeconds },
    requestId: expect.any(String),
  },
});
const answer = (res: { status: number; body: any; headers: Record<string, unknown> }) =>
  res.status === 429 ? { status: res.status, retryAfter: res.headers['retry-after'], error: res.body.error } : { status: res.status };

describe('holds of a publishable key', () => {
  it("the issue's hoarding script (8 checkouts of 2 guests, fresh carts, one client) holds 10 places; the rest are 429 HOLD_LIMIT_REACHED", async () => {
    clock = NOW;
    const w = await world([8, 8]);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await w.checkout(w.sessions[i % 2]!, 2));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(answer(answers[5]!)).toEqual(refusal(10, 2, 300));
    expect(await w.reserved()).toEqual([6, 4]);
    // Operators see what the brand's anonymous browsers hold, and each refusal, by the client's HMAC (never its address).
    const metrics = await scrape(t);
    expect(sample(metrics, 'holds_unpaid_places', { brand_id: w.brand.id, key_kind: 'publishable' })).toBe(10);
    expect(sample(metrics, 'hold_limit_refusals_total', { brand_id: w.brand.id })).toBe(3);
    const refused = logs.filter((line) => line.holdLimit?.brandId === w.brand.id);
    expect(refused.map((line) => [line.level, line.msg, line.holdLimit.held, line.holdLimit.requested, line.holdLimit.limit])).toEqual(
      Array.from({ length: 3 }, () => [40, 'a publishable client reached its budget of unpaid places (HOLD_LIMIT_REACHED)', 10, 2, 10]),
    );
    expect(refused[0]!.holdLimit.client).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(refused)).not.toContain('127.0.0.1');
    // Five minutes, not fifteen: the answer says when.
    expect(answers[0]!.body.expiresAt).toBe(at(300).toISOString());

    // Retry-After counts down to the oldest hold's lapse; once the stored expiry passes, the holds are swept and the client may hold again.
    clock = at(100);
    expect(answer(await w.checkout(w.sessions[0]!, 1))).toEqual(refusal(10, 1, 200));
    clock = at(300);
    expect((await w.checkout(w.sessions[0]!, 2)).status).toBe(201);
    expect(await w.reserved()).toEqual([2, 0]);
  });

  it('gives another client (another address through the trusted proxy) a budget of its own', async () => {
    clock = NOW;
    const w = await world([30]);
    const [s] = w.sessions;
    for (let i = 0; i < 5; i++) expect((await w.checkout(s!, 2, { client: '203.0.113.7' })).status).toBe(201);
    expect(answer(await w.checkout(s!, 2, { client: '203.0.113.7' }))).toEqual(refusal(10, 2, 300));
    expect((await w.checkout(s!, 2, { client: '203.0.113.8' })).status).toBe(201);
    // The proxy's own requests are a third client.
    expect((await w.checkout(s!, 10)).status).toBe(201);
    expect(await w.reserved()).toEqual([22]);
  });

  it('lets a secret key hold every place, for HOLD_TTL_SECONDS', async () => {
    clock = NOW;
    const w = await world([8, 8]);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await w.checkout(w.sessions[i % 2]!, 2, { secret: true }));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201, 201, 201, 201, 201]);
    expect(await w.reserved()).toEqual([8, 8]);
    expect(answers[0]!.body.expiresAt).toBe(at(900).toISOString());
  });

  it('counts a re-posted cart once: its previous holds are given back, not counted against it', async () => {
    clock = NOW;
    const w = await world([30]);
    const [s] = w.sessions;
    const cartId = randomUUID();
    expect((await w.checkout(s!, 6, { cartId })).status).toBe(201);
    expect((await w.checkout(s!, 8, { cartId })).status).toBe(201);
    expect((await w.checkout(s!, 2)).status).toBe(201);
    expect(answer(await w.checkout(s!, 1))).toEqual(refusal(10, 1, 300));
    expect(await w.reserved()).toEqual([10]);
    // A cart that alone asks for more than the budget: waiting would not help, so no Retry-After.
    const big = await w.checkout(s!, 11, { client: '203.0.113.9' });
    expect({ status: big.status, retryAfter: big.headers['retry-after'], error: big.body.error }).toEqual({
      status: 429,
      retryAfter: undefined,
      error: {
        code: 'HOLD_LIMIT_REACHED',
        message: 'A cart checked out with a publishable key holds at most 10 places; this one asks for 11',
        details: { field: 'data', limit: 10, requested: 11, held: 0 },
        requestId: expect.any(String),
      },
    });
  });

  it('never lets racing checkouts of one client exceed its budget: 8 at once, all past the early check', async () => {
    clock = NOW;
    const w = await world([8, 8]);
    // Every checkout passes the check before the processor call, then the units of work alone decide.
    processor.holdUntil(8);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => w.checkout(w.sessions[i % 2]!, 2)));
    processor.holdUntil(1);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const [a, b] = await w.reserved();
    expect(a! + b!).toBe(10);
  });

  it('answers GraphQL with expiresAt, and HOLD_LIMIT_REACHED with retryAfterSeconds in extensions', async () => {
    clock = NOW;
    const w = await world([30]);
    const [s] = w.sessions;
    const mutation = /* GraphQL */ `
      mutation Hold($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
        createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) {
          expiresAt
        }
      }
    `;
    const hold = (guests: number) =>
      t.gql(
        mutation,
        { brandId: w.brand.id, cartId: randomUUID(), input: w.body(s!, guests) },
        { key: w.publishable, headers: { origin: SHOP } },
      );
    expect((await hold(8)).body).toEqual({ data: { createPaymentIntent: { expiresAt: at(300).toISOString() } } });
    clock = at(60);
    const refused = await hold(4);
    expect(refused.body.errors[0].extensions).toEqual({
      code: 'HOLD_LIMIT_REACHED',
      limit: 10,
      requested: 4,
      held: 8,
      retryAfterSeconds: 240,
    });
    expect(refused.body.data).toBeNull();
    expect(await w.reserved()).toEqual([8]);
  });
});
