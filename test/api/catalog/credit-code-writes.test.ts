/**
 * Managing credit codes through the API (issue 35): issue, list, read, change by merge patch under
 * If-Match; balances in integer minor units; codes unique per brand ignoring case; secret keys of the brand
 * only; `credit_code.created` / `credit_code.updated`; checkout spending what was issued.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { guest } from '../../support/checkout.ts';
import { checkoutWorld } from '../../support/checkout-world.ts';
import { holdEveryTurn } from '../../support/turns.ts';
import { createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createCreditCode } from '../../../fixtures/factories/checkout.ts';

const { db, brand, sister, keys, sail, t, session, at, checkout } = await checkoutWorld();
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const sisterCode = await createCreditCode(db, sister.id, { code: 'YEN500', balanceMinor: 500 });

const codes = `/v1/brands/${brand.id}/credit-codes`;
const issue = (body: unknown, key = keys.brand) => t().rest('POST', codes, { key, body });
const read = (id: string, key = keys.brand) => t().rest('GET', `${codes}/${id}`, { key });
const patch = (id: string, body: unknown, etag?: string, key = keys.brand) =>
  t().rest('PATCH', `${codes}/${id}`, { key, body, headers: etag ? { 'if-match': etag } : {} });

describe('POST/GET/PATCH /v1/brands/{brandId}/credit-codes', () => {
  it('issues a code checkout spends from; a patch under If-Match changes the balance, a stale one is 412', async () => {
    const issued = await issue({ code: 'gift-ana', balanceMinor: 3000 });
    expect(issued.status).toBe(201);
    const id = issued.body.data.id as string;
    expect(issued.headers.location).toBe(`${codes}/${id}`);
    expect(issued.body.data).toEqual({ id, code: 'GIFT-ANA', balanceMinor: 3000 });
    expect((await read(id)).headers.etag).toBe(issued.headers.etag);
    expect((await t().rest('GET', codes, { key: keys.brand })).body.data).toContainEqual(issued.body.data);

    const s = await session();
    const item = {
      experienceId: sail.id,
      sessionTime: at(s),
      participants: [guest('Ana')],
      appliedCreditCodes: [{ code: 'Gift-Ana', appliedValue: 20, sequence: 1 }],
    };
    const sold = await checkout({ data: [item] }, randomUUID());
    expect(sold.status).toBe(201);
    const spent = await read(id);
    expect(spent.body.data.balanceMinor).toBe(1000);
    expect(spent.headers.etag).not.toBe(issued.headers.etag);

    const stale = await patch(id, { balanceMinor: 9000 }, issued.headers.etag as string);
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { field: 'If-Match', etag: spent.headers.etag } });
    const topped = await patch(id, { balanceMinor: 5000 }, spent.headers.etag as string);
    expect([topped.status, topped.body.data.balanceMinor]).toEqual([200, 5000]);
    expect((await read(id)).body.data.balanceMinor).toBe(5000);
  });

  it.each([
    [{ code: 'NEG', balanceMinor: -1 }, 'balanceMinor'],
    [{ code: 'FRAC', balanceMinor: 10.5 }, 'balanceMinor'],
    [{ code: 'STR', balanceMinor: '100' }, 'balanceMinor'],
    [{ code: 'bad code', balanceMinor: 100 }, 'code'],
    [{ balanceMinor: 100 }, 'code'],
    [{ code: 'EXTRA', balanceMinor: 100, currency: 'EUR' }, 'currency'],
  ])('refuses %j (400 naming %s) and writes nothing', async (body, field) => {
    const before = (await t().rest('GET', codes, { key: keys.brand })).body.data.length;
    const res = await issue(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
    expect((await t().rest('GET', codes, { key: keys.brand })).body.data).toHaveLength(before);
  });

  it('keeps codes unique per brand ignoring case (409 CREDIT_CODE_TAKEN); is for secret keys of the brand', async () => {
    expect((await issue({ code: 'ONCE', balanceMinor: 100 })).status).toBe(201);
    const again = await issue({ code: 'once', balanceMinor: 100 });
    expect([again.status, again.body.error.code, again.body.error.details.field]).toEqual([409, 'CREDIT_CODE_TAKEN', 'code']);
    expect((await read(sisterCode.id)).status).toBe(404);
    const foreign = await patch(sisterCode.id, { balanceMinor: 999999 });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const bySister = await issue({ code: 'HACK', balanceMinor: 100 }, keys.sister);
    expect([bySister.status, bySister.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const byPublishable = await issue({ code: 'PUB', balanceMinor: 100 }, publishable);
    expect([byPublishable.status, byPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('gives one code to one of many concurrent issues: the rest 409 CREDIT_CODE_TAKEN, one credit code', async () => {
    // Every connection of the pool opened first, so the creates' units run side by side rather than one per new connection.
    await (await holdEveryTurn(db)).release();
    const spellings = ['gift-race', 'GIFT-RACE', 'Gift-Race', 'gIFT-rACE', 'gift-race', 'GIFT-RACE'];
    const results = await Promise.all(spellings.map((code, i) => issue({ code, balanceMinor: 100 * (i + 1) })));
    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const res of results.filter((r) => r.status === 409)) expect(res.body.error.code).toBe('CREDIT_CODE_TAKEN');
    const winner = results.find((res) => res.status === 201)!.body.data;
    const all = (await t().rest('GET', codes, { key: keys.brand })).body.data as { code: string }[];
    expect(all.filter((c) => c.code === 'GIFT-RACE')).toEqual([winner]);
  });

  it('records credit_code.created and credit_code.updated', async () => {
    const { body } = await issue({ code: 'EVENTS', balanceMinor: 700 });
    await patch(body.data.id, { balanceMinor: 0 });
    await patch(body.data.id, { balanceMinor: 0 });
    const feed = await t().rest('GET', `/v1/brands/${brand.id}/events?types=credit_code.created,credit_code.updated&limit=100`, {
      key: keys.brand,
    });
    const mine = feed.body.data.filter((e: { data: { id: string } }) => e.data.id === body.data.id);
    expect(mine.map((e: { type: string; data: { balanceMinor: number } }) => [e.type, e.data.balanceMinor])).toEqual([
      ['credit_code.created', 700],
      ['credit_code.updated', 0],
    ]);
  });
});

describe('GraphQL creditCodes / issueCreditCode / updateCreditCode', () => {
  it('issues and changes credit codes as REST does', async () => {
    const issued = await t().gql(
      `mutation($b: UUID!, $i: CreditCodeInput!) { issueCreditCode(brandId: $b, input: $i) { creditCode { uuid code balanceMinor } etag } }`,
      { b: brand.id, i: { code: 'gql-gift', balanceMinor: 2500 } },
      { key: keys.brand },
    );
    const { creditCode, etag } = issued.body.data.issueCreditCode;
    expect(creditCode).toEqual({ uuid: expect.any(String), code: 'GQL-GIFT', balanceMinor: 2500 });
    const update = `mutation($b: UUID!, $id: UUID!, $i: CreditCodeInput!, $m: String) { updateCreditCode(brandId: $b, id: $id, input: $i, ifMatch: $m) { creditCode { balanceMinor } etag } }`;
    const changed = await t().gql(update, { b: brand.id, id: creditCode.uuid, i: { balanceMinor: 100 }, m: etag }, { key: keys.brand });
    expect(changed.body.data.updateCreditCode.creditCode.balanceMinor).toBe(100);
    const stale = await t().gql(update, { b: brand.id, id: creditCode.uuid, i: { balanceMinor: 1 }, m: etag }, { key: keys.brand });
    expect(stale.body.errors[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'ifMatch' });
    const negative = await t().gql(update, { b: brand.id, id: creditCode.uuid, i: { balanceMinor: -5 } }, { key: keys.brand });
    expect(negative.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'balanceMinor' });
    const list = await t().gql(`query($b: UUID!) { creditCodes(brandId: $b) { code } }`, { b: brand.id }, { key: publishable });
    expect(list.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
