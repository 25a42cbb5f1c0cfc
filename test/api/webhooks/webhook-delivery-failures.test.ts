import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyTesseraSignature } from '../../../examples/webhook-receiver/verify-signature.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createWebhookEndpoint, deliveriesOf, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { startReceiver, waitFor, type ReceivedWebhook } from '../../support/webhook-receiver.ts';

/**
 * Failed attempts on a clock the test moves: retries are due exactly 10 s, then 20 s after a failure,
 * and a delivery still failing past the maximum age (35 s here) is given up.
 */
const T0 = Date.parse('2026-11-25T12:00:00.000Z');
let clock = T0;
const iso = (ms: number) => new Date(ms).toISOString();
const db = await freshDb();
const brand = await createBrand(db);
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver(({ path }) => {
    if (path === '/down') return 503;
    if (path === '/moved') return (res) => res.writeHead(302, { location: receiver.url('/elsewhere') }).end();
    if (path === '/slow') return () => {};
    return 200;
  });
  t = await startApp(db, {
    now: () => new Date(clock),
    webhooks: { dispatch: true, tickMs: 20, retryBaseSeconds: 10, maxAgeSeconds: 35, timeoutMs: 300, leaseMarginMs: 100 },
  });
  await t.app.ready();
});
afterAll(() => receiver.close());

const endpointAt = (path: string) => createWebhookEndpoint(db, brand.id, { url: receiver.url(path) });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('failed deliveries', () => {
  it('retries with doubling waits and gives up past the maximum age', async () => {
    const endpoint = await endpointAt('/down');
    const event = await recordTestEvent(db, { brandId: brand.id, at: new Date(clock) });
    const delivery = async () => (await deliveriesOf(db, endpoint.id))[0]!;
    await waitFor('the first attempt recorded', async () => (await delivery()).attempts === 1);
    expect(await delivery()).toMatchObject({
      status: 'pending',
      lastAttemptAt: iso(T0),
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      nextAttemptAt: iso(T0 + 10_000),
    });
    await pause(150);
    expect(receiver.at('/down')).toHaveLength(1);

    clock = T0 + 10_000;
    await waitFor('the second attempt recorded', async () => (await delivery()).attempts === 2);
    expect(await delivery()).toMatchObject({ status: 'pending', nextAttemptAt: iso(T0 + 30_000) });

    clock = T0 + 30_000;
    await waitFor('the third attempt recorded', async () => (await delivery()).attempts === 3);
    // The next wait (40 s) would end past 35 s after the event: given up.
    expect(await delivery()).toMatchObject({ status: 'failed', lastStatusCode: 503, lastError: 'HTTP 503', deliveredAt: null });
    clock = T0 + 120_000;
    await pause(150);
    const attempts = receiver.at('/down');
    expect(attempts.map((r: ReceivedWebhook) => JSON.parse(r.body).id)).toEqual([event.id, event.id, event.id]);
    // Each attempt is signed at its own time, on the server's clock.
    expect(attempts.map((r) => String(r.headers['tessera-signature']).slice(0, 12))).toEqual([
      `t=${T0 / 1000}`,
      `t=${T0 / 1000 + 10}`,
      `t=${T0 / 1000 + 30}`,
    ]);
    expect(verifyTesseraSignature(attempts[2]!.body, String(attempts[2]!.headers['tessera-signature']), endpoint.secret, T0 + 30_000)).toBe(
      true,
    );
  });

  it('does not follow redirects: a 3xx is a failure', async () => {
    const endpoint = await endpointAt('/moved');
    await recordTestEvent(db, { brandId: brand.id, at: new Date(clock) });
    await waitFor('the attempt recorded', async () => (await deliveriesOf(db, endpoint.id))[0]?.attempts === 1);
    expect((await deliveriesOf(db, endpoint.id))[0]).toMatchObject({
      status: 'pending',
      lastStatusCode: 302,
      lastError: 'HTTP 302 (redirects are not followed)',
    });
    expect(receiver.at('/elsewhere')).toEqual([]);
  });

  it('fails an attempt that gets no answer within the timeout', async () => {
    const endpoint = await endpointAt('/slow');
    await recordTestEvent(db, { brandId: brand.id, at: new Date(clock) });
    await waitFor('the attempt recorded', async () => (await deliveriesOf(db, endpoint.id))[0]?.attempts === 1);
    expect((await deliveriesOf(db, endpoint.id))[0]).toMatchObject({
      status: 'pending',
      lastStatusCode: null,
      lastError: 'timed out after 300 ms',
    });
  });

  it('fails an attempt whose connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const endpoint = await createWebhookEndpoint(db, brand.id, { url: `http://127.0.0.1:${port}/hook` });
    await recordTestEvent(db, { brandId: brand.id, at: new Date(clock) });
    await waitFor('the attempt recorded', async () => (await deliveriesOf(db, endpoint.id))[0]?.attempts === 1);
    expect((await deliveriesOf(db, endpoint.id))[0]).toMatchObject({
      status: 'pending',
      lastStatusCode: null,
      lastError: 'connection refused',
    });
  });
});
