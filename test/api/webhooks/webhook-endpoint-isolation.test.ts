/**
 * One endpoint that accepts connections and never answers, beside a healthy one, under a burst of
 * events: the healthy one gets every delivery at once, while the silent one never has more than its cap
 * of deliveries in flight (WEBHOOK_ENDPOINT_CONCURRENCY, here 2 of the gateway's 4 places), each cut off
 * at the attempt timeout. Without the cap the silent endpoint's backlog fills every place and the healthy
 * one's deliveries wait a timeout each.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSender } from '../../../src/adapters/webhooks/http-sender.ts';
import type { WebhookSender } from '../../../src/domain/webhooks/settings.ts';
import { startApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createWebhookEndpoint, deliveriesOf, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { startReceiver, waitFor } from '../../support/webhook-receiver.ts';

const T0 = new Date('2026-11-25T12:00:00.000Z');
const TIMEOUT_MS = 3000;
const BURST = 30;
const db = await freshDb();
const brand = await createBrand(db);

/** A TCP server that accepts every connection, reads what comes and never answers; it counts them. */
const silent = { accepted: 0, sockets: new Set<Socket>() };
const silentServer = createServer((socket) => {
  silent.accepted += 1;
  silent.sockets.add(socket);
  socket.on('error', () => {});
  socket.resume();
  socket.on('close', () => silent.sockets.delete(socket));
});
/** The real sender, counting the attempts in flight to each URL (as the gateway sees them: the cap's measure). */
const http = new HttpSender({ allowPrivateAddresses: true });
const inFlight = new Map<string, { now: number; most: number }>();
const sender: WebhookSender = {
  async send(request) {
    const count = inFlight.get(request.url) ?? { now: 0, most: 0 };
    inFlight.set(request.url, count);
    count.now += 1;
    count.most = Math.max(count.most, count.now);
    try {
      return await http.send(request);
    } finally {
      count.now -= 1;
    }
  },
};
let healthy: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
  healthy = await startReceiver();
  // The clock stands still: a failed attempt's retry never comes due, so each silent delivery is tried once.
  await startApp(db, {
    now: () => T0,
    webhooks: { sender, dispatch: true, tickMs: 20, timeoutMs: TIMEOUT_MS, concurrency: 4, endpointConcurrency: 2, leaseMarginMs: 100 },
  });
});
afterAll(async () => {
  for (const socket of silent.sockets) socket.destroy();
  await new Promise((resolve) => silentServer.close(resolve));
  await healthy.close();
});

describe('an endpoint that never answers', () => {
  it('holds at most its cap of places, and the healthy endpoint gets every delivery without waiting for it', async () => {
    const { port } = silentServer.address() as AddressInfo;
    // The silent endpoint is the older one: of each event, its delivery comes first.
    const stuck = await createWebhookEndpoint(db, brand.id, { url: `http://127.0.0.1:${port}/never`, createdAt: T0.toISOString() });
    const stuckInFlight = () => inFlight.get(stuck.url)!;
    await createWebhookEndpoint(db, brand.id, { url: healthy.url('/healthy'), createdAt: T0.toISOString() });

    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < BURST; i += 1) ids.push((await recordTestEvent(db, { brandId: brand.id, at: T0 })).id);
    await waitFor(`all ${BURST} deliveries at the healthy endpoint`, () => healthy.at('/healthy').length >= BURST, 10_000);
    const lagMs = Date.now() - started;

    // Every event once, all of them before the silent endpoint's first attempts ran out.
    expect(
      healthy
        .at('/healthy')
        .map((r) => JSON.parse(r.body).id as string)
        .sort(),
    ).toStrictEqual([...ids].sort());
    expect(lagMs).toBeLessThan(TIMEOUT_MS);
    expect((await deliveriesOf(db, stuck.id)).filter((d) => d.attempts > 0)).toStrictEqual([]);
    expect([silent.accepted, stuckInFlight().now, stuckInFlight().most]).toStrictEqual([2, 2, 2]);

    // Its first two are cut off at the timeout, and the next two take their places: never more than two.
    await waitFor('the silent endpoint to take two more', () => silent.accepted === 4, 3 * TIMEOUT_MS);
    expect(stuckInFlight().most).toBe(2);
    const tried = (await deliveriesOf(db, stuck.id)).filter((d) => d.attempts > 0);
    expect(tried.map((d) => [d.status, d.attempts, d.lastStatusCode, d.lastError])).toStrictEqual([
      ['pending', 1, null, `timed out after ${TIMEOUT_MS} ms`],
      ['pending', 1, null, `timed out after ${TIMEOUT_MS} ms`],
    ]);
    expect(healthy.at('/healthy')).toHaveLength(BURST);
  });
});
