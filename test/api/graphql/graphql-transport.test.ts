/**
 * Transport defaults that fit GraphQL clients (Apollo Client, urql, Relay): queries sent as GET with a
 * publishable key pass CSRF prevention, the headers clients and tracing add pass CORS preflights, what
 * Fastify answers before Apollo runs comes in the GraphQL error shape, and public catalogue answers may
 * be kept by a CDN for a short time.
 */
import { connect } from 'node:net';
import { buildSchema, getNamedType, isInterfaceType, isObjectType, isUnionType, type GraphQLNamedType } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { CACHEABLE_ROOT_FIELDS, LIVE_TYPES } from '../../../src/graphql/cacheable.ts';

const SHOP = 'https://shop.example';
const db = await freshDb();
const brand = await createBrand(db);
const otherBrand = await createBrand(db);
const secretKey = (await createApiKey(db, { brandId: brand.id })).secret;
const shopKey = (await createPublishableKey(db, brand.id, [SHOP])).secret;
const { experience } = await createExperience(db, brand.id);
await createSession(db, experience, { startLocal: '2027-03-01T10:00:00', capacity: 10, reserved: 3 });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { production: true, now: () => new Date('2027-02-01T12:00:00.000Z') });
});

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
/** What urql sends (Apollo Client 4 sends `application/graphql-response+json,application/json;q=0.9`). */
const URQL_ACCEPT = 'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed';
const shop = { authorization: `Bearer ${shopKey}`, origin: SHOP };

const settingsQuery = `query Settings($b: UUID!) { brandSettings(brandId: $b) { name } }`;
const experienceQuery = `query Experience($b: UUID!, $e: UUID!) { experience(brandId: $b, id: $e) { __typename title } }`;
const availabilityQuery = `query Availability($b: UUID!, $e: UUID!) { availability(brandId: $b, experienceId: $e, from: "2027-03-01", to: "2027-03-01") { remaining } }`;

/** GET /graphql as urql and Apollo Client send queries: the document and variables in the URL. */
async function getQuery(app: TestApp, query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
  const params = new URLSearchParams({ query, variables: JSON.stringify(variables) });
  const res = await app.app.inject({ method: 'GET', url: `/graphql?${params}`, headers });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

describe('CSRF prevention', () => {
  const csrf = expect.stringMatching(/^This operation has been blocked as a potential Cross-Site Request Forgery/);

  it('runs a GET query carrying an API key and no Apollo header, as urql and Apollo Client send it', async () => {
    const res = await getQuery(t, settingsQuery, { b: brand.id }, shop);
    expect([res.status, res.body]).toEqual([200, { data: { brandSettings: { name: 'Test Brand' } } }]);
    const secret = await getQuery(t, settingsQuery, { b: brand.id }, { authorization: `Bearer ${secretKey}` });
    expect([secret.status, secret.body]).toEqual([200, { data: { brandSettings: { name: 'Test Brand' } } }]);
    const legacy = await getQuery(t, settingsQuery, { b: brand.id }, { 'tessera-brand-id': brand.id, 'tessera-secret-key': secretKey });
    expect([legacy.status, legacy.body]).toEqual([200, { data: { brandSettings: { name: 'Test Brand' } } }]);
  });

  it('still refuses simple requests: a GET or a text/plain POST with none of those headers', async () => {
    const get = await getQuery(t, '{ __typename }', {}, { origin: 'https://evil.example' });
    expect([get.status, get.body]).toEqual([400, { errors: [{ message: csrf, extensions: { code: 'BAD_REQUEST' } }] }]);
    // Apollo runs no plugin for it: no-store all the same.
    expect(get.headers['cache-control']).toBe('no-store');
    const form = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      payload: '{"query":"{ __typename }"}',
    });
    expect([form.statusCode, form.json()]).toEqual([400, { errors: [{ message: csrf, extensions: { code: 'BAD_REQUEST' } }] }]);
    // An empty Authorization forces no preflight either.
    const empty = await getQuery(t, '{ __typename }', {}, { authorization: '' });
    expect(empty.status).toBe(400);
  });
});

describe('CORS preflight', () => {
  it("allows the headers Apollo Client and tracing add, from a publishable key's origin", async () => {
    const requested = 'apollographql-client-name,apollographql-client-version,authorization,traceparent,tracestate';
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/graphql',
      headers: { origin: SHOP, 'access-control-request-method': 'GET', 'access-control-request-headers': requested },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PATCH, DELETE');
    expect(res.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, Idempotency-Key, Tessera-Brand-Id, Tessera-Human-Check, Apollo-Require-Preflight, X-Apollo-Operation-Name, ' +
        'Apollographql-Client-Name, Apollographql-Client-Version, Traceparent, Tracestate',
    );
    // The request the preflight announced is then served.
    const query = await getQuery(
      t,
      settingsQuery,
      { b: brand.id },
      {
        ...shop,
        'apollographql-client-name': 'shop-web',
        'apollographql-client-version': '1.4.0',
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      },
    );
    expect([query.status, query.body, query.headers['access-control-allow-origin']]).toEqual([
      200,
      { data: { brandSettings: { name: 'Test Brand' } } },
      SHOP,
    ]);
  });
});

describe('errors answered before Apollo runs, in the GraphQL shape', () => {
  afterEach(() => vi.useRealTimers());

  it('429 RATE_LIMITED with Retry-After, in the media type the client accepts; REST keeps its shape', async () => {
    // The limiter's window follows the clock: a frozen Date makes Retry-After exact.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-02-01T12:00:00.000Z'));
    const limited = await startApp(db, { http: { RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: 2, RATE_LIMIT_ANONYMOUS_PER_MINUTE: 1 } });
    expect((await getQuery(limited, settingsQuery, { b: brand.id }, { ...shop, accept: URQL_ACCEPT })).status).toBe(200);
    expect((await getQuery(limited, settingsQuery, { b: brand.id }, shop)).status).toBe(200);
    const rateLimited = {
      errors: [
        {
          message: 'Rate limit exceeded: 2 requests per minute for this publishable key from this address; retry in 60 s',
          extensions: { code: 'RATE_LIMITED' },
        },
      ],
    };
    const urql = await getQuery(limited, settingsQuery, { b: brand.id }, { ...shop, accept: URQL_ACCEPT });
    expect([urql.status, urql.body, urql.headers['content-type']]).toEqual([429, rateLimited, GRAPHQL_RESPONSE_TYPE]);
    expect([urql.headers['retry-after'], urql.headers['cache-control']]).toEqual(['60', 'no-store']);
    // A browser page may read both.
    expect(urql.headers['access-control-allow-origin']).toBe(SHOP);
    const apollo = await limited.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...shop, 'content-type': 'application/json', accept: 'application/graphql-response+json,application/json;q=0.9' },
      payload: { query: settingsQuery, variables: { b: brand.id } },
    });
    expect([apollo.statusCode, apollo.json(), apollo.headers['content-type']]).toEqual([429, rateLimited, GRAPHQL_RESPONSE_TYPE]);
    const plain = await getQuery(limited, settingsQuery, { b: brand.id }, shop);
    expect([plain.status, plain.body, plain.headers['content-type']]).toEqual([429, rateLimited, JSON_TYPE]);

    const rest = await limited.rest('GET', `/v1/brands/${brand.id}/settings`, { headers: shop });
    expect([rest.status, rest.body, rest.headers['retry-after']]).toEqual([
      429,
      {
        error: {
          code: 'RATE_LIMITED',
          message: 'Rate limit exceeded: 2 requests per minute for this publishable key from this address; retry in 60 s',
          requestId: rest.headers['x-request-id'],
        },
      },
      '60',
    ]);
    // Without a key, the address's budget: refused the same way.
    const anonymous = async () =>
      limited.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json' },
        payload: { query: '{ __typename }' },
      });
    expect((await anonymous()).statusCode).toBe(200);
    const refused = await anonymous();
    expect([refused.statusCode, refused.json().errors[0].extensions]).toEqual([429, { code: 'RATE_LIMITED' }]);
  });

  it('413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE, 400 VALIDATION_FAILED for malformed JSON, 405 METHOD_NOT_ALLOWED', async () => {
    const post = (headers: Record<string, string>, payload: string) =>
      t.app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${secretKey}`, ...headers }, payload });
    const error = (res: Awaited<ReturnType<typeof post>>) => ({
      status: res.statusCode,
      body: res.json(),
      type: res.headers['content-type'],
      cacheControl: res.headers['cache-control'],
    });
    const large = await post(
      { 'content-type': 'application/json' },
      JSON.stringify({ query: '{ __typename }', padding: 'x'.repeat(1024 * 1024) }),
    );
    expect(error(large)).toEqual({
      status: 413,
      body: { errors: [{ message: 'Request body is too large', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] },
      type: JSON_TYPE,
      cacheControl: 'no-store',
    });
    const xml = await post({ 'content-type': 'application/xml', accept: 'application/graphql-response+json' }, '<query/>');
    expect(error(xml)).toEqual({
      status: 415,
      body: { errors: [{ message: 'Unsupported Media Type', extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }] },
      type: GRAPHQL_RESPONSE_TYPE,
      cacheControl: 'no-store',
    });
    const malformed = await post({ 'content-type': 'application/json' }, '{"query": ');
    expect(error(malformed)).toEqual({
      status: 400,
      body: {
        errors: [
          { message: "Body is not valid JSON but content-type is set to 'application/json'", extensions: { code: 'VALIDATION_FAILED' } },
        ],
      },
      type: JSON_TYPE,
      cacheControl: 'no-store',
    });
    const method = await t.app.inject({ method: 'DELETE', url: '/graphql?query=x' });
    expect([method.statusCode, method.headers.allow, method.json()]).toEqual([
      405,
      'GET, HEAD, OPTIONS, POST',
      {
        errors: [
          { message: '/graphql does not take DELETE; it takes GET, HEAD, OPTIONS, POST', extensions: { code: 'METHOD_NOT_ALLOWED' } },
        ],
      },
    ]);
  });

  it('an Idempotency-Key refusal (409, 400) in the GraphQL shape', async () => {
    const mutation = JSON.stringify({ query: 'mutation { __typename }' });
    const headers = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' };
    const bad = await t.app.inject({ method: 'POST', url: '/graphql', headers: { ...headers, 'idempotency-key': '' }, payload: mutation });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('a bad key is answered by the operation, as a GraphQL error too', async () => {
    const res = await getQuery(t, settingsQuery, { b: brand.id }, { authorization: 'Bearer sk_test_nope' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([
      {
        message: 'The API key is not valid',
        locations: [{ line: 1, column: 29 }],
        path: ['brandSettings'],
        extensions: { code: 'UNAUTHENTICATED' },
      },
    ]);
  });
});

describe('errors the HTTP server answers itself (real port)', () => {
  let raw: TestApp;
  let port: number;

  beforeAll(async () => {
    raw = await startApp(db, { http: { REQUEST_TIMEOUT_MS: 500, MAX_HEADER_BYTES: 8_192 } });
    await raw.app.listen({ port: 0, host: '127.0.0.1' });
    port = (raw.app.server.address() as { port: number }).port;
  });

  /** Sends raw bytes on a fresh connection; resolves with everything received once the server closes it. */
  const exchange = (bytes: string) =>
    new Promise<string>((resolve) => {
      let received = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('error', () => {});
      socket.on('close', () => resolve(received));
    });
  const parse = (received: string) => {
    const [head = '', body = ''] = received.split('\r\n\r\n');
    const header = (name: string) => new RegExp(`\r\n${name}: ([^\r]*)`, 'i').exec(head)?.[1];
    return { status: head.slice(0, 12), type: header('content-type'), cacheControl: header('cache-control'), body: JSON.parse(body) };
  };

  it('408 REQUEST_TIMEOUT for a GraphQL body that never arrives', async () => {
    const head = `POST /graphql HTTP/1.1\r\nHost: tessera\r\nAuthorization: Bearer ${secretKey}\r\nAccept: ${URQL_ACCEPT}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    expect(parse(await exchange(`${head}{"query": `))).toEqual({
      status: 'HTTP/1.1 408',
      type: GRAPHQL_RESPONSE_TYPE,
      cacheControl: 'no-store',
      body: { errors: [{ message: 'The request did not arrive in time', extensions: { code: 'REQUEST_TIMEOUT' } }] },
    });
  });

  it('431 HEADERS_TOO_LARGE for a GraphQL request; a REST path keeps its shape', async () => {
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: tessera\r\nX-Padding: ${'a'.repeat(9_000)}\r\n\r\n`;
    expect(parse(await exchange(request('/graphql?query=%7B__typename%7D')))).toEqual({
      status: 'HTTP/1.1 431',
      type: JSON_TYPE,
      cacheControl: 'no-store',
      body: { errors: [{ message: 'The request line and headers are too large', extensions: { code: 'HEADERS_TOO_LARGE' } }] },
    });
    const rest = parse(await exchange(request('/healthz')));
    expect([rest.status, rest.cacheControl, rest.body.error.code]).toEqual(['HTTP/1.1 431', undefined, 'HEADERS_TOO_LARGE']);
  });
});

describe('Cache-Control on GraphQL answers', () => {
  const PUBLIC = { cacheControl: 'public, max-age=30', vary: 'Accept, Authorization, Origin, Tessera-Brand-Id' };
  const caching = (res: { headers: Record<string, unknown> }) => ({ cacheControl: res.headers['cache-control'], vary: res.headers.vary });

  it('lets a CDN keep a catalogue query sent as GET with a publishable key for 30 s, varying on what it depends on', async () => {
    const settings = await getQuery(t, settingsQuery, { b: brand.id }, shop);
    expect([settings.body, caching(settings)]).toEqual([{ data: { brandSettings: { name: 'Test Brand' } } }, PUBLIC]);
    const detail = await getQuery(t, experienceQuery, { b: brand.id, e: experience.id }, shop);
    expect([detail.body, caching(detail)]).toEqual([{ data: { experience: { __typename: 'Experience', title: 'Sunset Sail' } } }, PUBLIC]);
    // Without an Origin (server-side rendering) the same.
    const server = await getQuery(t, settingsQuery, { b: brand.id }, { authorization: `Bearer ${shopKey}` });
    expect(caching(server)).toEqual(PUBLIC);
  });

  it('keeps nothing else: POST, secret keys, sessions, other root fields, answers with errors', async () => {
    const noStore = { cacheControl: 'no-store', vary: expect.not.stringContaining('Authorization') };
    const post = await t.gql(settingsQuery, { b: brand.id }, { key: shopKey, headers: { origin: SHOP } });
    expect([post.body.data, caching(post)]).toEqual([{ brandSettings: { name: 'Test Brand' } }, noStore]);
    const secret = await getQuery(t, settingsQuery, { b: brand.id }, { authorization: `Bearer ${secretKey}` });
    expect([secret.body.data, caching(secret)]).toEqual([{ brandSettings: { name: 'Test Brand' } }, noStore]);

    // Places change with every hold: a shop refetching availability after its hold must see it. (7 on sale, of
    // which the publishable key may hold 5: the brand's 50 % share of 10, docs/keys.md.)
    const availability = await getQuery(t, availabilityQuery, { b: brand.id, e: experience.id }, shop);
    expect([availability.body, caching(availability)]).toEqual([{ data: { availability: [{ remaining: 5 }] } }, noStore]);
    const sessions = await getQuery(
      t,
      `query($b: UUID!, $e: UUID!) { experience(brandId: $b, id: $e) { title ...Places } } fragment Places on Experience { sessions(from: "2027-03-01", to: "2027-03-01") { remaining } }`,
      { b: brand.id, e: experience.id },
      shop,
    );
    expect([sessions.body, caching(sessions)]).toEqual([
      { data: { experience: { title: 'Sunset Sail', sessions: [{ remaining: 5 }] } } },
      noStore,
    ]);
    const viewer = await getQuery(t, `{ brandSettings(brandId: "${brand.id}") { name } viewer { kind } }`, {}, shop);
    expect([viewer.body.errors, caching(viewer)]).toEqual([undefined, noStore]);

    const forbidden = await getQuery(t, settingsQuery, { b: otherBrand.id }, shop);
    expect([forbidden.body.errors[0].extensions.code, caching(forbidden)]).toEqual(['FORBIDDEN', noStore]);
  });

  it('answers every query no-store with GRAPHQL_PUBLIC_MAX_AGE_SECONDS=0', async () => {
    const off = await startApp(db, { http: { GRAPHQL_PUBLIC_MAX_AGE_SECONDS: 0 } });
    const res = await getQuery(off, settingsQuery, { b: brand.id }, shop);
    expect([res.body, res.headers['cache-control']]).toEqual([{ data: { brandSettings: { name: 'Test Brand' } } }, 'no-store']);
  });

  it('keeps no per-customer type: none is within reach of a cacheable root field but through a live type', () => {
    // Answers are judged by document (src/graphql/cacheable.ts): root fields, and no live type anywhere. A
    // new link from the catalogue to a customer's data must be a decision (a live type), not an accident.
    const sdl = readdirSync('schema')
      .filter((file) => file.endsWith('.graphql'))
      .map((file) => readFileSync(`schema/${file}`, 'utf8'))
      .join('\n');
    const schema = buildSchema(sdl, { assumeValid: true });
    const reachable = new Set<string>();
    const stack: GraphQLNamedType[] = [...CACHEABLE_ROOT_FIELDS]
      .filter((name) => name !== '__typename')
      .map((name) => getNamedType(schema.getQueryType()!.getFields()[name]!.type));
    for (let type = stack.pop(); type; type = stack.pop()) {
      if (reachable.has(type.name) || LIVE_TYPES.has(type.name)) continue;
      reachable.add(type.name);
      if (isObjectType(type) || isInterfaceType(type))
        stack.push(...Object.values(type.getFields()).map((field) => getNamedType(field.type)));
      if (isInterfaceType(type) || isUnionType(type)) stack.push(...schema.getPossibleTypes(type));
    }
    const perCustomer = ['Booking', 'Cart', 'BookingEvent', 'WaitlistEntry', 'WebhookEndpoint'];
    expect(perCustomer.filter((name) => !schema.getType(name))).toEqual([]);
    expect(perCustomer.filter((name) => reachable.has(name))).toEqual([]);
    expect(reachable.has('Experience')).toBe(true);
  });
});
