/** Holds lapse after the TTL: the bookings fail, places and credit return, the intent is canceled. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expireDueHolds, startHoldSweeper } from '../../../src/domain/checkout/holds.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { checkoutRows, guest } from '../../support/checkout.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createCreditCode } from '../../../fixtures/factories/checkout.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const TTL = 600;
let clock = NOW;
const db = await freshDb();
const rows = checkoutRows(db);
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const sail = (await createExperience(db, brand.id)).experience;

let t: TestApp;
beforeAll(async () => {
  t = await startApp(db, { now: () => clock, holdTtlSeconds: TTL });
});

let day = 0;
function session(capacity = 10) {
  day += 1;
  return createSession(db, sail, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00`, capacity });
}
const checkout = (cartId: string, s: { startLocal: string }, participants: number, extra: object = {}) =>
  t.rest('POST', `/v1/brands/${brand.id}/carts/${cartId}/payment_intents`, {
    key,
    body: {
      data: [
        {
          experienceId: sail.id,
          sessionTime: s.startLocal,
          participants: Array.from({ length: participants }, (_, i) => guest(`G${i}`)),
          ...extra,
        },
      ],
    },
  });
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('lapsed holds', () => {
  it('fail their bookings at the TTL, returning places and credit and canceling the intent', async () => {
    const s = await session();
    const credit = await createCreditCode(db, brand.id, { code: 'LAPSE', balanceMinor: 1500 });
    const cartId = randomUUID();
    clock = NOW;
    const res = await checkout(cartId, s, 3, { appliedCreditCodes: [{ code: 'LAPSE', appliedValue: 15, sequence: 1 }] });
    expect(res.status).toBe(201);
    expect([await rows.reserved(s.id), await rows.balance(credit.id)]).toEqual([3, 0]);

    // One millisecond before the TTL the hold still runs.
    expect(await db.database.transaction(async (tx) => expireDueHolds(tx, new Date(later(TTL).getTime() - 1), 86_400))).toEqual([]);
    expect((await rows.bookingsOfCart(cartId))[0]!.status).toBe('processing');

    const failed = await db.database.transaction(async (tx) => expireDueHolds(tx, later(TTL), 86_400));
    const [booking] = await rows.bookingsOfCart(cartId);
    expect(failed).toEqual([booking!.id]);
    expect([booking!.status, booking!.holdExpiresAt]).toEqual(['failed', null]);
    expect([await rows.reserved(s.id), await rows.balance(credit.id)]).toEqual([0, 1500]);
    expect((await rows.intentsOfCart(cartId)).map((i) => i.status)).toEqual(['canceled']);
    expect((await rows.cart(cartId))!.status).toBe('open');
    const view = await t.rest('GET', `/v1/bookings/${booking!.id}`, { key });
    expect(view.body.status).toBe('failed');
    // Sweeping again changes nothing.
    expect(await db.database.transaction(async (tx) => expireDueHolds(tx, later(TTL * 2), 86_400))).toEqual([]);
    expect(await rows.reserved(s.id)).toBe(0);
  });

  it('free their places for the next checkout even before the sweeper runs', async () => {
    const s = await session(2);
    const first = randomUUID();
    clock = NOW;
    expect((await checkout(first, s, 2)).status).toBe(201);
    const full = await checkout(randomUUID(), s, 1);
    expect(full.status).toBe(409);
    expect(full.body.error).toMatchObject({ code: 'CAPACITY_EXCEEDED', details: { field: 'data.0.participants' } });

    clock = later(TTL + 1);
    const second = randomUUID();
    const res = await checkout(second, s, 2);
    clock = NOW;
    expect(res.status).toBe(201);
    expect((await rows.bookingsOfCart(first)).map((b) => b.status)).toEqual(['failed']);
    expect((await rows.intentsOfCart(first)).map((i) => i.status)).toEqual(['canceled']);
    expect((await rows.bookingsOfCart(second)).map((b) => b.status)).toEqual(['processing']);
    expect(await rows.reserved(s.id)).toBe(2);
  });

  it('are swept by the timer, which logs failures instead of throwing', async () => {
    const s = await session();
    const cartId = randomUUID();
    clock = NOW;
    await checkout(cartId, s, 2);
    const errors: unknown[] = [];
    const log = { error: (details: object) => errors.push(details) };
    const stop = await startHoldSweeper({ db: db.database, now: () => later(TTL), waitlistOfferTtlSeconds: 86_400, log }, 10);
    await expect.poll(async () => (await rows.bookingsOfCart(cartId))[0]!.status, { timeout: 2000 }).toBe('failed');
    stop();
    expect(await rows.reserved(s.id)).toBe(0);
    expect(errors).toEqual([]);

    const broken = await startHoldSweeper({ db: db.database, now: () => new Date(Number.NaN), waitlistOfferTtlSeconds: 86_400, log }, 10);
    await expect.poll(() => errors.length, { timeout: 2000 }).toBeGreaterThan(0);
    broken();
    expect(errors[0]).toEqual({ err: expect.any(RangeError) });
  });
});
