/**
 * Managing coupons through the API (issue 35): create, list, read, change by merge patch under If-Match;
 * field errors name the field; codes unique per brand ignoring case; secret keys of the brand only;
 * `coupon.created` / `coupon.updated`; and checkout quoting what was written on its next request.
 */
import { describe, expect, it } from 'vitest';
import { guest } from '../../support/checkout.ts';
import { checkoutWorld } from '../../support/checkout-world.ts';
import { holdEveryTurn } from '../../support/turns.ts';
import { createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createCoupon } from '../../../fixtures/factories/checkout.ts';

const { db, brand, sister, keys, sail, t, session, at, checkout } = await checkoutWorld();
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const sisterCoupon = await createCoupon(db, sister.id, { code: 'TOKYO10', percentOffBasisPoints: 1000 });

const coupons = `/v1/brands/${brand.id}/coupons`;
const create = (body: unknown, key = keys.brand) => t().rest('POST', coupons, { key, body });
const read = (id: string, key = keys.brand) => t().rest('GET', `${coupons}/${id}`, { key });
const patch = (id: string, body: unknown, etag?: string, key = keys.brand) =>
  t().rest('PATCH', `${coupons}/${id}`, { key, body, headers: etag ? { 'if-match': etag } : {} });

describe('POST/GET/PATCH /v1/brands/{brandId}/coupons', () => {
  it('creates a coupon that checkout takes at once; deactivated, the next checkout refuses it', async () => {
    const created = await create({ code: 'summer10', percentOff: 10, validFrom: '2026-01-01', validUntil: '2027-12-31' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.headers.location).toBe(`${coupons}/${id}`);
    expect(created.body.data).toEqual({
      id,
      code: 'SUMMER10',
      percentOff: 10,
      amountOffMinor: null,
      validFrom: '2026-01-01',
      validUntil: '2027-12-31',
      active: true,
    });
    const got = await read(id);
    expect([got.status, got.headers.etag, got.body.data]).toEqual([200, created.headers.etag, created.body.data]);
    expect((await t().rest('GET', coupons, { key: keys.brand })).body.data).toContainEqual(created.body.data);

    const s = await session();
    const item = { experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')], couponCode: 'Summer10' };
    // Adult 45.50 - 10 % = 40.95; VAT 23 % = 9.4185 -> 9.42; 50.37.
    const quote = await checkout({ getOnlyTotalNetAmount: true, data: [item] });
    expect(quote.body).toEqual({ totalNetAmount: 50.37 });

    const off = await patch(id, { active: false }, created.headers.etag as string);
    expect([off.status, off.body.data.active]).toEqual([200, false]);
    const refused = await checkout({ getOnlyTotalNetAmount: true, data: [item] });
    expect([refused.status, refused.body.error.code, refused.body.error.details.field]).toEqual([
      422,
      'INVALID_COUPON',
      'data.0.couponCode',
    ]);

    const stale = await patch(id, { active: true }, created.headers.etag as string);
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { field: 'If-Match', etag: off.headers.etag } });
    expect((await read(id)).body.data.active).toBe(false);

    // A fixed amount instead of the percentage: the other set to null in the same patch.
    const fixed = await patch(id, { active: true, percentOff: null, amountOffMinor: 500 }, off.headers.etag as string);
    expect(fixed.body.data).toMatchObject({ percentOff: null, amountOffMinor: 500, active: true });
    // 45.50 - 5.00 = 40.50; VAT 9.315 -> 9.32; 49.82.
    expect((await checkout({ getOnlyTotalNetAmount: true, data: [item] })).body).toEqual({ totalNetAmount: 49.82 });
  });

  it.each([
    [{ code: 'NEG', amountOffMinor: -100 }, 'amountOffMinor'],
    [{ code: 'FRAC', amountOffMinor: 12.5 }, 'amountOffMinor'],
    [{ code: 'ZERO', percentOff: 0 }, 'percentOff'],
    [{ code: 'OVER', percentOff: 100.5 }, 'percentOff'],
    [{ code: 'THIRD', percentOff: 10.125 }, 'percentOff'],
    [{ code: 'BOTH', percentOff: 10, amountOffMinor: 100 }, 'amountOffMinor'],
    [{ code: 'NONE' }, 'percentOff'],
    [{ code: 'has space', percentOff: 5 }, 'code'],
    [{ code: 'ORDER', percentOff: 5, validFrom: '2027-02-01', validUntil: '2027-01-01' }, 'validUntil'],
    [{ code: 'WHEN', percentOff: 5, validFrom: 'tomorrow' }, 'validFrom'],
    [{ code: 'ACT', percentOff: 5, active: 'yes' }, 'active'],
    [{ code: 'EXTRA', percentOff: 5, maxUses: 3 }, 'maxUses'],
  ])('refuses %j (400 naming %s) and writes nothing', async (body, field) => {
    const before = (await t().rest('GET', coupons, { key: keys.brand })).body.data.length;
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
    expect((await t().rest('GET', coupons, { key: keys.brand })).body.data).toHaveLength(before);
  });

  it('keeps codes unique per brand ignoring case: 409 COUPON_CODE_TAKEN on create and on rename; another brand may use it', async () => {
    const first = await create({ code: 'WINTER', amountOffMinor: 1000 });
    expect(first.status).toBe(201);
    const again = await create({ code: 'winter', percentOff: 5 });
    expect([again.status, again.body.error.code, again.body.error.details.field]).toEqual([409, 'COUPON_CODE_TAKEN', 'code']);
    const other = await create({ code: 'AUTUMN', percentOff: 5 });
    const rename = await patch(other.body.data.id, { code: 'Winter' });
    expect([rename.status, rename.body.error.code]).toEqual([409, 'COUPON_CODE_TAKEN']);
    const sisterSame = await t().rest('POST', `/v1/brands/${sister.id}/coupons`, {
      key: keys.sister,
      body: { code: 'WINTER', percentOff: 5 },
    });
    expect(sisterSame.status).toBe(201);
  });

  it('gives one code to one of many concurrent creates: the rest 409 COUPON_CODE_TAKEN, one coupon, one event', async () => {
    // Every connection of the pool opened first, so the creates' units run side by side rather than one per new connection.
    await (await holdEveryTurn(db)).release();
    const spellings = ['race10', 'RACE10', 'Race10', 'rACE10', 'race10', 'RACE10', 'RaCe10', 'rAcE10'];
    const results = await Promise.all(spellings.map((code) => create({ code, percentOff: 10 })));
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const winner = results.find((res) => res.status === 201)!.body.data.id as string;
    for (const res of results.filter((r) => r.status === 409)) {
      expect([res.body.error.code, res.body.error.details.field]).toEqual(['COUPON_CODE_TAKEN', 'code']);
    }
    const all = (await t().rest('GET', coupons, { key: keys.brand })).body.data as { id: string; code: string }[];
    expect(all.filter((c) => c.code === 'RACE10').map((c) => c.id)).toEqual([winner]);
    const feed = await t().rest('GET', `/v1/brands/${brand.id}/events?types=coupon.created&limit=100`, { key: keys.brand });
    expect(feed.body.data.filter((e: { data: { code: string } }) => e.data.code === 'RACE10')).toHaveLength(1);
  });

  it('is for secret keys of the brand: another brand’s coupon NOT_FOUND, its key FORBIDDEN, the publishable key refused', async () => {
    expect((await read(sisterCoupon.id)).status).toBe(404);
    const foreign = await patch(sisterCoupon.id, { active: false });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const bySister = await create({ code: 'HACK', percentOff: 50 }, keys.sister);
    expect([bySister.status, bySister.body.error.code]).toEqual([403, 'FORBIDDEN']);
    for (const res of [await create({ code: 'PUB', percentOff: 50 }, publishable), await t().rest('GET', coupons, { key: publishable })]) {
      expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await create({ code: 'ORGWIDE', percentOff: 5 }, keys.org)).status).toBe(201);
  });

  it('records coupon.created and coupon.updated, and nothing for a patch that changes nothing', async () => {
    const { body } = await create({ code: 'EVENTS', percentOff: 12.5 });
    await patch(body.data.id, { active: false });
    await patch(body.data.id, { active: false });
    const feed = await t().rest('GET', `/v1/brands/${brand.id}/events?types=coupon.created,coupon.updated&limit=100`, { key: keys.brand });
    const mine = feed.body.data.filter((e: { data: { id: string } }) => e.data.id === body.data.id);
    expect(
      mine.map((e: { type: string; data: { active: boolean; percentOff: number } }) => [e.type, e.data.active, e.data.percentOff]),
    ).toEqual([
      ['coupon.created', true, 12.5],
      ['coupon.updated', false, 12.5],
    ]);
  });
});

describe('GraphQL coupons / createCoupon / updateCoupon', () => {
  it('lists, creates and changes coupons as REST does, with the same version check and field names', async () => {
    const created = await t().gql(
      `mutation($b: UUID!, $i: CouponInput!) { createCoupon(brandId: $b, input: $i) { coupon { uuid code percentOff amountOffMinor active } etag } }`,
      { b: brand.id, i: { code: 'gql5', amountOffMinor: 500 } },
      { key: keys.brand },
    );
    const { coupon, etag } = created.body.data.createCoupon;
    expect(coupon).toEqual({ uuid: expect.any(String), code: 'GQL5', percentOff: null, amountOffMinor: 500, active: true });
    expect(etag).toBe((await read(coupon.uuid)).headers.etag);
    const update = `mutation($b: UUID!, $id: UUID!, $i: CouponInput!, $m: String) { updateCoupon(brandId: $b, id: $id, input: $i, ifMatch: $m) { coupon { active } etag } }`;
    const off = await t().gql(update, { b: brand.id, id: coupon.uuid, i: { active: false }, m: etag }, { key: keys.brand });
    expect(off.body.data.updateCoupon.coupon.active).toBe(false);
    const stale = await t().gql(update, { b: brand.id, id: coupon.uuid, i: { active: true }, m: etag }, { key: keys.brand });
    expect(stale.body.errors[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'ifMatch' });
    const negative = await t().gql(update, { b: brand.id, id: coupon.uuid, i: { amountOffMinor: -1 } }, { key: keys.brand });
    expect(negative.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'amountOffMinor' });
    const list = await t().gql(`query($b: UUID!) { coupons(brandId: $b) { code active } }`, { b: brand.id }, { key: keys.brand });
    expect(list.body.data.coupons).toContainEqual({ code: 'GQL5', active: false });
    const byPublishable = await t().gql(`query($b: UUID!) { coupons(brandId: $b) { code } }`, { b: brand.id }, { key: publishable });
    expect(byPublishable.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
