import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventEnvelope, type StoredEvent } from '../../../src/domain/outbox/outbox.ts';
import type { WebhookRequest } from '../../../src/domain/webhooks/settings.ts';
import { verifyTesseraSignature } from '../../../examples/webhook-receiver/verify-signature.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createWebhookEndpoint, deliveriesOf, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { startReceiver, waitFor, type ReceivedWebhook } from '../../support/webhook-receiver.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startApp(db, { webhooks: { dispatch: true, tickMs: 20, retryBaseSeconds: 0.05 } });
  await t.app.ready();
});
afterAll(() => receiver.close());

const register = async (path: string, events: string[] = ['*']) => {
  const res = await t.rest('POST', `/v1/brands/${brand.id}/webhooks`, { key, body: { url: receiver.url(path), events } });
  expect(res.status).toBe(201);
  return { id: res.body.endpoint.id as string, secret: res.body.secret as string };
};
const eventIdOf = (r: ReceivedWebhook) => JSON.parse(r.body).id as string;
const resourceOf = (r: ReceivedWebhook) => JSON.parse(r.body).data.id as string;

describe('delivery to a real HTTP receiver', () => {
  it('POSTs the event envelope, signed as the README shows', async () => {
    const endpoint = await register('/signed', ['booking.confirmed']);
    await recordTestEvent(db, { brandId: brand.id, type: 'booking.created' });
    const event = await recordTestEvent(db, {
      brandId: brand.id,
      type: 'booking.confirmed',
      payload: { id: 'b-1', status: 'confirmed', amount: 25.5 },
    });
    await waitFor('the signed delivery', () => receiver.at('/signed').length === 1);

    const [request] = receiver.at('/signed') as [ReceivedWebhook];
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('Tessera-Webhooks/1.0');
    expect(request.headers['tessera-event-id']).toBe(event.id);
    expect(JSON.parse(request.body)).toEqual(eventEnvelope(event));
    expect(JSON.parse(request.body)).toEqual({
      id: event.id,
      type: 'booking.confirmed',
      createdAt: event.createdAt,
      data: { id: 'b-1', status: 'confirmed', amount: 25.5 },
    });
    const signature = String(request.headers['tessera-signature']);
    expect(signature).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(Math.abs(Number(signature.slice(2, 12)) - Date.now() / 1000)).toBeLessThan(5);
    expect(verifyTesseraSignature(request.body, signature, endpoint.secret)).toBe(true);
    expect(verifyTesseraSignature(request.body.replace('25.5', '255'), signature, endpoint.secret)).toBe(false);
    expect(verifyTesseraSignature(request.body, signature, 'whsec_someone_else')).toBe(false);
    expect(verifyTesseraSignature(request.body, signature, endpoint.secret, Date.now() + 6 * 60_000)).toBe(false);

    await waitFor('the delivery recorded', async () => (await deliveriesOf(db, endpoint.id))[0]?.status === 'delivered');
    const [delivery] = await deliveriesOf(db, endpoint.id);
    expect(await deliveriesOf(db, endpoint.id)).toHaveLength(1);
    expect(delivery).toMatchObject({ eventId: event.id, attempts: 1, lastStatusCode: 200, lastError: null });
    expect(delivery?.deliveredAt).not.toBeNull();
  });

  it('retries after the receiver fails, until it accepts', async () => {
    receiver.respond = ({ path, count }) => (path === '/flaky' && count < 2 ? 500 : 200);
    const endpoint = await register('/flaky');
    const event = await recordTestEvent(db, { brandId: brand.id });
    await waitFor('three attempts', () => receiver.at('/flaky').length === 3);

    const attempts = receiver.at('/flaky');
    expect(attempts.map((r) => [r.status, eventIdOf(r)])).toEqual([
      [500, event.id],
      [500, event.id],
      [200, event.id],
    ]);
    expect(attempts.every((r) => verifyTesseraSignature(r.body, String(r.headers['tessera-signature']), endpoint.secret))).toBe(true);
    // Retries wait 50 ms, then 100 ms (WEBHOOK_RETRY_BASE_SECONDS = 0.05, doubling).
    expect(attempts[1]!.receivedAt - attempts[0]!.receivedAt).toBeGreaterThanOrEqual(45);
    expect(attempts[2]!.receivedAt - attempts[1]!.receivedAt).toBeGreaterThanOrEqual(95);
    await waitFor('the delivery recorded', async () => (await deliveriesOf(db, endpoint.id))[0]?.status === 'delivered');
    expect((await deliveriesOf(db, endpoint.id))[0]).toMatchObject({ attempts: 3, lastStatusCode: 200, lastError: null });
  });

  it("delivers one booking's events strictly in order, even when the first fails, without holding up another booking's", async () => {
    const booking = crypto.randomUUID();
    const other = crypto.randomUUID();
    // The booking's first event fails until the other booking's event has arrived: it can only succeed if
    // that one was not held up behind its retries, however slow the machine.
    receiver.respond = ({ path, body }) =>
      path === '/ordered' && JSON.parse(body).data.id === booking && JSON.parse(body).type === 'booking.created'
        ? receiver.at('/ordered').some((r) => resourceOf(r) === other)
          ? 200
          : 500
        : 200;
    await register('/ordered');
    const types = [
      'booking.created',
      'booking.confirmed',
      'booking.participants_cancelled',
      'booking.cancelled',
      'booking.refunded',
    ] as const;
    const events: StoredEvent[] = [];
    for (const [i, type] of types.entries()) {
      events.push(await recordTestEvent(db, { brandId: brand.id, type, resourceId: booking, payload: { id: booking, step: i } }));
      if (i === 0) await recordTestEvent(db, { brandId: brand.id, type: 'booking.confirmed', resourceId: other, payload: { id: other } });
    }
    await waitFor('every event of the booking', () => receiver.at('/ordered').filter((r) => r.status === 200).length === 6);

    const ofBooking = receiver.at('/ordered').filter((r) => resourceOf(r) === booking);
    const failed = ofBooking.filter((r) => r.status === 500);
    // First the failed attempts of the first event, then every event once, in order.
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(ofBooking.map((r) => [eventIdOf(r), r.status])).toEqual([
      ...failed.map(() => [events[0]!.id, 500]),
      ...events.map((e) => [e.id, 200]),
    ]);
  });

  it('sends nothing more to a deleted endpoint', async () => {
    receiver.respond = () => 200;
    const gone = await register('/gone');
    await register('/control');
    await recordTestEvent(db, { brandId: brand.id });
    await waitFor('the first event at both', () => receiver.at('/gone').length === 1 && receiver.at('/control').length === 1);
    expect((await t.rest('DELETE', `/v1/brands/${brand.id}/webhooks/${gone.id}`, { key })).status).toBe(200);

    await recordTestEvent(db, { brandId: brand.id });
    await recordTestEvent(db, { brandId: brand.id, type: 'waitlist.offered' });
    await waitFor('the later events at the control endpoint', () => receiver.at('/control').length === 3);
    expect(receiver.at('/gone')).toHaveLength(1);
    expect(await deliveriesOf(db, gone.id)).toHaveLength(1);
  });
});

// A database of its own for the production app below (the module's top level, where setup may await).
const prodDb = await freshDb();
const prodBrand = await createBrand(prodDb);
const prodKey = (await createApiKey(prodDb, { brandId: prodBrand.id })).secret;

describe('the address check before each delivery (DNS rebinding)', () => {
  let resolvesTo = '93.184.216.34';
  const sent: WebhookRequest[] = [];
  let prod: TestApp;

  beforeAll(async () => {
    prod = await startApp(prodDb, {
      production: true,
      webhooks: {
        dispatch: true,
        tickMs: 20,
        retryBaseSeconds: 0.05,
        lookup: async () => [resolvesTo],
        sender: { send: async (request) => (sent.push(request), { status: 204 }) },
      },
    });
    await prod.app.ready();
  });

  it('refuses to send while the host resolves to a private address, and sends once it no longer does', async () => {
    const res = await prod.rest('POST', `/v1/brands/${prodBrand.id}/webhooks`, {
      key: prodKey,
      body: { url: 'https://rebind.partner.test/hook', events: ['*'] },
    });
    expect(res.status).toBe(201);
    resolvesTo = '127.0.0.1';
    const event = await recordTestEvent(prodDb, { brandId: prodBrand.id });
    await waitFor('a refused attempt', async () => ((await deliveriesOf(prodDb, res.body.endpoint.id))[0]?.attempts ?? 0) >= 1);
    expect(sent).toEqual([]);
    expect((await deliveriesOf(prodDb, res.body.endpoint.id))[0]).toMatchObject({
      status: 'pending',
      lastStatusCode: null,
      lastError: 'url host rebind.partner.test resolves to a loopback address (127.0.0.1)',
    });

    resolvesTo = '93.184.216.34';
    await waitFor('the delivery', async () => (await deliveriesOf(prodDb, res.body.endpoint.id))[0]?.status === 'delivered');
    expect(sent.map((r) => [r.url, r.headers['tessera-event-id']])).toEqual([['https://rebind.partner.test/hook', event.id]]);
  });

  it('refuses to send while the host resolves to a benchmarking address (198.18.0.0/15)', async () => {
    resolvesTo = '93.184.216.34';
    const res = await prod.rest('POST', `/v1/brands/${prodBrand.id}/webhooks`, {
      key: prodKey,
      body: { url: 'https://bench.partner.test/hook', events: ['*'] },
    });
    expect(res.status).toBe(201);
    sent.length = 0;
    resolvesTo = '198.18.0.7';
    await recordTestEvent(prodDb, { brandId: prodBrand.id });
    await waitFor('a refused attempt', async () => ((await deliveriesOf(prodDb, res.body.endpoint.id))[0]?.attempts ?? 0) >= 1);
    expect(sent).toEqual([]);
    expect((await deliveriesOf(prodDb, res.body.endpoint.id))[0]).toMatchObject({
      status: 'pending',
      lastError: 'url host bench.partner.test resolves to a benchmarking address (198.18.0.7)',
    });
    resolvesTo = '93.184.216.34';
  });
});

describe('endpoints created outside the API', () => {
  it('are delivered to like any other (factory sanity check)', async () => {
    receiver.respond = () => 200;
    const endpoint = await createWebhookEndpoint(db, brand.id, { url: receiver.url('/factory'), events: ['waitlist.expired'] });
    await recordTestEvent(db, { brandId: brand.id, type: 'waitlist.expired' });
    await waitFor('the delivery', () => receiver.at('/factory').length === 1);
    const [request] = receiver.at('/factory') as [ReceivedWebhook];
    expect(verifyTesseraSignature(request.body, String(request.headers['tessera-signature']), endpoint.secret)).toBe(true);
  });
});
