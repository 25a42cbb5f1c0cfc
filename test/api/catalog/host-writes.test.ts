/**
 * Writing hosts through the API (issue 35): create a host as the list shows it, read it with its ETag,
 * change it by merge patch under If-Match; field errors name the field; secret keys of the brand only;
 * `host.created` / `host.updated` in the events feed; both faces.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBrandFamily, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createHost } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const { brand, sister, keys } = await createBrandFamily(db);
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const sisterHost = await createHost(db, sister.id, { firstName: 'Kenji', lastName: 'Sato' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

const hosts = `/v1/brands/${brand.id}/hosts`;
const rita = {
  firstName: 'Rita',
  lastName: 'Sousa',
  emailAddress: 'rita@coast.test',
  description: 'Skipper on the Tagus since 2009.',
  allowOverlappingBookings: false,
  profilePicture: { uri: { original: 'https://cdn.example/rita.jpg' }, altText: 'Rita at the helm' },
};
const create = (body: unknown, key = keys.brand) => t.rest('POST', hosts, { key, body });
const read = (id: string, key = keys.brand) => t.rest('GET', `${hosts}/${id}`, { key });
const patch = (id: string, body: unknown, etag?: string, key = keys.brand) =>
  t.rest('PATCH', `${hosts}/${id}`, { key, body, headers: etag ? { 'if-match': etag } : {} });

describe('POST/GET/PATCH /v1/brands/{brandId}/hosts', () => {
  it('creates a host (201, ETag, Location) that GET and the list show; a patch under If-Match changes it, a stale one is 412', async () => {
    const created = await create(rita);
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.headers.location).toBe(`${hosts}/${id}`);
    expect(created.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(created.body.data).toEqual({
      id,
      firstName: 'Rita',
      lastName: 'Sousa',
      emailAddress: 'rita@coast.test',
      description: 'Skipper on the Tagus since 2009.',
      allowOverlappingBookings: false,
      profilePicture: { id: expect.any(String), uri: { original: 'https://cdn.example/rita.jpg' }, altText: 'Rita at the helm' },
    });
    const got = await read(id);
    expect([got.status, got.headers.etag]).toEqual([200, created.headers.etag]);
    expect(got.body.data).toEqual(created.body.data);
    const list = await t.rest('GET', hosts, { key: keys.brand });
    expect(list.body.data).toEqual([created.body.data]);

    const changed = await patch(id, { lastName: 'Sousa Lopes', allowOverlappingBookings: true }, created.headers.etag as string);
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ ...created.body.data, lastName: 'Sousa Lopes', allowOverlappingBookings: true });
    expect(changed.headers.etag).not.toBe(created.headers.etag);
    expect((await read(id)).body.data.lastName).toBe('Sousa Lopes');
    expect((await t.rest('GET', hosts, { key: keys.brand })).body.data[0].lastName).toBe('Sousa Lopes');

    const stale = await patch(id, { firstName: 'Lost' }, created.headers.etag as string);
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { field: 'If-Match', etag: changed.headers.etag } });
    expect((await read(id)).body.data.firstName).toBe('Rita');

    // The host sent back whole as read, its picture id included, changes nothing; a new URL is a new picture.
    const same = await patch(id, changed.body.data, changed.headers.etag as string);
    expect([same.status, same.headers.etag]).toEqual([200, changed.headers.etag]);
    const newPicture = await patch(id, { profilePicture: { uri: { original: 'https://cdn.example/rita-2.jpg' } } });
    expect(newPicture.body.data.profilePicture).toEqual({
      id: expect.any(String),
      uri: { original: 'https://cdn.example/rita-2.jpg' },
      altText: 'Rita at the helm',
    });
    expect(newPicture.body.data.profilePicture.id).not.toBe(created.body.data.profilePicture.id);
  });

  it.each([
    [{ ...rita, emailAddress: 'not an email' }, 'emailAddress'],
    [{ ...rita, firstName: '  ' }, 'firstName'],
    [{ ...rita, lastName: 'x'.repeat(101) }, 'lastName'],
    [{ ...rita, profilePicture: { uri: { original: 'http://cdn.example/rita.jpg' } } }, 'profilePicture.uri.original'],
    [{ ...rita, profilePicture: { uri: { '480w': 'https://cdn.example/rita.jpg' } } }, 'profilePicture.uri.original'],
    [
      { ...rita, profilePicture: { uri: { original: 'https://cdn.example/a.jpg', '480w': 'javascript:alert(1)' } } },
      'profilePicture.uri.480w',
    ],
    [{ ...rita, profilePicture: undefined }, 'profilePicture'],
    [{ ...rita, allowOverlappingBookings: 'yes' }, 'allowOverlappingBookings'],
    [{ ...rita, nickname: 'Ri' }, 'nickname'],
  ])('refuses to create %j (400 naming %s) and writes nothing', async (body, field) => {
    const before = (await t.rest('GET', hosts, { key: keys.brand })).body.data.length;
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
    expect((await t.rest('GET', hosts, { key: keys.brand })).body.data).toHaveLength(before);
  });

  it('refuses a patch that changes the id or names an unknown field, naming it, and changes nothing', async () => {
    const { body, headers } = await create({ ...rita, emailAddress: 'ana@coast.test', firstName: 'Ana' });
    for (const [change, field] of [
      [{ id: 'other' }, 'id'],
      [{ profilePicture: { id: 'mine' } }, 'profilePicture.id'],
      [{ emailAddress: null }, 'emailAddress'],
      [{ phone: '+351' }, 'phone'],
    ] as const) {
      const res = await patch(body.data.id, change);
      expect([res.status, res.body.error.code, res.body.error.details.field]).toEqual([400, 'VALIDATION_FAILED', field]);
    }
    expect((await read(body.data.id)).headers.etag).toBe(headers.etag);
  });

  it('is for secret keys of the brand: another brand’s host NOT_FOUND, the publishable key refused, the organization’s key allowed', async () => {
    expect((await read(sisterHost.id)).status).toBe(404);
    const foreign = await patch(sisterHost.id, { firstName: 'Hacked' });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const bySister = await create(rita, keys.sister);
    expect([bySister.status, bySister.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const byPublishable = await create(rita, publishable);
    expect([byPublishable.status, byPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const byOrg = await create({ ...rita, firstName: 'Orgy' }, keys.org);
    expect(byOrg.status).toBe(201);
    const publicRead = await read(byOrg.body.data.id, publishable);
    expect(publicRead.status).toBe(200);
    expect(publicRead.body.data.emailAddress).toBeUndefined();
    expect(publicRead.headers.etag).toBeUndefined();
    const patchByPublishable = await patch(byOrg.body.data.id, { firstName: 'Hacked' }, undefined, publishable);
    expect([patchByPublishable.status, patchByPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('records host.created and host.updated with the host, and nothing for a patch that changes nothing', async () => {
    const { body } = await create({ ...rita, firstName: 'Eva', emailAddress: 'eva@coast.test' });
    await patch(body.data.id, { description: 'Guide' });
    await patch(body.data.id, { description: 'Guide' });
    const feed = await t.rest('GET', `/v1/brands/${brand.id}/events?types=host.created,host.updated&limit=100`, { key: keys.brand });
    const mine = feed.body.data.filter((e: { data: { id: string } }) => e.data.id === body.data.id);
    expect(mine.map((e: { type: string; data: { description: string } }) => [e.type, e.data.description])).toEqual([
      ['host.created', 'Skipper on the Tagus since 2009.'],
      ['host.updated', 'Guide'],
    ]);
    expect(mine[0].data).toEqual(body.data);
  });
});

describe('GraphQL createHost / updateHost', () => {
  const createMutation = `mutation($b: UUID!, $i: HostInput!) { createHost(brandId: $b, input: $i) {
    host { uuid firstName lastName emailAddress profilePicture { uri altText } allowOverlappingBookings } etag } }`;
  const updateMutation = `mutation($b: UUID!, $id: UUID!, $i: HostInput!, $m: String) { updateHost(brandId: $b, id: $id, input: $i, ifMatch: $m) {
    host { uuid firstName lastName } etag } }`;

  it('creates and changes a host as REST does, with the same version check and field names', async () => {
    const created = await t.gql(
      createMutation,
      { b: brand.id, i: { ...rita, firstName: 'Gil', emailAddress: 'gil@coast.test' } },
      { key: keys.brand },
    );
    const host = created.body.data.createHost;
    expect(host.host).toEqual({
      uuid: expect.any(String),
      firstName: 'Gil',
      lastName: 'Sousa',
      emailAddress: 'gil@coast.test',
      profilePicture: { uri: { original: 'https://cdn.example/rita.jpg' }, altText: 'Rita at the helm' },
      allowOverlappingBookings: false,
    });
    expect(host.etag).toBe((await read(host.host.uuid)).headers.etag);
    const updated = await t.gql(
      updateMutation,
      { b: brand.id, id: host.host.uuid, i: { lastName: 'Matos' }, m: host.etag },
      { key: keys.brand },
    );
    expect(updated.body.data.updateHost.host).toEqual({ uuid: host.host.uuid, firstName: 'Gil', lastName: 'Matos' });
    const stale = await t.gql(
      updateMutation,
      { b: brand.id, id: host.host.uuid, i: { lastName: 'Lost' }, m: host.etag },
      { key: keys.brand },
    );
    expect(stale.body.errors[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'ifMatch' });
    const bad = await t.gql(updateMutation, { b: brand.id, id: host.host.uuid, i: { emailAddress: 'nope' } }, { key: keys.brand });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'emailAddress' });
    const foreign = await t.gql(updateMutation, { b: brand.id, id: sisterHost.id, i: { lastName: 'X' } }, { key: keys.brand });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const byPublishable = await t.gql(createMutation, { b: brand.id, i: rita }, { key: publishable });
    expect(byPublishable.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it("refuses a host beyond the brand's plan (features.hostsLimit), which the list would not show", async () => {
    await db.update('brands', { id: sister.id }, { hostsLimit: 2 });
    const second = await t.rest('POST', `/v1/brands/${sister.id}/hosts`, { key: keys.sister, body: rita });
    expect(second.status).toBe(201);
    const third = await t.rest('POST', `/v1/brands/${sister.id}/hosts`, { key: keys.sister, body: { ...rita, firstName: 'Aiko' } });
    expect(third.status).toBe(422);
    expect(third.body.error).toMatchObject({ code: 'FEATURE_NOT_ENABLED', details: { flag: 'hostsLimit', limit: 2 } });
    const listed = await t.rest('GET', `/v1/brands/${sister.id}/hosts`, { key: keys.sister });
    expect(listed.body.data.map((h: { firstName: string }) => h.firstName).sort()).toStrictEqual(['Kenji', 'Rita']);
  });
});
