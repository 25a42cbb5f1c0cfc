import { afterAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../../src/domain/outbox/outbox.ts';
import { verifyTesseraSignature } from '../../../examples/webhook-receiver/verify-signature.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createWebhookEndpoint, deliveriesOf, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { startReceiver, waitFor, type ReceivedWebhook } from '../../support/webhook-receiver.ts';

/**
 * Pending deliveries live in the database: a server that stops and a new one that starts on the same
 * database lose none.
 */
const db = await freshDb();
let phase: 'down' | 'up' = 'down';
const receiver = await startReceiver(() => (phase === 'down' ? 503 : 200));
const open: TestApp[] = [];

/** A server on the shared database, its dispatcher running. */
async function startServer(): Promise<TestApp> {
  const server = await startApp(db, {
    webhooks: { dispatch: true, tickMs: 20, retryBaseSeconds: 0.05, timeoutMs: 1000, leaseMarginMs: 200 },
  });
  open.push(server);
  return server;
}

async function stopServer(server: TestApp) {
  await server.app.close();
  open.splice(open.indexOf(server), 1);
}

// Servers stop before the receiver (and the database) go.
afterAll(async () => {
  for (const server of [...open]) await stopServer(server);
  await receiver.close();
});

const idOf = (r: ReceivedWebhook) => JSON.parse(r.body).id as string;
const resourceOf = (r: ReceivedWebhook) => JSON.parse(r.body).data.id as string;

const brand = await createBrand(db);
const endpoint = await createWebhookEndpoint(db, brand.id, { url: receiver.url('/restart') });

describe('across a restart', () => {
  it('delivers every event queued before the server stopped, in order per booking', async () => {
    const first = await startServer();
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    const events = [
      await recordTestEvent(db, { brandId: brand.id, resourceId: a, type: 'booking.created', payload: { id: a } }),
      await recordTestEvent(db, { brandId: brand.id, resourceId: b, type: 'booking.created', payload: { id: b } }),
      await recordTestEvent(db, { brandId: brand.id, resourceId: a, type: 'booking.confirmed', payload: { id: a } }),
      await recordTestEvent(db, { brandId: brand.id, resourceId: a, type: 'booking.cancelled', payload: { id: a } }),
    ];
    await waitFor('a failed attempt before the stop', () => receiver.received.length >= 1);
    await stopServer(first);

    expect((await deliveriesOf(db, endpoint.id)).map((d) => d.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(receiver.received.every((r) => r.status === 503)).toBe(true);

    phase = 'up';
    await startServer();
    await waitFor('every event delivered', async () => (await deliveriesOf(db, endpoint.id)).every((d) => d.status === 'delivered'));
    const accepted = receiver.at('/restart').filter((r) => r.status === 200);
    expect(new Set(accepted.map(idOf))).toEqual(new Set(events.map((e) => e.id)));
    expect(accepted.filter((r) => resourceOf(r) === a).map(idOf)).toEqual([events[0]!.id, events[2]!.id, events[3]!.id]);
    expect(accepted.every((r) => verifyTesseraSignature(r.body, String(r.headers['tessera-signature']), endpoint.secret))).toBe(true);
  });

  it('sends again a delivery whose sender died mid-send, once its lease ends', async () => {
    const leaseEnds = Date.now() + 400;
    // Queued with its next attempt at the end of a lease, as a dispatcher that then crashed would have left it.
    const event = await db.database.transaction((tx) =>
      recordEvent(tx, {
        brandId: brand.id,
        type: 'booking.failed',
        resourceId: crypto.randomUUID(),
        payload: {},
        at: new Date(leaseEnds).toISOString(),
      }),
    );
    await waitFor('the delivery after the lease', () => receiver.received.some((r) => idOf(r) === event.id), 3000);
    const request = receiver.received.find((r) => idOf(r) === event.id)!;
    expect(request.receivedAt).toBeGreaterThanOrEqual(leaseEnds);
  });
});
