/**
 * An endpoint whose attempts all fail for WEBHOOK_DISABLE_AFTER_SECONDS (60 s here) is disabled, on a
 * clock the test moves: its pending deliveries are given up, later events' deliveries are given up
 * without an attempt, a warning is logged and the gauge counts it, until the brand enables it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { deliveriesOf, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { startReceiver, waitFor } from '../../support/webhook-receiver.ts';

const T0 = Date.parse('2026-11-25T12:00:00.000Z');
let clock = T0;
const iso = (ms: number) => new Date(ms).toISOString();
const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const base = `/v1/brands/${brand.id}/webhooks`;
const logs: Array<{ msg: string; endpointId?: string; failingSince?: string }> = [];
let down = true;
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  // `/manual` never answers: its delivery is still pending or in flight when its brand disables it.
  receiver = await startReceiver(({ path }) => (path === '/manual' ? () => {} : down ? 503 : 200));
  t = await startApp(db, {
    now: () => new Date(clock),
    logStream: { write: (line) => logs.push(JSON.parse(line)) },
    webhooks: { dispatch: true, tickMs: 20, retryBaseSeconds: 10, maxAgeSeconds: 3600, disableAfterSeconds: 60, timeoutMs: 500 },
  });
});
afterAll(() => receiver.close());

const updateGql = `mutation($brandId: UUID!, $id: UUID!, $status: WebhookEndpointStatus!) {
  updateWebhookEndpoint(brandId: $brandId, id: $id, status: $status) { endpoint { uuid status failingSince disabledAt } }
}`;
const disabledGauge = async () =>
  Number(/^webhook_endpoints_disabled (\S+)$/m.exec((await t.app.inject({ method: 'GET', url: '/metrics' })).body)![1]);

describe('an endpoint failing too long', () => {
  it('is disabled once its attempts have failed for the time set, and enabled again by its brand', async () => {
    const created = await t.rest('POST', base, { key, body: { url: receiver.url('/hook'), events: ['*'] } });
    const endpoint = created.body.endpoint;
    expect(endpoint).toMatchObject({ status: 'enabled', failingSince: null, disabledAt: null });
    const shown = async () => (await t.rest('GET', base, { key })).body.data[0];
    const first = await recordTestEvent(db, { brandId: brand.id, at: new Date(clock) });
    const delivery = async (eventId: string) => (await deliveriesOf(db, endpoint.id)).find((d) => d.eventId === eventId)!;
    const attempted = (n: number) => waitFor(`attempt ${n}`, async () => (await delivery(first.id)).attempts === n);

    // Failing since its first failure; retried at 10 s and 30 s: failing, not yet for 60 s.
    await attempted(1);
    expect(await shown()).toMatchObject({ status: 'enabled', failingSince: iso(T0), disabledAt: null });
    clock = T0 + 10_000;
    await attempted(2);
    clock = T0 + 30_000;
    await attempted(3);
    expect(await shown()).toMatchObject({ status: 'enabled', failingSince: iso(T0), disabledAt: null });
    expect(await disabledGauge()).toBe(0);

    // The attempt at 70 s fails 70 s after the first failure: disabled, its delivery given up.
    clock = T0 + 70_000;
    await waitFor('the endpoint disabled', async () => (await shown()).status === 'disabled');
    expect(await shown()).toStrictEqual({ ...endpoint, status: 'disabled', failingSince: iso(T0), disabledAt: iso(T0 + 70_000) });
    expect(await delivery(first.id)).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 503, lastError: 'endpoint disabled' });
    expect(logs.filter((line) => line.msg.startsWith('webhook endpoint disabled'))).toMatchObject([
      { endpointId: endpoint.id, failingSince: iso(T0) },
    ]);
    expect(await disabledGauge()).toBe(1);

    // A later event's delivery is given up without an attempt.
    clock = T0 + 80_000;
    const second = await recordTestEvent(db, { brandId: brand.id, at: new Date(clock) });
    await waitFor('the later delivery given up', async () => (await delivery(second.id)).status === 'failed');
    expect(await delivery(second.id)).toMatchObject({ attempts: 0, lastAttemptAt: null, lastError: 'endpoint disabled' });
    expect(receiver.at('/hook')).toHaveLength(4);

    // Enabled again (GraphQL; REST is the same call): not failing, and the next event is delivered.
    down = false;
    const enabled = await t.gql(updateGql, { brandId: brand.id, id: endpoint.id, status: 'ENABLED' }, { key });
    expect(enabled.body.data.updateWebhookEndpoint).toStrictEqual({
      endpoint: { uuid: endpoint.id, status: 'ENABLED', failingSince: null, disabledAt: null },
    });
    const third = await recordTestEvent(db, { brandId: brand.id, at: new Date(clock) });
    await waitFor('the next event delivered', async () => (await delivery(third.id)).status === 'delivered');
    expect(receiver.at('/hook').map((r) => JSON.parse(r.body).id)).toStrictEqual([first.id, first.id, first.id, first.id, third.id]);
    expect((await delivery(second.id)).status).toBe('failed');
    expect(await disabledGauge()).toBe(0);
  });

  it('is disabled and enabled by its brand on both faces', async () => {
    const endpoint = (await t.rest('POST', base, { key, body: { url: receiver.url('/manual'), events: ['*'] } })).body.endpoint;
    const pending = await recordTestEvent(db, { brandId: brand.id, at: new Date(clock) });
    const off = await t.rest('PATCH', `${base}/${endpoint.id}`, { key, body: { status: 'disabled' } });
    expect(off).toMatchObject({ status: 200, body: { endpoint: { ...endpoint, status: 'disabled', disabledAt: iso(clock) } } });
    // Disabling again changes nothing.
    clock += 1000;
    expect((await t.rest('PATCH', `${base}/${endpoint.id}`, { key, body: { status: 'disabled' } })).body).toStrictEqual(off.body);
    const gql = await t.gql(updateGql, { brandId: brand.id, id: endpoint.id, status: 'DISABLED' }, { key });
    expect(gql.body.data.updateWebhookEndpoint.endpoint).toMatchObject({ status: 'DISABLED', disabledAt: off.body.endpoint.disabledAt });
    await waitFor('its delivery given up', async () => (await deliveriesOf(db, endpoint.id))[0]?.status === 'failed');
    expect((await deliveriesOf(db, endpoint.id)).map((d) => [d.eventId, d.status, d.lastError])).toStrictEqual([
      [pending.id, 'failed', 'endpoint disabled'],
    ]);
    const on = await t.rest('PATCH', `${base}/${endpoint.id}`, { key, body: { status: 'enabled' } });
    expect(on).toMatchObject({ status: 200, body: { endpoint: { ...endpoint, status: 'enabled', disabledAt: null } } });
  });

  it('refuses an unknown status, an unknown field, and an endpoint that is not a live one of the brand', async () => {
    const endpoint = (await t.rest('POST', base, { key, body: { url: receiver.url('/refusals'), events: ['*'] } })).body.endpoint;
    const patch = (id: string, body: unknown, k = key) => t.rest('PATCH', `${base}/${id}`, { key: k, body });
    expect((await patch(endpoint.id, { status: 'paused' })).body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await patch(endpoint.id, { status: 'enabled', url: 'https://x.test/' })).body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect((await patch(endpoint.id, {})).body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    const other = await createBrand(db);
    const otherKey = (await createApiKey(db, { brandId: other.id })).secret;
    expect(
      (await t.rest('PATCH', `/v1/brands/${other.id}/webhooks/${endpoint.id}`, { key: otherKey, body: { status: 'disabled' } })).status,
    ).toBe(404);
    await t.rest('DELETE', `${base}/${endpoint.id}`, { key });
    expect((await patch(endpoint.id, { status: 'enabled' })).status).toBe(404);
  });
});
