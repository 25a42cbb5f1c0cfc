import { beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../support/db.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import {
  createApiKey,
  createBrand,
  createCancellationPolicy,
  createOrganization,
  createReschedulePolicy,
} from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db, { name: 'Coast Group' });
const brand = await createBrand(db, {
  name: 'Coast Lisbon',
  organizationId: org.id,
  currency: 'EUR',
  featuresActive: ['reviews', 'customQuestions'],
});
const sister = await createBrand(db, { name: 'Coast Porto', organizationId: org.id });
const outsider = await createBrand(db, { name: 'Elsewhere' });
const policy = await createCancellationPolicy(db, brand.id, { name: 'Moderate', fullRefundHoursBefore: 48, lateRefundPercent: 50 });
const reschedule = await createReschedulePolicy(db, brand.id);
await db.run('UPDATE brands SET cancellation_policy_id = ?, reschedule_policy_id = ? WHERE id = ?', policy.id, reschedule.id, brand.id);
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;

beforeAll(async () => {
  t = await startApp(db);
});

// Raw ids (`key`) under REST's name, so the two faces compare field for field.
const query = `query($brandId: UUID!) { brandSettings(brandId: $brandId) {
  name brandEmail countryCode isLimited currency serviceVersion products paymentPlatform customStyle
  cancellationPolicyId reschedulePolicyId
  features { active updatedAt hostsLimit } promotion { exclusiveTag }
  shouldValidateComplimentaryBooking { roomCharge memberCharge }
  paymentMethods { applePay googlePay paypal klarna link }
  designElement { logoId logo { id: key mimeType uri { original } } primaryColor theme }
  templateElement { hero { heading desktopMedia { id: key kind links { url resolution } } } }
  cancellationPolicy { id: key name fullRefundHoursBefore lateRefundPercent }
} }`;

describe('GET /v1/brands/{brandId}/settings', () => {
  it('returns the spec shape with lowercase enum strings', async () => {
    const res = await t.rest('GET', `/v1/brands/${brand.id}/settings`, { key: brandKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const data = res.body.data;
    expect(data.name).toBe('Coast Lisbon');
    expect(data.paymentPlatform).toBe('processor-eu');
    expect(data.serviceVersion).toBe('V3');
    expect(data.products).toEqual(['activate']);
    expect(data.features).toEqual({ active: ['reviews', 'customQuestions'], updatedAt: '2026-01-15T10:00:00.000Z', hostsLimit: 10 });
    expect(data.shouldValidateComplimentaryBooking).toEqual({ roomCharge: false, memberCharge: false });
    expect(data.cancellationPolicyId).toBe(policy.id);
    expect(data).not.toHaveProperty('cancellationPolicy');
    expect(data).not.toHaveProperty('id');
  });

  it('embeds the policies named in include', async () => {
    const res = await t.rest('GET', `/v1/brands/${brand.id}/settings?include=cancellationPolicy,reschedulePolicy`, { key: brandKey });
    expect(res.status).toBe(200);
    expect(res.body.data.cancellationPolicy).toEqual({
      id: policy.id,
      name: 'Moderate',
      description: policy.description,
      fullRefundHoursBefore: 48,
      lateRefundPercent: 50,
    });
    expect(res.body.data.reschedulePolicy.maxReschedules).toBe(2);
  });

  it('rejects an unknown include with the field named', async () => {
    const res = await t.rest('GET', `/v1/brands/${brand.id}/settings?include=secrets`, { key: brandKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.field).toBe('include');
  });

  it('rejects a malformed brand id as VALIDATION_FAILED on brandId', async () => {
    const res = await t.rest('GET', '/v1/brands/not-a-uuid/settings', { key: brandKey });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'brandId' } });
    expect(typeof res.body.error.requestId).toBe('string');
  });

  it('lets an organization key read each of its brands, and no other', async () => {
    expect((await t.rest('GET', `/v1/brands/${sister.id}/settings`, { key: orgKey })).status).toBe(200);
    const res = await t.rest('GET', `/v1/brands/${outsider.id}/settings`, { key: orgKey });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('refuses a brand key for another brand with 403', async () => {
    const res = await t.rest('GET', `/v1/brands/${sister.id}/settings`, { key: brandKey });
    expect(res.status).toBe(403);
  });

  it('answers 401 without a key, and with an unknown key', async () => {
    expect((await t.rest('GET', `/v1/brands/${brand.id}/settings`)).body.error.code).toBe('UNAUTHENTICATED');
    const res = await t.rest('GET', `/v1/brands/${brand.id}/settings`, { key: 'sk_test_nope' });
    expect(res.status).toBe(401);
  });
});

describe('GraphQL brandSettings', () => {
  it('agrees with REST, enums in SCREAMING_SNAKE_CASE', async () => {
    const [gql, rest] = await Promise.all([
      t.gql(query, { brandId: brand.id }, { key: brandKey }),
      t.rest('GET', `/v1/brands/${brand.id}/settings?include=cancellationPolicy`, { key: brandKey }),
    ]);
    expect(gql.body.errors).toBeUndefined();
    const g = gql.body.data.brandSettings;
    expect(g.paymentPlatform).toBe('PROCESSOR_EU');
    expect(g.products).toEqual(['ACTIVATE']);
    const r = rest.body.data;
    expect(g.features).toEqual(r.features);
    expect(g.paymentMethods).toEqual(r.paymentMethods);
    expect(g.cancellationPolicy).toEqual({ id: policy.id, name: 'Moderate', fullRefundHoursBefore: 48, lateRefundPercent: 50 });
    expect(g.designElement.logo).toEqual(r.designElement.logo);
    expect(g.templateElement.hero.desktopMedia).toEqual({
      id: r.templateElement.hero.desktopMedia.id,
      kind: 'hero',
      links: [{ url: 'https://cdn.example.test/hero-dm.jpg', resolution: 'original' }],
    });
  });

  it('gives UNAUTHENTICATED and FORBIDDEN codes', async () => {
    const anon = await t.gql(query, { brandId: brand.id });
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const other = await t.gql(query, { brandId: outsider.id }, { key: brandKey });
    expect(other.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('rejects a malformed UUID variable as BAD_USER_INPUT', async () => {
    const res = await t.gql(query, { brandId: 'nope' }, { key: brandKey });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
