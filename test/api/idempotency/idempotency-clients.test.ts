/**
 * Issue 34, item 6: a publishable key is shared by every browser of its brand, and its Idempotency-Key
 * records were the key's alone: the same key from a second address replayed the first client's answer,
 * paymentIntentSecret included, and a key squatted first made the victim's checkout fail with 422. A
 * publishable key's records are now the key's and the client's; a secret key's stay the key's.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { checkoutRows, guest } from '../../support/checkout.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const SHOP = 'https://shop.example';
const VICTIM = '203.0.113.7';
const OTHER = '198.51.100.9';

const db = await freshDb();
const rows = checkoutRows(db);
const brand = await createBrand(db, { publishableHoldSharePercent: 100 });
const publishable = (await createPublishableKey(db, brand.id, [SHOP])).secret;
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
let t: TestApp;
beforeAll(async () => {
  // Behind a proxy on this host (inject's own address): X-Forwarded-For names the client. Checkouts run at
  // CHECKOUT_NOW, before the December 2026 sessions they book, whatever day the suite runs.
  t = await startApp(db, { now: () => new Date(CHECKOUT_NOW), http: { TRUST_PROXY: ['127.0.0.1'] } });
});

let hour = 0;
/** A session of its own per test, so its reserved places count that test's checkouts alone. */
const session = () =>
  createSession(db, experience, { startLocal: `2026-12-01T${String(8 + hour++).padStart(2, '0')}:00:00`, capacity: 20 });

const body = (s: { startLocal: string }, guests: number) => ({
  data: [
    { experienceId: experience.id, sessionTime: s.startLocal, participants: Array.from({ length: guests }, (_, i) => guest(`G${i}`)) },
  ],
});

/** A REST checkout of `cartId` from `client`, with `idempotencyKey`, by the publishable key unless told. */
async function checkout(client: string, idempotencyKey: string, cartId: string, payload: unknown, key = publishable) {
  const res = await t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, {
    key,
    headers: { origin: SHOP, 'x-forwarded-for': client, 'idempotency-key': idempotencyKey },
    body: payload,
  });
  return { status: res.status, replayed: res.headers['idempotent-replayed'], secret: res.body.paymentIntentSecret, body: res.body };
}

describe('Idempotency-Key with a publishable key: the key and the client', () => {
  it("never replays one client's answer (its paymentIntentSecret) to another; the same client gets its own back", async () => {
    const s = await session();
    const cartId = randomUUID();
    const first = await checkout(VICTIM, 'order-1', cartId, body(s, 2));
    expect({ status: first.status, replayed: first.replayed }).toEqual({ status: 201, replayed: undefined });
    expect(first.secret).toMatch(/^pi_/);

    // The same request, byte for byte, from another address: run as its own, with a secret of its own.
    const other = await checkout(OTHER, 'order-1', cartId, body(s, 2));
    expect({ status: other.status, replayed: other.replayed }).toEqual({ status: 201, replayed: undefined });
    expect(other.secret).toMatch(/^pi_/);
    expect(other.secret).not.toBe(first.secret);

    // The first client retrying: its own answer, replayed.
    const retried = await checkout(VICTIM, 'order-1', cartId, body(s, 2));
    expect({ status: retried.status, replayed: retried.replayed, secret: retried.secret }).toEqual({
      status: 201,
      replayed: 'true',
      secret: first.secret,
    });
    // ... and the other client's retry its own (another spelling of its address is the same client).
    const otherRetried = await checkout(`${OTHER}:4444`, 'order-1', cartId, body(s, 2));
    expect({ replayed: otherRetried.replayed, secret: otherRetried.secret }).toEqual({ replayed: 'true', secret: other.secret });
  });

  it("lets no client squat a key: the victim's checkout with a key another client used runs (two checkouts), never 422", async () => {
    const s = await session();
    const squatted = await checkout(OTHER, 'checkout-of-cart', randomUUID(), body(s, 1));
    expect(squatted.status).toBe(201);
    const victim = await checkout(VICTIM, 'checkout-of-cart', randomUUID(), body(s, 3));
    expect({ status: victim.status, replayed: victim.replayed }).toEqual({ status: 201, replayed: undefined });
    expect(victim.secret).not.toBe(squatted.secret);
    expect(await rows.reserved(s.id)).toBe(4);
    // The same client reusing its key for another request is still refused, as before.
    const reused = await checkout(VICTIM, 'checkout-of-cart', randomUUID(), body(s, 1));
    expect({ status: reused.status, code: reused.body.error.code }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await rows.reserved(s.id)).toBe(4);
  });

  it('scopes GraphQL createPaymentIntent the same way', async () => {
    const s = await session();
    const mutation = /* GraphQL */ `
      mutation Pay($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
        createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) {
          paymentIntentSecret
        }
      }
    `;
    const variables = { brandId: brand.id, cartId: randomUUID(), input: body(s, 2) };
    const pay = async (client: string) => {
      const res = await t.gql(mutation, variables, {
        key: publishable,
        headers: { origin: SHOP, 'x-forwarded-for': client, 'idempotency-key': 'gql-order-1' },
      });
      return { secret: res.body.data.createPaymentIntent.paymentIntentSecret as string, replayed: res.headers['idempotent-replayed'] };
    };
    const first = await pay(VICTIM);
    const other = await pay(OTHER);
    expect(other.replayed).toBeUndefined();
    expect(other.secret).not.toBe(first.secret);
    expect(await pay(VICTIM)).toEqual({ secret: first.secret, replayed: 'true' });
  });

  it("keeps a secret key's records the key's, whatever address a partner's retry comes from", async () => {
    const s = await session();
    const cartId = randomUUID();
    const first = await checkout(VICTIM, 'partner-order-1', cartId, body(s, 2), secret);
    expect(first.status).toBe(201);
    const retried = await checkout(OTHER, 'partner-order-1', cartId, body(s, 2), secret);
    expect({ status: retried.status, replayed: retried.replayed, secret: retried.secret }).toEqual({
      status: 201,
      replayed: 'true',
      secret: first.secret,
    });
    expect(await rows.reserved(s.id)).toBe(2);
  });
});
