import { beforeAll, describe, expect, it } from 'vitest';
import { eventTypes } from '../../../src/domain/outbox/outbox.ts';
import { decryptSecret } from '../../../src/domain/webhooks/secrets.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createWebhookEndpoint, deliveriesOf, recordTestEvent, testWebhookKey } from '../../../fixtures/factories/webhooks.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const db = await freshDb();
const org = await createOrganization(db);
const brand = await createBrand(db, { organizationId: org.id });
const sister = await createBrand(db, { organizationId: org.id });
const outsider = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;
const outsiderKey = (await createApiKey(db, { brandId: outsider.id })).secret;
/** Names the tests resolve (production mode resolves every host name; no network needed). */
const dns: Record<string, string[]> = {
  'hooks.partner.test': ['93.184.216.34'],
  'loopback.partner.test': ['127.0.0.1', '93.184.216.34'],
  // The special-purpose ranges issue 34 found accepted, each behind a name (resolved here, never connected to).
  'benchmarking.partner.test': ['198.18.0.7'],
  'protocol.partner.test': ['192.0.0.9'],
  'nat64.partner.test': ['64:ff9b:1::a00:7'],
  'translated.partner.test': ['::ffff:0:a00:7'],
  'teredo.partner.test': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'sixtofour.partner.test': ['2002:c0a8:107::1'],
};
const lookup = async (host: string) => {
  const found = dns[host];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found;
};
let t: TestApp;
let prod: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => NOW });
  prod = await startApp(db, { now: () => NOW, production: true, webhooks: { lookup } });
});

const base = `/v1/brands/${brand.id}/webhooks`;
const create = (body: unknown, app = t, k = key) => app.rest('POST', base, { key: k, body });
// `id: uuid` in these documents: the endpoint's raw id, which REST answers and paths take (GraphQL's `id` is global).
const createGql = `mutation($brandId: UUID!, $url: URL!, $events: [EventType!]) {
  createWebhookEndpoint(brandId: $brandId, url: $url, events: $events) { endpoint { id: uuid url events createdAt status failingSince disabledAt } secret }
}`;
const listGql = `query($brandId: UUID!) { webhookEndpoints(brandId: $brandId) { id: uuid url events createdAt status failingSince disabledAt } }`;
const deleteGql = `mutation($brandId: UUID!, $id: UUID!) { deleteWebhookEndpoint(brandId: $brandId, id: $id) { endpoint { id: uuid url events createdAt status failingSince disabledAt } } }`;
/** An endpoint as REST shows it, with GraphQL's spelling of its event types (`booking.created` is BOOKING_CREATED) and status. */
const asGraphQL = (endpoint: { events: string[]; status: string }) => ({
  ...endpoint,
  events: endpoint.events.map((e) => e.toUpperCase().replace('.', '_')),
  status: endpoint.status.toUpperCase(),
});
const secretShape = /^whsec_[A-Za-z0-9_-]{43}$/;

describe('POST /v1/brands/{brandId}/webhooks', () => {
  it('registers the endpoint and returns its secret once', async () => {
    const res = await create({ url: 'https://hooks.partner.test/tessera', events: ['booking.confirmed', 'booking.cancelled'] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['endpoint', 'secret']);
    expect(res.body.endpoint).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://hooks.partner.test/tessera',
      events: ['booking.confirmed', 'booking.cancelled'],
      createdAt: '2026-11-25T12:00:00.000Z',
      status: 'enabled',
      failingSince: null,
      disabledAt: null,
    });
    expect(res.body.secret).toMatch(secretShape);
  });

  it('keeps the secret encrypted at rest, readable only with the server key and for that endpoint', async () => {
    const res = await create({ url: 'https://hooks.partner.test/enc', events: ['booking.created'] });
    const { id } = res.body.endpoint;
    const row = await db.row('webhookEndpoints', { id });
    const secret: string = res.body.secret;
    expect(row.secretCiphertext).not.toContain(secret);
    expect(row.secretCiphertext).not.toContain(secret.slice('whsec_'.length));
    expect(Buffer.from(row.secretCiphertext, 'base64').toString('latin1')).not.toContain(secret.slice(6, 20));
    expect(decryptSecret(testWebhookKey, row.secretCiphertext, id)).toBe(secret);
    expect(() => decryptSecret([Buffer.alloc(32, 1)], row.secretCiphertext, id)).toThrow();
    expect(() => decryptSecret(testWebhookKey, row.secretCiphertext, brand.id)).toThrow();
  });

  it('gives every endpoint its own secret', async () => {
    const a = await create({ url: 'https://hooks.partner.test/a', events: ['booking.created'] });
    const b = await create({ url: 'https://hooks.partner.test/a', events: ['booking.created'] });
    expect(a.body.secret).not.toBe(b.body.secret);
  });

  it('expands ["*"] to every event type', async () => {
    const res = await create({ url: 'https://hooks.partner.test/all', events: ['*'] });
    expect(res.status).toBe(201);
    expect(res.body.endpoint.events).toEqual([...eventTypes]);
    expect(eventTypes).toHaveLength(27);
  });

  it('normalizes the URL', async () => {
    const res = await create({ url: 'HTTPS://Hooks.Partner.test:443/x?y=1', events: ['booking.created'] });
    expect(res.body.endpoint.url).toBe('https://hooks.partner.test/x?y=1');
  });

  const url = 'https://hooks.partner.test/';
  it.each([
    ['no url', { events: ['booking.created'] }, 'url'],
    ['no events', { url }, 'events'],
    ['an empty url', { url: '', events: ['booking.created'] }, 'url'],
    ['a url that is not one', { url: 'not a url', events: ['booking.created'] }, 'url'],
    ['a relative url', { url: '/relative/path', events: ['booking.created'] }, 'url'],
    ['an ftp url', { url: 'ftp://hooks.partner.test/', events: ['booking.created'] }, 'url'],
    ['a url with credentials', { url: 'https://user:pw@hooks.partner.test/', events: ['booking.created'] }, 'url'],
    ['a url over 2048 characters', { url: `${url}${'a'.repeat(2030)}`, events: ['booking.created'] }, 'url'],
    ['a number as url', { url: 42, events: ['booking.created'] }, 'url'],
    ['no event type', { url, events: [] }, 'events'],
    ['an unknown event type', { url, events: ['booking.paid'] }, 'events.0'],
    ['a wrongly cased event type', { url, events: ['booking.created', 'Booking.Created'] }, 'events.1'],
    ['a repeated event type', { url, events: ['booking.created', 'booking.created'] }, 'events'],
    ['"*" with other types', { url, events: ['*', 'booking.created'] }, 'events.0'],
    ['an unknown field', { url, events: ['booking.created'], secret: 'mine' }, 'secret'],
  ])('refuses %s as VALIDATION_FAILED on its field', async (_, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });

  it('refuses a malformed brand id', async () => {
    const res = await t.rest('POST', '/v1/brands/nope/webhooks', { key, body: { url: 'https://hooks.partner.test/', events: ['*'] } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('brandId');
  });
});

describe('SSRF: private targets in production', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://10.0.0.5/hook',
    'https://[::1]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://loopback.partner.test/hook',
    'https://192.168.0.10:8443/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://unknown.partner.test/hook',
  ])('refuses %s naming url', async (url) => {
    const res = await create({ url, events: ['*'] }, prod);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'url' } });
  });

  it.each([
    ['benchmarking.partner.test', 'a benchmarking address (198.18.0.7)'],
    ['protocol.partner.test', 'an IETF protocol assignment address (192.0.0.9)'],
    ['nat64.partner.test', 'a NAT64 (local use) address (64:ff9b:1::a00:7)'],
    ['translated.partner.test', 'an IPv4-translated address (::ffff:0:a00:7)'],
    ['teredo.partner.test', 'a Teredo address (2001:0:4136:e378:8000:63bf:3fff:fdd2)'],
    ['sixtofour.partner.test', 'a 6to4 address (2002:c0a8:107::1)'],
  ])('refuses %s, which resolves to %s', async (host, what) => {
    const res = await create({ url: `https://${host}/hook`, events: ['*'] }, prod);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `url host ${host} resolves to ${what}: webhooks may only target public addresses`,
      details: { field: 'url' },
    });
  });

  it('says why', async () => {
    const res = await create({ url: 'https://loopback.partner.test/hook', events: ['*'] }, prod);
    expect(res.body.error.message).toBe(
      'url host loopback.partner.test resolves to a loopback address (127.0.0.1): webhooks may only target public addresses',
    );
  });

  it('refuses plain http in production', async () => {
    const res = await create({ url: 'http://hooks.partner.test/hook', events: ['*'] }, prod);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'url must use https', details: { field: 'url' } });
  });

  it('accepts a public https URL in production', async () => {
    const res = await create({ url: 'https://hooks.partner.test/prod', events: ['*'] }, prod);
    expect(res.status).toBe(201);
  });

  it('refuses the same through GraphQL', async () => {
    const res = await prod.gql(createGql, { brandId: brand.id, url: 'https://[::1]/hook' }, { key });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'url' });
  });

  it.each([
    'http://127.0.0.1:9999/hook',
    'http://localhost:3000/hook',
    'http://10.0.0.5/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/',
  ])('accepts %s outside production', async (url) => {
    const res = await create({ url, events: ['*'] });
    expect(res.status).toBe(201);
  });
});

// A brand whose endpoints only the listing tests create (set up here, where the module may await).
const lister = await createBrand(db, { organizationId: org.id });
const listerKey = (await createApiKey(db, { brandId: lister.id })).secret;

describe('listing endpoints', () => {
  const path = `/v1/brands/${lister.id}/webhooks`;

  it('lists live endpoints oldest first, without secrets, the same on both faces', async () => {
    const first = await t.rest('POST', path, {
      key: listerKey,
      body: { url: 'https://hooks.partner.test/1', events: ['booking.created'] },
    });
    const second = await t.gql(
      createGql,
      { brandId: lister.id, url: 'https://hooks.partner.test/2', events: ['WAITLIST_OFFERED'] },
      { key: listerKey },
    );
    expect(second.body.data.createWebhookEndpoint.secret).toMatch(secretShape);
    expect(second.body.data.createWebhookEndpoint.endpoint).toMatchObject({
      url: 'https://hooks.partner.test/2',
      events: ['WAITLIST_OFFERED'],
      createdAt: NOW.toISOString(),
    });

    const rest = await t.rest('GET', path, { key: listerKey });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      data: [first.body.endpoint, { ...second.body.data.createWebhookEndpoint.endpoint, events: ['waitlist.offered'], status: 'enabled' }],
    });
    expect(JSON.stringify(rest.body)).not.toContain('whsec_');
    const gql = await t.gql(listGql, { brandId: lister.id }, { key: listerKey });
    expect(gql.body.data.webhookEndpoints).toEqual(rest.body.data.map(asGraphQL));
  });

  it('lists nothing for a brand without endpoints', async () => {
    const res = await t.rest('GET', `/v1/brands/${sister.id}/webhooks`, { key: orgKey });
    expect(res.body).toEqual({ data: [] });
  });
});

describe('deleting endpoints', () => {
  it('deletes on both faces; the endpoint leaves the list and 404s after', async () => {
    const a = (await create({ url: 'https://hooks.partner.test/del-a', events: ['*'] })).body.endpoint;
    const b = (await create({ url: 'https://hooks.partner.test/del-b', events: ['*'] })).body.endpoint;
    const rest = await t.rest('DELETE', `${base}/${a.id}`, { key });
    expect(rest).toMatchObject({ status: 200, body: { endpoint: a } });
    const gql = await t.gql(deleteGql, { brandId: brand.id, id: b.id }, { key });
    expect(gql.body.data.deleteWebhookEndpoint).toEqual({ endpoint: asGraphQL(b) });

    const ids = (await t.rest('GET', base, { key })).body.data.map((e: { id: string }) => e.id);
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(b.id);
    expect((await t.rest('DELETE', `${base}/${a.id}`, { key })).body.error.code).toBe('NOT_FOUND');
    expect((await t.gql(deleteGql, { brandId: brand.id, id: b.id }, { key })).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('gives up pending deliveries and queues none after', async () => {
    const endpoint = await createWebhookEndpoint(db, brand.id, { url: 'https://hooks.partner.test/pending' });
    const resourceId = crypto.randomUUID();
    await recordTestEvent(db, { brandId: brand.id, resourceId });
    expect((await deliveriesOf(db, endpoint.id)).map((d) => d.status)).toEqual(['pending']);
    expect((await t.rest('DELETE', `${base}/${endpoint.id}`, { key })).status).toBe(200);
    await recordTestEvent(db, { brandId: brand.id, resourceId, type: 'booking.confirmed' });
    expect((await deliveriesOf(db, endpoint.id)).map((d) => [d.status, d.lastError])).toEqual([['failed', 'endpoint deleted']]);
  });

  it("answers 404 for an unknown id and for another brand's endpoint", async () => {
    const theirs = await createWebhookEndpoint(db, outsider.id, { url: 'https://hooks.partner.test/theirs' });
    expect((await t.rest('DELETE', `${base}/${crypto.randomUUID()}`, { key })).status).toBe(404);
    const res = await t.rest('DELETE', `${base}/${theirs.id}`, { key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(
      (await t.rest('GET', `/v1/brands/${outsider.id}/webhooks`, { key: outsiderKey })).body.data.map((e: { id: string }) => e.id),
    ).toEqual([theirs.id]);
  });

  it('refuses a malformed endpoint id', async () => {
    const res = await t.rest('DELETE', `${base}/nope`, { key });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('endpointId');
  });
});

describe('auth', () => {
  it('needs a key on both faces', async () => {
    expect((await t.rest('GET', base)).status).toBe(401);
    expect((await t.rest('POST', base, { body: { url: 'https://hooks.partner.test/', events: ['*'] } })).status).toBe(401);
    expect((await t.rest('DELETE', `${base}/${crypto.randomUUID()}`)).status).toBe(401);
    const res = await t.gql(listGql, { brandId: brand.id });
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it("forbids another brand's key", async () => {
    expect((await create({ url: 'https://hooks.partner.test/', events: ['*'] }, t, outsiderKey)).status).toBe(403);
    expect((await t.rest('GET', base, { key: outsiderKey })).status).toBe(403);
    expect((await t.rest('DELETE', `${base}/${crypto.randomUUID()}`, { key: outsiderKey })).status).toBe(403);
    const res = await t.gql(createGql, { brandId: brand.id, url: 'https://hooks.partner.test/' }, { key: outsiderKey });
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it("lets an organization key manage its brands' endpoints", async () => {
    const res = await t.rest('POST', `/v1/brands/${sister.id}/webhooks`, {
      key: orgKey,
      body: { url: 'https://hooks.partner.test/org', events: ['*'] },
    });
    expect(res.status).toBe(201);
    expect((await t.rest('GET', `/v1/brands/${sister.id}/webhooks`, { key: orgKey })).body.data.map((e: { id: string }) => e.id)).toEqual([
      res.body.endpoint.id,
    ]);
    expect((await t.rest('DELETE', `/v1/brands/${sister.id}/webhooks/${res.body.endpoint.id}`, { key: orgKey })).status).toBe(200);
  });
});

describe('GraphQL input', () => {
  it('refuses a value that is not a URL as BAD_USER_INPUT', async () => {
    const res = await t.gql(createGql, { brandId: brand.id, url: 'not a url' }, { key });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('subscribes to every event type when events is omitted, as REST\'s ["*"] does', async () => {
    const res = await t.gql(createGql, { brandId: brand.id, url: 'https://hooks.partner.test/every' }, { key });
    expect(res.body.data.createWebhookEndpoint.endpoint.events).toEqual([
      'BOOKING_CREATED',
      'BOOKING_CONFIRMED',
      'BOOKING_FAILED',
      'BOOKING_CANCELLED',
      'BOOKING_PARTICIPANTS_CANCELLED',
      'BOOKING_REFUNDED',
      'BOOKING_RESCHEDULED',
      'WAITLIST_ENTRY_CREATED',
      'WAITLIST_OFFERED',
      'WAITLIST_CONVERTED',
      'WAITLIST_EXPIRED',
      'EXPERIENCE_CREATED',
      'EXPERIENCE_UPDATED',
      'EXPERIENCE_ARCHIVED',
      'LISTING_CREATED',
      'LISTING_UPDATED',
      'LISTING_PUBLISHED',
      'BRAND_UPDATED',
      'HOST_CREATED',
      'HOST_UPDATED',
      'COUPON_CREATED',
      'COUPON_UPDATED',
      'CREDIT_CODE_CREATED',
      'CREDIT_CODE_UPDATED',
      'SESSION_CREATED',
      'SESSION_UPDATED',
      'SESSION_CANCELLED',
    ]);
    const rest = (await t.rest('GET', base, { key })).body.data.find(
      (e: { id: string }) => e.id === res.body.data.createWebhookEndpoint.endpoint.id,
    );
    expect(rest.events).toEqual([...eventTypes]);
  });

  it.each([['booking.created'], ['*'], ['BOOKING_PAID']])(
    'refuses the event type %s (not an EventType value) as BAD_USER_INPUT',
    async (type) => {
      const res = await t.gql(createGql, { brandId: brand.id, url: 'https://hooks.partner.test/', events: [type] }, { key });
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    },
  );

  it.each([
    [{ url: 'ftp://hooks.partner.test/' }, 'url'],
    [{ events: [] }, 'events'],
    [{ events: ['BOOKING_CREATED', 'BOOKING_CREATED'] }, 'events'],
  ])('refuses %j as VALIDATION_FAILED on %s', async (override, field) => {
    const res = await t.gql(createGql, { brandId: brand.id, url: 'https://hooks.partner.test/', ...override }, { key });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field });
  });

  it('refuses a malformed id as BAD_USER_INPUT', async () => {
    const res = await t.gql(deleteGql, { brandId: brand.id, id: 'nope' }, { key });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
