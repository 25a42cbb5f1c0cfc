/** Secrets never reach the logs: every credential and secret the API handles goes through requests whose log lines are kept. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CREATE_PAYMENT_INTENT, guest } from '../../support/checkout.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { dropTable, freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const legacyKey = (await createApiKey(db, { brandId: brand.id }, `legacy-${randomUUID()}`)).secret;
const sail = (await createExperience(db, brand.id)).experience;
await createSession(db, sail, { startLocal: '2027-01-05T18:00:00' });
const lines: string[] = [];
/** Every secret a request carried or an answer returned. */
const secrets: string[] = [key, legacyKey];
/** The request id of every request sent, to show each was logged. */
const requestIds: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => NOW, logStream: { write: (line) => lines.push(line) }, logLevel: 'trace' });
});

const cartBody = () => ({ data: [{ experienceId: sail.id, sessionTime: '2027-01-05T18:00', participants: [guest('Ana')] }] });
const logText = () => lines.join('');

async function rest(...args: Parameters<TestApp['rest']>) {
  const res = await t.rest(...args);
  requestIds.push(String(res.headers['x-request-id']));
  return res;
}

async function gql(query: string, variables: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    payload: { query, variables },
  });
  requestIds.push(String(res.headers['x-request-id']));
  return res.json();
}

describe('secrets in logs', () => {
  it('never logs the bearer key, the legacy secret or a rejected key', async () => {
    expect((await rest('GET', `/v1/brands/${brand.id}/settings`, { key })).status).toBe(200);
    const legacy = { 'tessera-brand-id': brand.id, 'tessera-secret-key': legacyKey };
    expect((await rest('GET', `/v1/brands/${brand.id}/settings`, { headers: legacy })).status).toBe(200);
    const rejected = `sk_test_${randomUUID()}`;
    secrets.push(rejected);
    expect((await rest('GET', `/v1/brands/${brand.id}/settings`, { key: rejected })).status).toBe(401);
  });

  it('never logs a key sent where it does not belong, in the query string', async () => {
    expect((await rest('GET', `/v1/brands/${brand.id}/settings?api_key=${key}`, { key })).status).toBe(200);
  });

  it('never logs payment intent secrets, returned by checkout on both faces and sent back to confirm', async () => {
    const created = await rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, { key, body: cartBody() });
    expect(created.status).toBe(201);
    const graph = await gql(CREATE_PAYMENT_INTENT, { brandId: brand.id, cartId: randomUUID(), input: cartBody() });
    const restSecret: string = created.body.paymentIntentSecret;
    const gqlSecret: string = graph.data.createPaymentIntent.paymentIntentSecret;
    secrets.push(restSecret, gqlSecret);

    const confirmed = await rest('POST', '/v1/sandbox/payment_intents/confirm', {
      body: { paymentIntentSecret: restSecret, outcome: 'succeeded' },
    });
    expect(confirmed.body).toEqual({ paymentIntentStatus: 'succeeded' });
    const unknown = `${restSecret.split('_secret_')[0]}_secret_${'0'.repeat(32)}`;
    secrets.push(unknown);
    expect(
      (await rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret: unknown, outcome: 'failed' } })).status,
    ).toBe(404);
  });

  it('never logs webhook signing secrets, returned at creation on both faces', async () => {
    const created = await rest('POST', `/v1/brands/${brand.id}/webhooks`, {
      key,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
    });
    const graph = await gql(
      `mutation($b: UUID!) { createWebhookEndpoint(brandId: $b, url: "http://127.0.0.1:9/other", events: [BOOKING_CONFIRMED]) { secret } }`,
      { b: brand.id },
    );
    secrets.push(created.body.secret, graph.data.createWebhookEndpoint.secret);
    expect(secrets.slice(-2)).toEqual([expect.stringMatching(/^whsec_/), expect.stringMatching(/^whsec_/)]);
  });

  it('never logs them with an unexpected failure, whose error is logged in full', async () => {
    await dropTable(db, 'hosts');
    const res = await rest('GET', `/v1/brands/${brand.id}/hosts`, { key });
    expect(res.status).toBe(500);
    const graph = await gql(`query($b: UUID!) { hosts(brandId: $b) { id } }`, { b: brand.id });
    expect(graph.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(lines.filter((line) => JSON.parse(line).level === 50)).toHaveLength(2);
  });

  it('logged every request of this file, with none of the secrets anywhere', () => {
    const text = logText();
    expect(requestIds).toHaveLength(12);
    for (const id of requestIds) expect(text).toContain(id);
    expect(secrets).toHaveLength(8);
    for (const secret of secrets) expect(text).not.toContain(secret);
    // The secret part of a payment intent secret is long enough that no fragment of it survives either.
    for (const secret of secrets.filter((s) => s.includes('_secret_'))) expect(text).not.toContain(secret.split('_secret_')[1]);
  });
});
