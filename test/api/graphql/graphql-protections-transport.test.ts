/**
 * How GraphQL requests may arrive: one operation per request (no batching), no CSRF-able simple
 * requests, automatic persisted queries, and the trusted documents mode that runs nothing else.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createHost } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
await createHost(db, brand.id, { firstName: 'Rita', lastName: 'Lopes' });
const auth = { authorization: `Bearer ${key}` };
const json = { 'content-type': 'application/json', ...auth };
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

async function post(app: TestApp, payload: unknown, headers: Record<string, string> = json) {
  const res = await app.app.inject({ method: 'POST', url: '/graphql', headers, payload: payload as object });
  return { status: res.statusCode, body: res.json() };
}

async function get(
  app: TestApp,
  params: Record<string, string>,
  headers: Record<string, string> = { ...auth, 'apollo-require-preflight': 'true' },
) {
  const res = await app.app.inject({ method: 'GET', url: `/graphql?${new URLSearchParams(params)}`, headers });
  return { status: res.statusCode, body: res.json() };
}

describe('one operation per request', () => {
  it('refuses a batched (JSON array) body with 400', async () => {
    const res = await post(t, [{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ message: 'Operation batching disabled.', extensions: { code: 'BAD_REQUEST' } }]);
  });
});

describe('CSRF prevention', () => {
  const csrf = /This operation has been blocked as a potential Cross-Site Request Forgery/;

  it('refuses a GET without a preflight-forcing header, and runs it with one', async () => {
    const blocked = await get(t, { query: '{ __typename }' }, {});
    expect(blocked.status).toBe(400);
    expect(blocked.body.errors[0].message).toMatch(csrf);
    expect(blocked.body.data).toBeUndefined();
    expect((await get(t, { query: '{ __typename }' }, { ...auth, 'apollo-require-preflight': 'true' })).body).toEqual({
      data: { __typename: 'Query' },
    });
    expect((await get(t, { query: '{ __typename }' }, { ...auth, 'x-apollo-operation-name': 'Anything' })).body).toEqual({
      data: { __typename: 'Query' },
    });
    // The API key is such a header: urql and Apollo Client send queries as GET with it alone.
    expect((await get(t, { query: '{ __typename }' }, auth)).body).toEqual({ data: { __typename: 'Query' } });
  });

  it('refuses a text/plain POST (a form can send one cross-site)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'text/plain' },
      payload: '{"query":"{ __typename }"}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toMatch(csrf);
  });
});

describe('automatic persisted queries', () => {
  const query = 'query Hosts($b: UUID!) { hosts(brandId: $b) { firstName } }';
  const hash = sha256(query);

  it('asks for the query on an unknown hash, then runs the hash alone once registered', async () => {
    const unknown = await post(t, { extensions: persisted(hash), variables: { b: brand.id } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.errors).toEqual([{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }]);

    const registered = await post(t, { query, extensions: persisted(hash), variables: { b: brand.id } });
    expect(registered.body).toEqual({ data: { hosts: [{ firstName: 'Rita' }] } });

    expect((await post(t, { extensions: persisted(hash), variables: { b: brand.id } })).body).toEqual({
      data: { hosts: [{ firstName: 'Rita' }] },
    });
    expect((await get(t, { extensions: JSON.stringify(persisted(hash)), variables: JSON.stringify({ b: brand.id }) })).body).toEqual({
      data: { hosts: [{ firstName: 'Rita' }] },
    });
  });

  it('refuses a hash that is not the query’s', async () => {
    const res = await post(t, { query: '{ __typename }', extensions: persisted(hash) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } }]);
    const version = await post(t, { query, extensions: { persistedQuery: { version: 2, sha256Hash: hash } } });
    expect(version).toEqual({
      status: 400,
      body: { errors: [{ message: 'Unsupported persisted query version', extensions: { code: 'BAD_REQUEST' } }] },
    });
  });
});

describe('trusted documents mode', () => {
  const hostsQuery = 'query Hosts($b: UUID!) { hosts(brandId: $b) { firstName } }';
  const typename = 'query Typename { __typename }';
  const notTrusted = [
    {
      message: 'This server runs only the operations of its trusted documents manifest.',
      extensions: { code: 'PERSISTED_QUERY_NOT_TRUSTED' },
    },
  ];
  let trusted: TestApp;

  const manifest = (operations: unknown[]) => ({ format: 'apollo-persisted-query-manifest', version: 1, operations });
  const operation = (name: string, body: string) => ({ id: sha256(body), name, type: 'query', body });
  const dir = mkdtempSync(join(tmpdir(), 'tessera-trusted-'));
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  beforeAll(async () => {
    trusted = await startApp(db, {
      graphql: { trustedDocumentsFile: file('manifest.json', manifest([operation('Hosts', hostsQuery), operation('Typename', typename)])) },
    });
  });

  it('runs a listed operation sent in full, by hash alone (POST or GET), or registered as APQ', async () => {
    const expected = { data: { hosts: [{ firstName: 'Rita' }] } };
    expect((await post(trusted, { query: hostsQuery, variables: { b: brand.id } })).body).toEqual(expected);
    expect((await post(trusted, { extensions: persisted(sha256(hostsQuery)), variables: { b: brand.id } })).body).toEqual(expected);
    expect(
      (await post(trusted, { query: hostsQuery, extensions: persisted(sha256(hostsQuery)), variables: { b: brand.id } })).body,
    ).toEqual(expected);
    expect((await get(trusted, { extensions: JSON.stringify(persisted(sha256(typename))) })).body).toEqual({
      data: { __typename: 'Query' },
    });
  });

  it('refuses anything else with 400 PERSISTED_QUERY_NOT_TRUSTED, before parsing: no schema hints', async () => {
    for (const payload of [
      { query: '{ __typename }' },
      { query: `${typename} ` },
      { query: '{ hostz { id } }' },
      { query: '{ __schema { types { name } } }' },
      { extensions: persisted(sha256('{ __typename }')) },
      { query: '{ __typename }', extensions: persisted(sha256('{ __typename }')) },
    ]) {
      const res = await post(trusted, payload);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: notTrusted });
    }
    const viaGet = await get(trusted, { query: '{ __typename }' });
    expect(viaGet).toEqual({ status: 400, body: { errors: notTrusted } });
    const batched = await post(trusted, [{ query: typename }, { query: '{ __typename }' }]);
    expect(batched).toEqual({ status: 400, body: { errors: notTrusted } });
  });

  it('refuses to start on a manifest it cannot use, saying why', async () => {
    const cases: Array<[string, string]> = [
      [join(dir, 'missing.json'), 'cannot read the manifest: ENOENT'],
      [file('broken.json', '{"format":'), 'the manifest is not valid JSON'],
      [
        file('format.json', { ...manifest([operation('Typename', typename)]), format: 'persisted-queries' }),
        '"format" must be "apollo-persisted-query-manifest"',
      ],
      [file('version.json', { ...manifest([operation('Typename', typename)]), version: 2 }), '"version" must be 1'],
      [file('empty.json', manifest([])), '"operations" must list at least one operation'],
      [
        file('id.json', manifest([operation('Typename', typename), { ...operation('Hosts', hostsQuery), id: sha256('other') }])),
        'operations[1] "id" must be the SHA-256 (hex) of its body',
      ],
      [
        file('type.json', manifest([{ ...operation('Typename', typename), type: 'fragment' }])),
        'operations[0] "type" must be query, mutation or subscription',
      ],
      [file('body.json', manifest([{ id: sha256(''), name: 'Nothing', type: 'query' }])), 'operations[0] has no "body"'],
    ];
    for (const [path, problem] of cases) {
      await expect(startApp(db, { graphql: { trustedDocumentsFile: path } })).rejects.toThrow(
        `Invalid configuration:\n  GRAPHQL_TRUSTED_DOCUMENTS: ${problem} (file ${JSON.stringify(path)})`,
      );
    }
  });
});
