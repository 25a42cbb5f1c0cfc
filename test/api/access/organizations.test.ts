/** The organization behind an organization key, and who a key is: on both faces, never revealing other organizations. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const org = await createOrganization(db, { name: 'Harbour Group' });
const porto = await createBrand(db, { organizationId: org.id, name: 'Coast Porto', currency: 'EUR' });
const kyoto = await createBrand(db, { organizationId: org.id, name: 'Coast Kyoto', currency: 'JPY' });
const elsewhere = await createOrganization(db, { name: 'Elsewhere' });
await createBrand(db, { organizationId: elsewhere.id, name: 'Far Away' });
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;
const brandKey = (await createApiKey(db, { brandId: porto.id })).secret;
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

const brands = [
  { id: kyoto.id, name: 'Coast Kyoto', currency: 'JPY' },
  { id: porto.id, name: 'Coast Porto', currency: 'EUR' },
];
// Raw ids (`uuid`) under REST's name, so the two faces compare field for field.
const orgQuery = `query($id: UUID!) { organization(id: $id) { id: uuid name brands { id: uuid name currency } } }`;
const viewerQuery = `{ viewer { kind organization { id: uuid name } brands { id: uuid name currency } } }`;

describe('organizations', () => {
  it('shows an organization key its organization and its brands, by name, on both faces', async () => {
    const rest = await t.rest('GET', `/v1/organizations/${org.id}`, { key: orgKey });
    expect([rest.status, rest.body]).toEqual([200, { data: { id: org.id, name: 'Harbour Group', brands } }]);
    const graph = await t.gql(orgQuery, { id: org.id }, { key: orgKey });
    expect(graph.body.data.organization).toEqual(rest.body.data);
  });

  it('never confirms another organization: 404 on REST, null on GraphQL, the same as an unknown id', async () => {
    for (const id of [elsewhere.id, randomUUID()]) {
      const rest = await t.rest('GET', `/v1/organizations/${id}`, { key: orgKey });
      expect([rest.status, rest.body.error.code, rest.body.error.message]).toEqual([404, 'NOT_FOUND', `Organization ${id} was not found`]);
      expect((await t.gql(orgQuery, { id }, { key: orgKey })).body.data.organization).toBeNull();
    }
  });

  it('refuses a brand key with 403', async () => {
    const rest = await t.rest('GET', `/v1/organizations/${org.id}`, { key: brandKey });
    expect([rest.status, rest.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await t.gql(orgQuery, { id: org.id }, { key: brandKey })).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('viewer', () => {
  it('tells an organization key its organization and every brand it may act for', async () => {
    const res = await t.gql(viewerQuery, {}, { key: orgKey });
    expect(res.body.data.viewer).toEqual({ kind: 'ORGANIZATION', organization: { id: org.id, name: 'Harbour Group' }, brands });
  });

  it('narrows to the Tessera-Brand-Id brand, and tells a brand key its one brand', async () => {
    const narrowed = await t.gql(viewerQuery, {}, { key: orgKey, headers: { 'tessera-brand-id': porto.id } });
    expect(narrowed.body.data.viewer.brands).toEqual([brands[1]]);
    const brand = await t.gql(viewerQuery, {}, { key: brandKey });
    expect(brand.body.data.viewer).toEqual({ kind: 'BRAND', organization: null, brands: [brands[1]] });
  });

  it('needs a key', async () => {
    expect((await t.gql(viewerQuery, {})).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
