/**
 * What a REST partner needs after selling: the checkout answer names the cart's code and its bookings,
 * the cart can be read back, and a brand's bookings can be listed page by page (the same list GraphQL's
 * `bookings` pages).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { times } from '../../../fixtures/factories/in-turn.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const other = await createBrand(db);
const otherKey = (await createApiKey(db, { brandId: other.id })).secret;
const { experience } = await createExperience(db, brand.id);
const march = await createSession(db, experience, { startLocal: '2027-03-01T10:00:00' });
const april = await createSession(db, experience, { startLocal: '2027-04-01T10:00:00' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2027-02-01T12:00:00.000Z') });
});

const item = (session: { startLocal: string }) => ({
  experienceId: experience.id,
  sessionTime: session.startLocal.slice(0, 16),
  participants: [{ firstName: 'Ana', lastName: 'Silva', priceTierName: 'Adult' }],
});

describe('the checkout answer and the cart', () => {
  it('names the cart’s code and its bookings, which the partner can then read, list and cancel', async () => {
    const cartId = randomUUID();
    const res = await t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, {
      key,
      body: { data: [item(march), item(april)] },
    });
    expect(res.status).toBe(201);
    const rows = await db.all<{ id: string; code: string; cartCode: string }>(
      'SELECT id, confirmation_code AS code, cart_confirmation_code AS "cartCode" FROM bookings WHERE cart_id = ? ORDER BY cart_position',
      cartId,
    );
    expect(res.body).toEqual({
      totalNetAmount: 111.94,
      cartConfirmationCode: rows[0]!.cartCode,
      bookings: rows.map((r) => ({ id: r.id, confirmationCode: r.code, status: 'processing' })),
      paymentIntentSecret: expect.any(String),
      // A secret key's hold: HOLD_TTL_SECONDS (15 minutes) from the checkout.
      expiresAt: '2027-02-01T12:15:00.000Z',
    });

    const cart = await t.rest('GET', `/v1/brands/${brand.id}/carts/${cartId}`, { key });
    expect(cart.status).toBe(200);
    expect(cart.body.data).toMatchObject({
      id: cartId,
      confirmationCode: rows[0]!.cartCode,
      status: 'open',
      paymentIntentStatus: 'requires_payment',
      totalAmount: 111.94,
      currency: 'EUR',
    });
    expect(cart.body.data.bookings.map((b: any) => [b.id, b.status])).toEqual(rows.map((r) => [r.id, 'processing']));
    expect('brandId' in cart.body.data).toBe(false);
    const graph = await t.gql(
      `query($b: UUID!, $c: UUID!) { cart(brandId: $b, cartId: $c) { confirmationCode bookings { uuid } } }`,
      { b: brand.id, c: cartId },
      { key },
    );
    expect(graph.body.data.cart).toEqual({ confirmationCode: rows[0]!.cartCode, bookings: rows.map((r) => ({ uuid: r.id })) });

    const cancelled = await t.rest('POST', '/v1/bookings/cancel', {
      key,
      body: { bookings: [{ bookingId: res.body.bookings[1].id, cancel: true }] },
    });
    expect(cancelled.body.items.map((b: any) => b.status)).toEqual(['cancelled']);
  });

  it('answers 404 for an unknown cart or another brand’s, and 403 for a brand the key may not act for', async () => {
    const mine = randomUUID();
    await t.rest('POST', `/v1/brands/${brand.id}/carts/${mine}/payment_intents`, { key, body: { data: [item(march)] } });
    expect((await t.rest('GET', `/v1/brands/${brand.id}/carts/${randomUUID()}`, { key })).body.error.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', `/v1/brands/${other.id}/carts/${mine}`, { key: otherKey })).body.error.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', `/v1/brands/${brand.id}/carts/${mine}`, { key: otherKey })).status).toBe(403);
  });
});

describe('GET /v1/brands/{brandId}/bookings', () => {
  const list = (query: string, k = key) => t.rest('GET', `/v1/brands/${brand.id}/bookings${query}`, { key: k });

  it('pages the brand’s bookings newest first with a next cursor, filtered by status and session date, as GraphQL does', async () => {
    const lister = await createBrand(db);
    const listerKey = (await createApiKey(db, { brandId: lister.id })).secret;
    const { experience: tour } = await createExperience(db, lister.id);
    const [s1, s2] = [
      await createSession(db, tour, { startLocal: '2027-05-01T10:00:00' }),
      await createSession(db, tour, { startLocal: '2027-06-01T10:00:00' }),
    ];
    const made = await times(
      5,
      async (i) =>
        (
          await createBooking(db, {
            brandId: lister.id,
            session: i < 3 ? s1 : s2,
            status: i === 4 ? 'cancelled' : 'confirmed',
            overrides: { createdAt: `2027-01-0${i + 1}T10:00:00.000Z` },
          })
        ).booking,
    );
    const newestFirst = [...made].reverse().map((b) => b.id);
    const page = (query: string) => t.rest('GET', `/v1/brands/${lister.id}/bookings${query}`, { key: listerKey });

    const first = await page('?limit=2');
    expect(first.body.items.map((b: any) => b.id)).toEqual(newestFirst.slice(0, 2));
    const second = await page(`?limit=2&cursor=${encodeURIComponent(first.body.next)}`);
    expect(second.body.items.map((b: any) => b.id)).toEqual(newestFirst.slice(2, 4));
    const last = await page(`?limit=2&cursor=${encodeURIComponent(second.body.next)}`);
    expect([last.body.items.map((b: any) => b.id), last.body.next]).toEqual([newestFirst.slice(4), null]);

    expect((await page('?status=cancelled')).body.items.map((b: any) => b.id)).toEqual([made[4]!.id]);
    expect((await page('?from=2027-06-01&to=2027-06-30')).body.items.map((b: any) => b.id)).toEqual([made[4]!.id, made[3]!.id]);
    const graph = await t.gql(
      `query($b: UUID!) { bookings(brandId: $b, first: 5) { edges { node { uuid } } } }`,
      { b: lister.id },
      { key: listerKey },
    );
    expect(graph.body.data.bookings.edges.map((e: any) => e.node.uuid)).toEqual(newestFirst);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?cursor=not-a-cursor', 'cursor'],
    ['?status=lost', 'status'],
    ['?from=2027-13-01', 'from'],
  ])('refuses %s as VALIDATION_FAILED naming %s', async (query, field) => {
    const res = await list(query);
    expect([res.status, res.body.error.code, res.body.error.details.field]).toEqual([400, 'VALIDATION_FAILED', field]);
  });

  it('answers 403 for another brand', async () => {
    expect((await list('', otherKey)).status).toBe(403);
  });
});
