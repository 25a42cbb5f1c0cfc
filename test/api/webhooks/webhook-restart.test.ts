import { portOf } from '../../support/db.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { closeDatabase, openDatabase, type Db } from '../../../src/db/sqlite/client.ts';
import { webhookDeliveries } from '../../../src/db/sqlite/schema/index.ts';
import { recordEvent } from '../../../src/domain/outbox/outbox.ts';
import { verifyTesseraSignature } from '../../../examples/webhook-receiver/verify-signature.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createWebhookEndpoint, deliveriesOf, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { startReceiver, waitFor, type ReceivedWebhook } from '../../support/webhook-receiver.ts';

/** Pending deliveries live in the database file: a server that stops and a new one that starts lose none. */
const dir = mkdtempSync(join(tmpdir(), 'tessera-webhooks-'));
const file = join(dir, 'tessera.sqlite');
let phase: 'down' | 'up' = 'down';
const receiver = await startReceiver(() => (phase === 'down' ? 503 : 200));
const open: Array<{ app: FastifyInstance; db: Db }> = [];

async function startServer(): Promise<{ app: FastifyInstance; db: Db }> {
  const db = openDatabase(file);
  const app = await buildApp({
    db: portOf(db),
    config: { production: false, LOG_LEVEL: 'silent', HOLD_TTL_SECONDS: 900, WAITLIST_OFFER_TTL_SECONDS: 86_400 },
    webhooks: { tickMs: 20, retryBaseSeconds: 0.05, timeoutMs: 1000, leaseMarginMs: 200 },
  });
  await app.ready();
  const server = { app, db };
  open.push(server);
  return server;
}

async function stopServer(server: { app: FastifyInstance; db: Db }) {
  await server.app.close();
  closeDatabase(server.db);
  open.splice(open.indexOf(server), 1);
}

afterAll(async () => {
  for (const server of [...open]) await stopServer(server);
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const idOf = (r: ReceivedWebhook) => JSON.parse(r.body).id as string;
const resourceOf = (r: ReceivedWebhook) => JSON.parse(r.body).data.id as string;

describe('across a restart', () => {
  const setup = openDatabase(file);
  const brand = createBrand(setup);
  const endpoint = createWebhookEndpoint(setup, brand.id, { url: receiver.url('/restart') });
  closeDatabase(setup);

  it('delivers every event queued before the server stopped, in order per booking', async () => {
    const first = await startServer();
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    const events = [
      await recordTestEvent(first.db, { brandId: brand.id, resourceId: a, type: 'booking.created', payload: { id: a } }),
      await recordTestEvent(first.db, { brandId: brand.id, resourceId: b, type: 'booking.created', payload: { id: b } }),
      await recordTestEvent(first.db, { brandId: brand.id, resourceId: a, type: 'booking.confirmed', payload: { id: a } }),
      await recordTestEvent(first.db, { brandId: brand.id, resourceId: a, type: 'booking.cancelled', payload: { id: a } }),
    ];
    await waitFor('a failed attempt before the stop', () => receiver.received.length >= 1);
    await stopServer(first);

    const between = openDatabase(file);
    expect(deliveriesOf(between, endpoint.id).map((d) => d.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    closeDatabase(between);
    expect(receiver.received.every((r) => r.status === 503)).toBe(true);

    phase = 'up';
    const second = await startServer();
    await waitFor('every event delivered', () => deliveriesOf(second.db, endpoint.id).every((d) => d.status === 'delivered'));
    const accepted = receiver.at('/restart').filter((r) => r.status === 200);
    expect(new Set(accepted.map(idOf))).toEqual(new Set(events.map((e) => e.id)));
    expect(accepted.filter((r) => resourceOf(r) === a).map(idOf)).toEqual([events[0]!.id, events[2]!.id, events[3]!.id]);
    expect(accepted.every((r) => verifyTesseraSignature(r.body, String(r.headers['tessera-signature']), endpoint.secret))).toBe(true);
  });

  it('sends again a delivery whose sender died mid-send, once its lease ends', async () => {
    const server = open[0]!;
    const leaseEnds = Date.now() + 400;
    // Queued and leased in one transaction, as a dispatcher that then crashed would have left it.
    const event = await portOf(server.db).transaction(async (tx) => {
      const stored = await recordEvent(tx, {
        brandId: brand.id,
        type: 'booking.failed',
        resourceId: crypto.randomUUID(),
        payload: {},
        at: new Date().toISOString(),
      });
      server.db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date(leaseEnds).toISOString() })
        .where(eq(webhookDeliveries.eventSequence, stored.sequence))
        .run();
      return stored;
    });
    await waitFor('the delivery after the lease', () => receiver.received.some((r) => idOf(r) === event.id), 3000);
    const request = receiver.received.find((r) => idOf(r) === event.id)!;
    expect(request.receivedAt).toBeGreaterThanOrEqual(leaseEnds);
  });
});
