/**
 * Changing brand settings through the API (issue 35): a merge patch of the settings as GET shows them,
 * under If-Match; read-only fields ignored when unchanged and refused when changed; both faces, secret
 * keys only, `brand.updated` recorded, and the cached GET showing the change on the next request.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBrandFamily, createCancellationPolicy, createPublishableKey } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const { brand, sister, keys } = await createBrandFamily(db);
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const policy = await createCancellationPolicy(db, brand.id, { name: 'Flexible', fullRefundHoursBefore: 24, lateRefundPercent: 0 });
const sisterPolicy = await createCancellationPolicy(db, sister.id, { name: 'Theirs' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

const url = `/v1/brands/${brand.id}/settings`;
const read = () => t.rest('GET', url, { key: keys.brand });
const patch = (body: unknown, etag?: string, key = keys.brand) =>
  t.rest('PATCH', url, { key, body, headers: etag ? { 'if-match': etag } : {} });

describe('PATCH /v1/brands/{brandId}/settings', () => {
  it('changes what the patch names under If-Match; the cached GET shows it at once; a stale ETag is 412 and changes nothing', async () => {
    const before = await read();
    expect(before.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect((await read()).body.data.name).toBe('Coast Lisbon');
    const res = await patch(
      {
        name: 'Coast Lisboa',
        designElement: { buttonColor: '#111111' },
        templateElement: { hero: { heading: 'Sail the Tagus' } },
        promotion: { exclusiveTag: 'Only here' },
      },
      before.headers.etag as string,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Coast Lisboa',
      designElement: { buttonColor: '#111111', primaryColor: '#0B3D5C', logoId: 'logo-1' },
      templateElement: { hero: { heading: 'Sail the Tagus', intro: 'Welcome', mobileImageId: 'hero-m' } },
      promotion: { exclusiveTag: 'Only here' },
      currency: 'EUR',
    });
    const after = await read();
    expect(after.body.data).toEqual(res.body.data);
    expect(after.headers.etag).toBe(res.headers.etag);
    expect(after.headers.etag).not.toBe(before.headers.etag);

    const stale = await patch({ name: 'Lost update' }, before.headers.etag as string);
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { field: 'If-Match', etag: after.headers.etag } });
    const weak = await patch({ name: 'Weak' }, `W/${after.headers.etag}`);
    expect([weak.status, weak.body.error.details]).toEqual([412, { field: 'If-Match', etag: after.headers.etag }]);
    const garbage = await patch({ name: 'Garbage' }, 'not-a-tag');
    expect([garbage.status, garbage.body.error.code, garbage.body.error.details.field]).toEqual([400, 'VALIDATION_FAILED', 'If-Match']);
    expect((await read()).body.data.name).toBe('Coast Lisboa');
  });

  it('takes back the whole settings as read, ignoring read-only fields unchanged', async () => {
    const { body } = await read();
    const res = await patch({ ...body.data, customStyle: '.hero { color: red }' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...body.data, customStyle: '.hero { color: red }' });
  });

  it('sets the brand’s own policy; another brand’s is NOT_FOUND naming the field', async () => {
    const own = await patch({ cancellationPolicyId: policy.id });
    expect(own.body.data.cancellationPolicyId).toBe(policy.id);
    const foreign = await patch({ cancellationPolicyId: sisterPolicy.id });
    expect([foreign.status, foreign.body.error.code, foreign.body.error.details.field]).toEqual([404, 'NOT_FOUND', 'cancellationPolicyId']);
    const cleared = await patch({ cancellationPolicyId: null });
    expect(cleared.body.data.cancellationPolicyId).toBeNull();
  });

  it.each([
    [{ currency: 'USD' }, 'currency'],
    [{ features: { hostsLimit: 1000 } }, 'features'],
    [{ designElement: { logoId: 'mine' } }, 'designElement.logoId'],
    [{ paymentPlatform: 'processor-us' }, 'paymentPlatform'],
    [{ countryCode: 'portugal' }, 'countryCode'],
    [{ brandEmail: 'not an email' }, 'brandEmail'],
    [{ products: ['activate', 'boats'] }, 'products.1'],
    [{ paymentMethods: { paypal: 'yes' } }, 'paymentMethods.paypal'],
    [{ designElement: { sparkle: true } }, 'designElement.sparkle'],
    [{ nickname: 'Coasty' }, 'nickname'],
  ])('refuses %j (400 naming %s) and changes nothing', async (body, field) => {
    const before = await read();
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
    expect((await read()).headers.etag).toBe(before.headers.etag);
  });

  it('is for secret keys of the brand: publishable and another brand’s key FORBIDDEN, the organization’s key allowed', async () => {
    const byPublishable = await patch({ name: 'Hacked' }, undefined, publishable);
    expect([byPublishable.status, byPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const bySister = await patch({ name: 'Hacked' }, undefined, keys.sister);
    expect([bySister.status, bySister.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const byOrg = await patch({ customStyle: '' }, undefined, keys.org);
    expect(byOrg.status).toBe(200);
    expect((await t.rest('GET', url, { key: publishable })).headers.etag).toBeUndefined();
  });

  it('records brand.updated with the settings, and nothing for a patch that changes nothing', async () => {
    await patch({ customStyle: 'body { margin: 0 }' });
    await patch({ customStyle: 'body { margin: 0 }' });
    const feed = await t.rest('GET', `/v1/brands/${brand.id}/events?types=brand.updated&limit=100`, { key: keys.brand });
    const styles = feed.body.data.map((e: { data: { customStyle: string } }) => e.data.customStyle);
    expect(styles.filter((style: string) => style === 'body { margin: 0 }')).toHaveLength(1);
    expect(feed.body.data.at(-1)).toMatchObject({ type: 'brand.updated', data: { id: brand.id, customStyle: 'body { margin: 0 }' } });
  });
});

describe('GraphQL updateBrandSettings', () => {
  const mutation = `mutation($b: UUID!, $i: BrandSettingsInput!, $m: String) { updateBrandSettings(brandId: $b, input: $i, ifMatch: $m) {
    brandSettings { name designElement { theme } templateElement { hero { intro } } promotion { exclusiveTag } shouldValidateComplimentaryBooking { roomCharge } } etag } }`;

  it('changes the settings as REST does, with the same version check and field names of its input', async () => {
    const { etag } = (await read()).headers as { etag: string };
    const res = await t.gql(
      mutation,
      {
        b: brand.id,
        i: { designElement: { theme: 'dark' }, hero: { intro: 'Hello' }, promotionExclusiveTag: 'Ours', validateRoomCharge: true },
        m: etag,
      },
      { key: keys.brand },
    );
    expect(res.body.data.updateBrandSettings.brandSettings).toMatchObject({
      designElement: { theme: 'dark' },
      templateElement: { hero: { intro: 'Hello' } },
      promotion: { exclusiveTag: 'Ours' },
      shouldValidateComplimentaryBooking: { roomCharge: true },
    });
    expect(res.body.data.updateBrandSettings.etag).toBe((await read()).headers.etag);
    const stale = await t.gql(mutation, { b: brand.id, i: { name: 'Lost' }, m: etag }, { key: keys.brand });
    expect(stale.body.errors[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'ifMatch' });
    const long = await t.gql(mutation, { b: brand.id, i: { promotionExclusiveTag: 'x'.repeat(101) } }, { key: keys.brand });
    expect(long.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'promotionExclusiveTag' });
    const byPublishable = await t.gql(mutation, { b: brand.id, i: { name: 'Hacked' } }, { key: publishable });
    expect(byPublishable.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
