import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const org = await createOrganization(db);
const lisbon = await createBrand(db, { name: 'Lisbon', organizationId: org.id });
const porto = await createBrand(db, { name: 'Porto', organizationId: org.id });
const solo = await createBrand(db, { name: 'Solo' });
const lisbonKey = await createApiKey(db, { brandId: lisbon.id });
const orgKey = await createApiKey(db, { organizationId: org.id });
const revoked = await createApiKey(db, { brandId: solo.id });
await db.run("UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00.000Z' WHERE id = ?", revoked.id);

let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

const settings = (brandId: string, headers: Record<string, string>) => t.rest('GET', `/v1/brands/${brandId}/settings`, { headers });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

describe('credentials', () => {
  it.each([
    ['brand bearer key', lisbon.id, bearer(lisbonKey.secret)],
    ['organization bearer key, any brand of the organization', porto.id, bearer(orgKey.secret)],
    ['legacy brand headers', lisbon.id, { 'tessera-brand-id': lisbon.id, 'tessera-secret-key': lisbonKey.secret }],
    ['legacy organization headers', porto.id, { 'tessera-organization-id': org.id, 'tessera-secret-key': orgKey.secret }],
    ['lower-case bearer scheme', lisbon.id, { authorization: `bearer ${lisbonKey.secret}` }],
  ])('accepts a %s', async (_, brandId, headers) => {
    const res = await settings(brandId, headers);
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe(brandId === lisbon.id ? 'Lisbon' : 'Porto');
  });

  it.each([
    ['no credentials', {}, 'This operation needs an API key'],
    ['an unknown key', bearer('sk_test_unknown'), 'The API key is not valid'],
    ['a revoked key', bearer(revoked.secret), 'The API key is not valid'],
    ['a non-bearer scheme', { authorization: `Basic ${lisbonKey.secret}` }, 'must be "Bearer <API key>"'],
    [
      'a legacy secret without an id header',
      { 'tessera-secret-key': lisbonKey.secret },
      'needs a Tessera-Brand-Id or Tessera-Organization-Id',
    ],
    [
      'a legacy brand id that is not the key’s brand',
      { 'tessera-brand-id': porto.id, 'tessera-secret-key': lisbonKey.secret },
      'does not match',
    ],
    [
      'a legacy organization id that is not the key’s',
      { 'tessera-organization-id': lisbon.id, 'tessera-secret-key': orgKey.secret },
      'does not match',
    ],
  ])('answers 401 UNAUTHENTICATED to %s', async (_, headers, message) => {
    const res = await settings(lisbon.id, headers);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    expect(res.body.error.message).toContain(message);
  });

  it('answers 400 when both a bearer key and a legacy secret are sent', async () => {
    const res = await settings(lisbon.id, {
      ...bearer(lisbonKey.secret),
      'tessera-secret-key': lisbonKey.secret,
      'tessera-brand-id': lisbon.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('Authorization');
  });
});

describe('brand scope', () => {
  it('refuses a brand key on another brand’s path with 403', async () => {
    const res = await settings(porto.id, bearer(lisbonKey.secret));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { brandId: porto.id } });
  });

  it('refuses an organization key on a brand outside the organization with 403', async () => {
    expect((await settings(solo.id, bearer(orgKey.secret))).status).toBe(403);
  });

  it('refuses a path brand that differs from the Tessera-Brand-Id header with 403', async () => {
    const res = await settings(porto.id, { ...bearer(orgKey.secret), 'tessera-brand-id': lisbon.id });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('differs from the Tessera-Brand-Id header');
  });

  it('refuses a Tessera-Brand-Id header outside the organization with 403', async () => {
    const res = await settings(lisbon.id, { ...bearer(orgKey.secret), 'tessera-brand-id': solo.id });
    expect(res.status).toBe(403);
  });
});

describe('GraphQL credentials', () => {
  const query = 'query($id: UUID!) { brandSettings(brandId: $id) { name } }';

  it('serves introspection without a key (Sandbox outside production)', async () => {
    const res = await t.gql('{ __schema { queryType { name } } }');
    expect(res.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('accepts legacy headers', async () => {
    const res = await t.gql(
      query,
      { id: porto.id },
      { headers: { 'tessera-organization-id': org.id, 'tessera-secret-key': orgKey.secret } },
    );
    expect(res.body).toEqual({ data: { brandSettings: { name: 'Porto' } } });
  });

  it('reports an unknown key as UNAUTHENTICATED on the field, not a transport failure', async () => {
    const res = await t.gql(query, { id: lisbon.id }, { key: 'sk_test_unknown' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      message: 'The API key is not valid',
      path: ['brandSettings'],
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });
});
