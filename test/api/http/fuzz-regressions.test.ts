/** The faults the fuzz test found (test/api/http/fuzz.test.ts), each pinned down on its own. */
import { createHmac, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const PROCESSOR_SECRET = 'regression-processor-secret';
const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
await createSession(db, experience, { startLocal: '2026-12-01T09:00:00' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => NOW, payments: new SandboxProcessor({ webhookSecret: PROCESSOR_SECRET, now: () => NOW }) });
});

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const cartItem = (metadata: string) =>
  `{"experienceId":"${experience.id}","sessionTime":"2026-12-01T09:00","participants":[{"firstName":"Ana","lastName":"Silva","priceTierName":"Adult"}],"metadata":${metadata}}`;

describe('faults found by the fuzz test', () => {
  it('refuses the NUL character and unpaired surrogates in any text, naming the field, on both faces (PostgreSQL refused them: a 500)', async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const item = {
      experienceId: experience.id,
      sessionTime: '2026-12-01T09:00',
      participants: [{ firstName: 'A\u0000na', lastName: 'Silva', priceTierName: 'Adult' }],
    };
    const rest = await t.app.inject({
      method: 'POST',
      url: `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`,
      headers,
      payload: { data: [item] },
    });
    expect([rest.statusCode, rest.json().error]).toMatchObject([
      400,
      {
        code: 'VALIDATION_FAILED',
        message: 'data.0.participants.0.firstName must be Unicode text without the NUL character (U+0000) or unpaired surrogates',
        details: { field: 'data.0.participants.0.firstName' },
      },
    ]);

    const mutation =
      'mutation($b: UUID!, $c: UUID!, $input: CreatePaymentIntentInput!) { createPaymentIntent(brandId: $b, cartId: $c, input: $input) { totalNetAmount } }';
    const graph = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: { query: mutation, variables: { b: brand.id, c: randomUUID(), input: { data: [item] } } },
    });
    expect([graph.statusCode, graph.json().errors[0].extensions]).toEqual([
      400,
      { code: 'VALIDATION_FAILED', field: 'data.0.participants.0.firstName' },
    ]);

    const literal = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: { query: `{ brand(id: "${brand.id}") { name } hosts(brandId: "${brand.id}", search: "a\\u0000") { id } }` },
    });
    expect([literal.statusCode, literal.json().errors[0].extensions]).toEqual([400, { code: 'VALIDATION_FAILED', field: 'query' }]);

    const lone = await t.app.inject({
      method: 'POST',
      url: `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`,
      headers,
      payload: JSON.stringify({ data: [{ ...item, participants: [{ ...item.participants[0], firstName: 'Ana', lastName: '\ud800' }] }] }),
    });
    expect([lone.statusCode, lone.json().error.details]).toEqual([400, { field: 'data.0.participants.0.lastName' }]);
  });

  it('refuses a validly signed processor webhook whose body is JSON but not an object (was a 500)', async () => {
    const at = Math.floor(NOW.getTime() / 1000);
    for (const payload of ['null', '[]', '"event"', '42']) {
      const signature = `t=${at},v1=${createHmac('sha256', PROCESSOR_SECRET).update(`${at}.${payload}`).digest('hex')}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks/payments',
        headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
        payload,
      });
      expect({ payload, status: res.statusCode, code: res.json().error.code }).toEqual({ payload, status: 400, code: 'VALIDATION_FAILED' });
    }
  });

  it('refuses checkout metadata nested deeper than 10 levels on both faces (20 000 levels overflowed the stack: a 500)', async () => {
    const url = `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const rest = await t.app.inject({
      method: 'POST',
      url,
      headers,
      payload: `{"getOnlyTotalNetAmount":true,"data":[${cartItem(nested(20_000))}]}`,
    });
    expect(rest.statusCode).toBe(400);
    expect(rest.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'data.0.metadata must nest at most 10 levels',
      details: { field: 'data.0.metadata' },
    });

    const query =
      'mutation($b: UUID!, $c: UUID!, $input: CreatePaymentIntentInput!) { createPaymentIntent(brandId: $b, cartId: $c, input: $input) { totalNetAmount } }';
    const variables = `{"b":"${brand.id}","c":"${randomUUID()}","input":{"getOnlyTotalNetAmount":true,"data":[${cartItem(nested(20_000))}]}}`;
    const graph = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: `{"query":${JSON.stringify(query)},"variables":${variables}}`,
    });
    expect(graph.json().errors[0].extensions).toEqual({ code: 'VALIDATION_FAILED', field: 'data.0.metadata' });

    const ten = await t.app.inject({
      method: 'POST',
      url,
      headers,
      payload: `{"getOnlyTotalNetAmount":true,"data":[${cartItem(nested(9))}]}`,
    });
    expect(ten.statusCode).toBe(200);
  });

  it('answers more than 50 bad variable values with BAD_USER_INPUT only (graphql-js’s "too many errors" was masked as a 500-class error)', async () => {
    const res = await t.gql(
      'mutation($b: UUID!, $events: [EventType!]) { createWebhookEndpoint(brandId: $b, url: "http://127.0.0.1:9/x", events: $events) { secret } }',
      { b: null, events: Array(60).fill(0) },
      { key },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(51);
    expect(new Set(res.body.errors.map((e: any) => e.extensions.code))).toEqual(new Set(['BAD_USER_INPUT']));
    expect(res.body.errors.at(-1).message).toBe('Too many errors processing variables, error limit reached. Execution aborted.');
  });
});
