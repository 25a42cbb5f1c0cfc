/**
 * The world of the webhook contract (test/contract/webhooks.test.ts, operations.test.ts), written through
 * the port as the app writes it: endpoints of three brands, 15 events with a pending delivery to each
 * live endpoint subscribed (as `recordEvent` writes them), and deliveries in every state: leased,
 * delivered, failed, retrying, given up with a deleted endpoint, and pending at an endpoint deleted
 * without giving them up. Ids are chosen so that byte order and dictionary order differ ('ep-A2' <
 * 'ep-Gone' < 'ep-a3').
 */
import { createBrand } from '../../fixtures/factories/brands.ts';
import type { EventInsert } from '../../src/domain/outbox/store.ts';
import type { AttemptResult } from '../../src/domain/webhooks/store.ts';
import type { TestDb } from '../support/db.ts';

export const T0 = '2026-03-01T10:00:00.000Z';
export const T0_1 = '2026-03-01T10:00:01.000Z';
export const T0_2 = '2026-03-01T10:00:02.000Z';
export const T0_3 = '2026-03-01T10:00:03.000Z';
export const T1 = '2026-03-01T11:00:00.000Z';
export const T1_250 = '2026-03-01T11:00:00.250Z';
export const T2 = '2026-03-01T12:00:00.000Z';
export const T2_10 = '2026-03-01T12:10:00.000Z';
export const T3 = '2026-03-01T13:00:00.000Z';
export const T4 = '2026-03-01T14:00:00.000Z';
export const T5 = '2026-03-01T15:00:00.000Z';
export const T9 = '2026-03-02T10:00:00.000Z';
export const LATER = '2026-03-05T00:00:00.000Z';

export const ALL_TYPES = ['booking.created', 'booking.confirmed', 'booking.cancelled'];

/** The delivery of event `n` to endpoint `endpointId`: ids sort (byte order) as they are written. */
export const dl = (n: number, endpointId: string) => `d-${String(n).padStart(2, '0')}-${endpointId}`;
export const evt = (n: number) => `evt-${String(n).padStart(2, '0')}`;

/** An attempt's outcome: a 200 at T1, answered 250 ms later, unless `over` says otherwise. */
export const attempt = (over: Partial<AttemptResult> & Pick<AttemptResult, 'status'>): AttemptResult => ({
  attempts: 1,
  attemptedAt: T1,
  finishedAt: T1_250,
  statusCode: 200,
  error: null,
  nextAttemptAt: null,
  ...over,
});

export async function webhooksWorld(db: TestDb) {
  const { database } = db;
  const brandA = await createBrand(db);
  const brandB = await createBrand(db);
  const brandR = await createBrand(db);
  /** The events as written, by number (which is also their sequence: the database is the file's own). */
  const events = new Map<number, EventInsert>();

  const endpoint = (brandId: string, id: string, createdAt: string, eventTypes = ALL_TYPES) =>
    database.webhooks.insertWebhookEndpoint({
      id,
      brandId,
      url: `https://${id}.hooks.test/in`,
      eventTypes,
      secretCiphertext: `sealed-${id}`,
      createdAt,
    });

  /** Event number n (in order) and a pending delivery to each live endpoint subscribed, in id order. */
  const event = (brandId: string, type: string, resourceId: string, at: string) =>
    database.transaction(async (tx) => {
      const n = events.size + 1;
      const payload = { id: resourceId, status: type.split('.')[1], n, nested: { z: true, a: [1, 'two', null] } };
      const written = { id: evt(n), brandId, type, resourceId, payload, createdAt: at };
      await tx.events.insertEvent(written);
      events.set(n, written);
      const subscribed = (await tx.events.liveEndpointsOfBrand(brandId))
        .filter((e) => e.eventTypes.includes(type))
        .map((e) => e.id)
        .sort();
      await tx.events.insertPendingDeliveries(
        subscribed.map((endpointId) => ({ id: dl(n, endpointId), endpointId, eventId: written.id, resourceId, at })),
      );
    });

  // Brand A: ep-A1 and ep-Gone created in the same millisecond (in id order), ep-a3 only for confirmations.
  await endpoint(brandA.id, 'ep-A1', T0);
  await endpoint(brandA.id, 'ep-Gone', T0);
  await endpoint(brandA.id, 'ep-A2', T0_1);
  await endpoint(brandA.id, 'ep-a3', T0_2, ['booking.confirmed']);
  await endpoint(brandA.id, 'ep-Zombie', T0_3);
  await endpoint(brandB.id, 'ep-B1', T0);
  await endpoint(brandR.id, 'ep-R1', T0);
  await endpoint(brandR.id, 'ep-R2', T0);

  await event(brandA.id, 'booking.created', 'r1', T1); // 1: A1, A2, Gone, Zombie
  await event(brandA.id, 'booking.created', 'r2', T1); // 2: same created_at as 1
  await event(brandA.id, 'booking.confirmed', 'r1', T1); // 3: and again; a3 too
  await event(brandA.id, 'booking.created', 'r3', T2); // 4
  await event(brandA.id, 'booking.confirmed', 'r2', T2); // 5: a3 too
  await database.webhooks.deleteWebhookEndpointRow('ep-Gone', T2, 'endpoint deleted');
  await event(brandA.id, 'booking.cancelled', 'r1', T3); // 6: A1, A2, Zombie
  await event(brandA.id, 'booking.confirmed', 'r3', T3); // 7: and a3
  // Deleted without its pending deliveries given up: the dispatcher must still skip them.
  await db.update('webhookEndpoints', { id: 'ep-Zombie' }, { deletedAt: T3 });
  await event(brandB.id, 'booking.created', 'rB', T1); // 8
  await event(brandB.id, 'booking.confirmed', 'rB', T2); // 9
  for (let i = 0; i < 6; i += 1) await event(brandR.id, 'booking.created', `rR${i}`, T1); // 10..15: R1 and R2

  // Leased until T9: ep-A1's later deliveries of r1 wait behind it.
  await db.update('webhookDeliveries', { id: dl(1, 'ep-A1') }, { nextAttemptAt: T9 });
  await database.webhookDispatch.recordAttempt(dl(2, 'ep-A1'), attempt({ status: 'delivered' }));
  await database.webhookDispatch.recordAttempt(
    dl(1, 'ep-A2'),
    attempt({ status: 'pending', statusCode: 500, error: 'HTTP 500', nextAttemptAt: T5 }),
  );
  await database.webhookDispatch.recordAttempt(
    dl(4, 'ep-A2'),
    attempt({ status: 'failed', attempts: 7, statusCode: null, error: 'connect ECONNREFUSED' }),
  );
  // Event 5's deliveries due at different times: ep-a3's (T2) before ep-A1's (T2+10min), against id order.
  await database.webhookDispatch.recordAttempt(
    dl(5, 'ep-A1'),
    attempt({ status: 'pending', attemptedAt: T2, statusCode: 503, error: 'HTTP 503', nextAttemptAt: T2_10 }),
  );

  return { brandA, brandB, brandR, events };
}
