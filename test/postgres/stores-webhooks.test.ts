/**
 * The webhook, webhook dispatch, idempotency and operations stores on PostgreSQL, against SQLite's: the
 * same world (built with the SQLite factories, copied into PostgreSQL) answers every call the same on
 * both, writes included (made on both sides, then read back through the stores). Then the
 * compare-and-set leases raced on PostgreSQL across two gateways.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createCutOffRequest } from '../../fixtures/factories/idempotency.ts';
import { createWaitlistEntry } from '../../fixtures/factories/waitlists.ts';
import type { Database, Stores } from '../../src/domain/shared/database.ts';
import type { AttemptResult, DeliveryFilter, DeliveryKey } from '../../src/domain/webhooks/store.ts';
import { closePostgres, migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { postgresDatabase, type DatabaseOf } from '../../src/db/postgres/database.ts';
import type { PostgresStores } from '../../src/db/postgres/store-binding.ts';
import { idempotencyStore } from '../../src/db/postgres/stores/idempotency/idempotency.ts';
import { operationsStore } from '../../src/db/postgres/stores/operations/operations.ts';
import { webhookDispatchStore } from '../../src/db/postgres/stores/webhooks/dispatch.ts';
import { webhooksStore } from '../../src/db/postgres/stores/webhooks/webhooks.ts';
import { webhookDeliveries, webhookEndpoints } from '../../src/db/sqlite/schema/index.ts';
import { freshDb, portOf } from '../support/db.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';
import { copyRows } from '../support/postgres-rows.ts';

type WebhookGroup = Pick<Stores, 'webhookDispatch' | 'webhooks' | 'idempotency' | 'operations'>;

const webhookGroupStores: PostgresStores<WebhookGroup> = {
  webhookDispatch: webhookDispatchStore,
  webhooks: webhooksStore,
  idempotency: idempotencyStore,
  operations: operationsStore,
};

const T0 = '2026-03-01T10:00:00.000Z';
const T0_1 = '2026-03-01T10:00:01.000Z';
const T0_2 = '2026-03-01T10:00:02.000Z';
const T0_3 = '2026-03-01T10:00:03.000Z';
const T1 = '2026-03-01T11:00:00.000Z';
const T2 = '2026-03-01T12:00:00.000Z';
const T2_10 = '2026-03-01T12:10:00.000Z';
const T3 = '2026-03-01T13:00:00.000Z';
const T4 = '2026-03-01T14:00:00.000Z';
const T5 = '2026-03-01T15:00:00.000Z';
const T9 = '2026-03-02T10:00:00.000Z';
const LATER = '2026-03-05T00:00:00.000Z';

const ALL_TYPES = ['booking.created', 'booking.confirmed', 'booking.cancelled'];

/** The delivery of event `n` to endpoint `endpointId`: ids sort (byte order) as they are written. */
const dl = (n: number, endpointId: string) => `d-${String(n).padStart(2, '0')}-${endpointId}`;
const evt = (n: number) => `evt-${String(n).padStart(2, '0')}`;

const attempt = (over: Partial<AttemptResult> & Pick<AttemptResult, 'status'>): AttemptResult => ({
  attempts: 1,
  attemptedAt: T1,
  finishedAt: '2026-03-01T11:00:00.250Z',
  statusCode: 200,
  error: null,
  nextAttemptAt: null,
  ...over,
});

describePostgres('PostgreSQL webhook, dispatch, idempotency and operations stores', () => {
  const target = freshPostgresDatabase();
  const emptyTarget = freshPostgresDatabase();
  const world = freshDb();
  const sq: Database = portOf(world);
  const brandA = createBrand(world);
  const brandB = createBrand(world);
  const brandR = createBrand(world);
  let events = 0;
  const pools: PgDb[] = [];
  let pg: DatabaseOf<WebhookGroup>;
  let gateways: Array<DatabaseOf<WebhookGroup>> = [];

  /** `call` on SQLite, then on PostgreSQL: the answers are the same; PostgreSQL's is returned. */
  async function both<T>(call: (stores: WebhookGroup) => Promise<T>): Promise<T> {
    const expected = await call(sq);
    const actual = await call(pg);
    expect(actual).toStrictEqual(expected);
    return actual;
  }

  const endpoint = (brandId: string, id: string, createdAt: string, eventTypes = ALL_TYPES) =>
    sq.webhooks.insertWebhookEndpoint({
      id,
      brandId,
      url: `https://${id}.hooks.test/in`,
      eventTypes,
      secretCiphertext: `sealed-${id}`,
      createdAt,
    });

  /** Event number n (in order) and a pending delivery to each live endpoint subscribed, as recordEvent writes them. */
  const event = (brandId: string, type: string, resourceId: string, at: string) =>
    sq.transaction(async (tx) => {
      events += 1;
      const n = events;
      const payload = { id: resourceId, status: type.split('.')[1], n, nested: { z: true, a: [1, 'two', null] } };
      const row = await tx.events.insertEvent({ id: evt(n), brandId, type, resourceId, payload, createdAt: at });
      const subscribed = (await tx.events.liveEndpointsOfBrand(brandId))
        .filter((e) => e.eventTypes.includes(type))
        .map((e) => e.id)
        .sort();
      await tx.events.insertPendingDeliveries(
        subscribed.map((endpointId) => ({ id: dl(n, endpointId), endpointId, eventSequence: row.sequence, resourceId, at })),
      );
      return row;
    });

  beforeAll(async () => {
    // Brand A: ep-A1 and ep-Gone created in the same millisecond (in id order), ep-a3 only for confirmations.
    await endpoint(brandA.id, 'ep-A1', T0);
    await endpoint(brandA.id, 'ep-Gone', T0);
    await endpoint(brandA.id, 'ep-A2', T0_1);
    await endpoint(brandA.id, 'ep-a3', T0_2, ['booking.confirmed']);
    await endpoint(brandA.id, 'ep-Zombie', T0_3);
    await endpoint(brandB.id, 'ep-B1', T0);
    await endpoint(brandR.id, 'ep-R1', T0);
    await endpoint(brandR.id, 'ep-R2', T0);

    await event(brandA.id, 'booking.created', 'r1', T1); // 1
    await event(brandA.id, 'booking.created', 'r2', T1); // 2: same created_at as 1
    await event(brandA.id, 'booking.confirmed', 'r1', T1); // 3: and again
    await event(brandA.id, 'booking.created', 'r3', T2); // 4
    await event(brandA.id, 'booking.confirmed', 'r2', T2); // 5
    await sq.webhooks.deleteWebhookEndpointRow('ep-Gone', T2, 'endpoint deleted');
    await event(brandA.id, 'booking.cancelled', 'r1', T3); // 6
    await event(brandA.id, 'booking.confirmed', 'r3', T3); // 7
    // Deleted without its pending deliveries given up: the dispatcher must still skip them.
    world.update(webhookEndpoints).set({ deletedAt: T3 }).where(eq(webhookEndpoints.id, 'ep-Zombie')).run();
    await event(brandB.id, 'booking.created', 'rB', T1); // 8
    await event(brandB.id, 'booking.confirmed', 'rB', T2); // 9
    for (let i = 0; i < 6; i += 1) await event(brandR.id, 'booking.created', `rR${i}`, T1); // 10..15

    // Leased until T9: ep-A1's later deliveries of r1 wait behind it.
    world
      .update(webhookDeliveries)
      .set({ nextAttemptAt: T9 })
      .where(eq(webhookDeliveries.id, dl(1, 'ep-A1')))
      .run();
    await sq.webhookDispatch.recordAttempt(dl(2, 'ep-A1'), attempt({ status: 'delivered' }));
    await sq.webhookDispatch.recordAttempt(
      dl(1, 'ep-A2'),
      attempt({ status: 'pending', statusCode: 500, error: 'HTTP 500', nextAttemptAt: T5 }),
    );
    await sq.webhookDispatch.recordAttempt(
      dl(4, 'ep-A2'),
      attempt({ status: 'failed', attempts: 7, statusCode: null, error: 'connect ECONNREFUSED' }),
    );
    // Event 5's deliveries due at different times: ep-a3's (T2) before ep-A1's (T2+10min), against id order.
    await sq.webhookDispatch.recordAttempt(
      dl(5, 'ep-A1'),
      attempt({ status: 'pending', attemptedAt: T2, statusCode: 503, error: 'HTTP 503', nextAttemptAt: T2_10 }),
    );

    // Idempotency records: answered, running, running from before leases (no lease), old, other keys.
    const record = async (apiKeyId: string, key: string, createdAt: string, answer?: string) => {
      await sq.idempotency.insertRunningRecord({ apiKeyId, key, requestHash: `h-${key}`, leaseExpiresAt: T2, createdAt });
      if (answer) await sq.idempotency.completeRecord(apiKeyId, key, 201, answer);
    };
    await record('key-1', 'a', T1, 'sealed-a');
    await record('key-1', 'B', T1, 'sealed-B');
    await record('key-1', 'c', T1);
    await record('key-1', 'é', T1, 'sealed-é');
    await record('key-1', 'Z', T1, 'sealed-Z');
    await record('key-1', 'old', '2026-02-01T00:00:00.000Z', 'sealed-old');
    await record('key-0', 'z', T2, 'sealed-z');
    await record('key-2', 'a', T3, 'sealed-2a');
    createCutOffRequest(world, { apiKeyId: 'key-1', key: 'd', url: '/v1/bookings', body: '{}', at: new Date(T1), leaseExpiresAt: null });

    // Queues: two bookings holding places, one waitlist offer.
    const { experience } = createExperience(world, brandA.id);
    const session = createSession(world, experience, { capacity: 10 });
    createBooking(world, { brandId: brandA.id, session, status: 'processing' });
    createBooking(world, { brandId: brandA.id, session, status: 'processing' });
    createBooking(world, { brandId: brandA.id, session, status: 'confirmed' });
    const waitlist = createWaitlist(world, experience.id);
    createWaitlistEntry(world, { waitlist, session, brandId: brandA.id, position: 1, status: 'offered' });
    createWaitlistEntry(world, { waitlist, session, brandId: brandA.id, position: 2 });

    const [first, second] = [openPostgres(target.url(), { poolSize: 12 }), openPostgres(target.url(), { poolSize: 12 })];
    pools.push(first, second);
    await migratePostgres(first);
    await copyRows(world, first);
    gateways = [postgresDatabase(first, webhookGroupStores), postgresDatabase(second, webhookGroupStores)];
    pg = gateways[0]!;
  });
  afterAll(() => Promise.all(pools.map((pool) => closePostgres(pool))));

  const pairs = (due: Array<{ endpointId: string; event: { id: string } }>) =>
    due.filter((d) => d.endpointId !== 'ep-R1' && d.endpointId !== 'ep-R2').map((d) => `${d.event.id}>${d.endpointId}`);

  describe('webhook dispatch', () => {
    it('finds the same due deliveries at every moment and limit: one per endpoint and resource, in event order', async () => {
      for (const now of [T0, T1, T2, T3, T5, T9, LATER]) {
        for (const limit of [1, 2, 3, 4, 5, 8, 100]) await both((s) => s.webhookDispatch.findDueDeliveries(now, limit));
      }
      expect(pairs(await pg.webhookDispatch.findDueDeliveries(T0, 100))).toEqual([]);
      expect(pairs(await pg.webhookDispatch.findDueDeliveries(T1, 100))).toEqual(['evt-02>ep-A2', 'evt-03>ep-a3', 'evt-08>ep-B1']);
      expect(pairs(await pg.webhookDispatch.findDueDeliveries(T3, 100))).toEqual([
        'evt-02>ep-A2',
        'evt-03>ep-a3',
        'evt-04>ep-A1',
        'evt-05>ep-a3',
        'evt-05>ep-A1',
        'evt-07>ep-A2',
        'evt-07>ep-a3',
        'evt-08>ep-B1',
      ]);
      // Once its retry is due, ep-A2's r1 goes first; after the lease, ep-A1's r1 delivery is due again
      // (after ep-A2's, due earlier: SQLite's order of ties, from its scan of the due index).
      expect(pairs(await pg.webhookDispatch.findDueDeliveries(T5, 2))).toEqual(['evt-01>ep-A2', 'evt-02>ep-A2']);
      expect(pairs(await pg.webhookDispatch.findDueDeliveries(LATER, 2))).toEqual(['evt-01>ep-A2', 'evt-01>ep-A1']);
      const [first] = await pg.webhookDispatch.findDueDeliveries(T3, 1);
      expect(first).toStrictEqual({
        id: dl(2, 'ep-A2'),
        attempts: 0,
        createdAt: T1,
        nextAttemptAt: T1,
        endpointId: 'ep-A2',
        url: 'https://ep-A2.hooks.test/in',
        secretCiphertext: 'sealed-ep-A2',
        event: {
          id: evt(2),
          type: 'booking.created',
          createdAt: T1,
          payload: { id: 'r2', status: 'created', n: 2, nested: { z: true, a: [1, 'two', null] } },
        },
      });
    });

    it('claims what is due in the order it is due, with the lease it is given, and records attempts, the same on both', async () => {
      const claimed = await both((s) => s.webhookDispatch.claimDueDeliveries(T3, 5, T9));
      expect(pairs(claimed)).toEqual(['evt-02>ep-A2', 'evt-03>ep-a3', 'evt-04>ep-A1', 'evt-05>ep-a3', 'evt-05>ep-A1']);
      expect(claimed.map((d) => d.nextAttemptAt)).toEqual([T9, T9, T9, T9, T9]);
      // Leased: no longer due, and still in the way of the same resource's later events.
      expect(pairs(await both((s) => s.webhookDispatch.findDueDeliveries(T3, 100)))).toEqual([
        'evt-07>ep-A2',
        'evt-07>ep-a3',
        'evt-08>ep-B1',
      ]);
      expect(await both((s) => s.webhookDispatch.claimDueDeliveries(T0, 5, T9))).toEqual([]);

      await both((s) => s.webhookDispatch.recordAttempt(dl(4, 'ep-A1'), attempt({ status: 'delivered', attemptedAt: T3, finishedAt: T3 })));
      // Given up on already: an attempt's outcome changes nothing.
      await both((s) => s.webhookDispatch.recordAttempt(dl(4, 'ep-A2'), attempt({ status: 'delivered' })));
      // Pending without a next attempt keeps the one it had.
      await both((s) =>
        s.webhookDispatch.recordAttempt(dl(8, 'ep-B1'), attempt({ status: 'pending', statusCode: null, error: 'timeout', attempts: 2 })),
      );
      await both((s) => s.webhookDispatch.recordAttempt(dl(3, 'ep-a3'), attempt({ status: 'failed', error: 'too old', statusCode: 410 })));

      const log = await both((s) => s.webhooks.findDeliveryPage({ brandId: brandA.id }, null, 100));
      await both((s) => s.webhooks.findDeliveryPage({ brandId: brandB.id }, null, 100));
      expect(log.find((row) => row.id === dl(4, 'ep-A1'))).toMatchObject({ status: 'delivered', deliveredAt: T3, lastAttemptAt: T3 });
      expect(log.find((row) => row.id === dl(4, 'ep-A2'))).toMatchObject({ status: 'failed', attempts: 7, deliveredAt: null });
      expect(log.find((row) => row.id === dl(5, 'ep-A1'))).toMatchObject({ status: 'pending', nextAttemptAt: T9, lastStatusCode: 503 });
      const due = await both((s) => s.webhookDispatch.findDueDeliveries(T3, 100));
      expect(pairs(due)).toEqual(['evt-07>ep-A1', 'evt-07>ep-A2', 'evt-07>ep-a3', 'evt-08>ep-B1']);
    });
  });

  describe('webhook endpoints and the delivery log', () => {
    it('lists live endpoints oldest first, finds any endpoint, and inserts one, the same on both', async () => {
      const live = await both((s) => s.webhooks.liveWebhookEndpoints(brandA.id));
      expect(live.map((e) => e.id)).toEqual(['ep-A1', 'ep-A2', 'ep-a3']);
      await both((s) => s.webhooks.liveWebhookEndpoints(brandB.id));
      expect(await both((s) => s.webhooks.liveWebhookEndpoints('no-such-brand'))).toEqual([]);
      for (const id of ['ep-A1', 'ep-Gone', 'ep-Zombie', 'no-such-endpoint']) await both((s) => s.webhooks.findWebhookEndpoint(id));
      expect(await pg.webhooks.findWebhookEndpoint('ep-Gone')).toMatchObject({ deletedAt: T2, eventTypes: ALL_TYPES, createdAt: T0 });

      const inserted = await both((s) =>
        s.webhooks.insertWebhookEndpoint({
          id: 'ep-B2',
          brandId: brandB.id,
          url: 'https://b2.hooks.test/',
          eventTypes: ['booking.refunded', 'booking.created'],
          secretCiphertext: 'sealed-ep-B2',
          createdAt: T0,
        }),
      );
      expect(inserted).toStrictEqual({
        id: 'ep-B2',
        brandId: brandB.id,
        url: 'https://b2.hooks.test/',
        eventTypes: ['booking.refunded', 'booking.created'],
        secretCiphertext: 'sealed-ep-B2',
        createdAt: T0,
        deletedAt: null,
      });
      await both((s) =>
        s.webhooks.insertWebhookEndpoint({
          id: 'ep-B0',
          brandId: brandB.id,
          url: 'https://b0.hooks.test/',
          eventTypes: ['booking.created'],
          secretCiphertext: 'sealed-ep-B0',
          createdAt: T1,
          deletedAt: T2,
        }),
      );
      await both((s) => s.webhooks.insertWebhookEndpoint({ ...inserted, id: 'ep-B3', createdAt: T0_1, deletedAt: undefined }));
      // ep-B1 and ep-B2 share a millisecond, written in id order.
      expect((await both((s) => s.webhooks.liveWebhookEndpoints(brandB.id))).map((e) => e.id)).toEqual(['ep-B1', 'ep-B2', 'ep-B3']);
      await expect(pg.webhooks.insertWebhookEndpoint({ ...inserted })).rejects.toThrow();
      await expect(sq.webhooks.insertWebhookEndpoint({ ...inserted })).rejects.toThrow();
    });

    it('lists endpoints created in the same millisecond in the order they were written, not by id, the same on both', async () => {
      const brand = 'brand-ties';
      const row = (id: string) => ({
        id,
        brandId: brandA.id,
        url: `https://${id}.test/`,
        eventTypes: [],
        secretCiphertext: id,
        createdAt: T4,
      });
      for (const side of [sq, pg]) {
        await side.webhooks.insertWebhookEndpoint(row(`${brand}-y`));
        await side.webhooks.insertWebhookEndpoint(row(`${brand}-x`));
      }
      const live = await both((side) => side.webhooks.liveWebhookEndpoints(brandA.id));
      expect(live.map((e) => e.id).filter((id) => id.startsWith(brand))).toEqual([`${brand}-y`, `${brand}-x`]);
      for (const side of [sq, pg])
        for (const id of [`${brand}-x`, `${brand}-y`]) await side.webhooks.deleteWebhookEndpointRow(id, T4, 'test');
    });

    it('pages the delivery log newest first and counts it, the same on both, whatever the filter and page size', async () => {
      const filters: DeliveryFilter[] = [
        { brandId: brandA.id },
        { brandId: brandA.id, endpointId: null, status: null },
        { brandId: brandA.id, endpointId: 'ep-A1' },
        { brandId: brandA.id, endpointId: 'ep-Gone' },
        { brandId: brandA.id, status: 'pending' },
        { brandId: brandA.id, status: 'failed' },
        { brandId: brandA.id, endpointId: 'ep-a3', status: 'pending' },
        { brandId: brandA.id, endpointId: 'ep-B1' }, // another brand's endpoint: nothing
        { brandId: brandB.id },
        { brandId: 'no-such-brand' },
      ];
      for (const filter of filters) {
        await both((s) => s.webhooks.countDeliveries(filter, null));
        for (const limit of [1, 2, 3, 7]) {
          let after: DeliveryKey | null = null;
          for (let pages = 0; pages < 100; pages += 1) {
            const page = await both((s) => s.webhooks.findDeliveryPage(filter, after, limit));
            await both((s) => s.webhooks.countDeliveries(filter, after));
            if (page.length < limit) break;
            after = { eventSequence: page[limit - 1]!.eventSequence, id: page[limit - 1]!.id };
            await both((s) => s.webhooks.countDeliveries(filter, after));
          }
        }
        // Keys that are no delivery's: between two of one event, before all, after all.
        for (const key of [
          { eventSequence: 5, id: 'd-05-ep-B' },
          { eventSequence: 3, id: 'd-03-ep-Gonf' },
          { eventSequence: 0, id: '' },
          { eventSequence: 1_000_000, id: 'zzz' },
        ]) {
          await both((s) => s.webhooks.findDeliveryPage(filter, key, 4));
          await both((s) => s.webhooks.countDeliveries(filter, key));
        }
      }

      const page = await pg.webhooks.findDeliveryPage({ brandId: brandA.id }, { eventSequence: 5, id: dl(5, 'ep-Gone') }, 4);
      expect(page.map((row) => row.id)).toEqual([dl(5, 'ep-A2'), dl(5, 'ep-A1'), dl(4, 'ep-Zombie'), dl(4, 'ep-Gone')]);
      expect(page[0]).toStrictEqual({
        id: dl(5, 'ep-A2'),
        endpointId: 'ep-A2',
        eventSequence: 5,
        resourceId: 'r2',
        status: 'pending',
        attempts: 0,
        nextAttemptAt: T2,
        lastAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        createdAt: T2,
        deliveredAt: null,
        eventId: evt(5),
        eventType: 'booking.confirmed',
      });
      // Brand A: 4 + 4 + 5 + 4 + 5 + 3 + 4 deliveries; the key itself counts as "before" (at or before).
      expect(await pg.webhooks.countDeliveries({ brandId: brandA.id }, null)).toEqual({ total: 29, before: 0 });
      expect(await pg.webhooks.countDeliveries({ brandId: brandA.id }, { eventSequence: 5, id: dl(5, 'ep-Gone') })).toEqual({
        total: 29,
        before: 10,
      });
    });

    it('deletes an endpoint once, giving up its pending deliveries and keeping its log, the same on both', async () => {
      await both((s) => s.webhooks.deleteWebhookEndpointRow('ep-A2', T4, 'endpoint deleted'));
      await both((s) => s.webhooks.deleteWebhookEndpointRow('ep-A2', T5, 'deleted again'));
      await both((s) => s.webhooks.deleteWebhookEndpointRow('no-such-endpoint', T5, 'nothing'));
      expect(await both((s) => s.webhooks.findWebhookEndpoint('ep-A2'))).toMatchObject({ deletedAt: T4 });
      const log = await both((s) => s.webhooks.findDeliveryPage({ brandId: brandA.id, endpointId: 'ep-A2' }, null, 100));
      expect(log.map((row) => [row.id, row.status, row.lastError])).toEqual([
        [dl(7, 'ep-A2'), 'failed', 'endpoint deleted'],
        [dl(6, 'ep-A2'), 'failed', 'endpoint deleted'],
        [dl(5, 'ep-A2'), 'failed', 'endpoint deleted'],
        [dl(4, 'ep-A2'), 'failed', 'connect ECONNREFUSED'],
        [dl(3, 'ep-A2'), 'failed', 'endpoint deleted'],
        [dl(2, 'ep-A2'), 'failed', 'endpoint deleted'],
        [dl(1, 'ep-A2'), 'failed', 'endpoint deleted'],
      ]);
      await both((s) => s.webhooks.liveWebhookEndpoints(brandA.id));
      await both((s) => s.webhookDispatch.findDueDeliveries(LATER, 100));
      await both((s) => s.webhooks.countDeliveries({ brandId: brandA.id, status: 'failed' }, null));
    });

    it('pages sealed secrets by id (byte order, deleted endpoints too) and swaps one only while it is the value read', async () => {
      const all = await both((s) => s.webhooks.sealedSecretsPage(null, 1000));
      expect(all.map((row) => row.id)).toEqual([...all.map((row) => row.id)].sort());
      expect(all.map((row) => row.id)).toContain('ep-Gone');
      for (const limit of [1, 2, 5]) {
        let after: string | null = null;
        for (;;) {
          const page = await both((s) => s.webhooks.sealedSecretsPage(after, limit));
          if (page.length < limit) break;
          after = page[limit - 1]!.id;
        }
      }
      for (const after of ['', 'ep-B', 'ep-a', 'zzz']) await both((s) => s.webhooks.sealedSecretsPage(after, 3));
      expect(await both((s) => s.webhooks.sealedSecretsPage('ep-A2', 2))).toEqual([
        { id: 'ep-B0', secretCiphertext: 'sealed-ep-B0' },
        { id: 'ep-B1', secretCiphertext: 'sealed-ep-B1' },
      ]);
      expect(await both((s) => s.webhooks.replaceSealedSecret('ep-A1', 'sealed-ep-A2', 'new'))).toBe(false);
      expect(await both((s) => s.webhooks.replaceSealedSecret('ep-A1', 'sealed-ep-A1', 'resealed-ep-A1'))).toBe(true);
      expect(await both((s) => s.webhooks.replaceSealedSecret('ep-A1', 'sealed-ep-A1', 'again'))).toBe(false);
      expect(await both((s) => s.webhooks.replaceSealedSecret('no-such-endpoint', 'x', 'y'))).toBe(false);
      expect(await both((s) => s.webhooks.findWebhookEndpoint('ep-A1'))).toMatchObject({ secretCiphertext: 'resealed-ep-A1' });
    });
  });

  describe('idempotency records', () => {
    const keys: Array<[string, string]> = [
      ['key-1', 'a'],
      ['key-1', 'B'],
      ['key-1', 'c'],
      ['key-1', 'd'],
      ['key-1', 'é'],
      ['key-1', 'Z'],
      ['key-1', 'old'],
      ['key-0', 'z'],
      ['key-2', 'a'],
      ['key-1', 'missing'],
    ];
    const readAll = async () => {
      for (const [apiKeyId, key] of keys) await both((s) => s.idempotency.findIdempotencyRecord(apiKeyId, key));
    };

    it('finds records and pages stored answers in key order (byte order), the same on both', async () => {
      await readAll();
      expect(await pg.idempotency.findIdempotencyRecord('key-1', 'c')).toStrictEqual({
        apiKeyId: 'key-1',
        key: 'c',
        requestHash: 'h-c',
        state: 'running',
        responseStatus: null,
        responseBody: null,
        leaseExpiresAt: T2,
        createdAt: T1,
      });
      expect(await pg.idempotency.findIdempotencyRecord('key-1', 'd')).toMatchObject({ state: 'running', leaseExpiresAt: null });
      const answers = await both((s) => s.idempotency.sealedAnswersPage(null, 100));
      expect(answers.map((row) => `${row.apiKeyId}/${row.key}`)).toEqual([
        'key-0/z',
        'key-1/B',
        'key-1/Z',
        'key-1/a',
        'key-1/old',
        'key-1/é',
        'key-2/a',
      ]);
      for (const limit of [1, 2, 3]) {
        let after: { apiKeyId: string; key: string } | null = null;
        for (;;) {
          const page = await both((s) => s.idempotency.sealedAnswersPage(after, limit));
          if (page.length < limit) break;
          after = { apiKeyId: page[limit - 1]!.apiKeyId, key: page[limit - 1]!.key };
        }
      }
      for (const after of [
        { apiKeyId: 'key-1', key: '' },
        { apiKeyId: 'key-1', key: 'b' },
        { apiKeyId: 'key-1', key: 'zzz' },
        { apiKeyId: 'key-', key: 'zzz' },
        { apiKeyId: 'key-9', key: '' },
      ]) {
        await both((s) => s.idempotency.sealedAnswersPage(after, 3));
      }
    });

    it('inserts, takes over, completes, deletes and swaps records only as their conditions allow, the same on both', async () => {
      const row = { apiKeyId: 'key-3', key: 'new', requestHash: 'h-new', leaseExpiresAt: T3, createdAt: T2 };
      await both((s) => s.idempotency.insertRunningRecord(row));
      await expect(pg.idempotency.insertRunningRecord(row)).rejects.toThrow();
      await expect(sq.idempotency.insertRunningRecord(row)).rejects.toThrow();
      expect(await both((s) => s.idempotency.findIdempotencyRecord('key-3', 'new'))).toMatchObject({
        state: 'running',
        leaseExpiresAt: T3,
      });

      expect(await both((s) => s.idempotency.takeOverRecord('key-3', 'new', T2, T4))).toBe(false); // not its lease
      expect(await both((s) => s.idempotency.takeOverRecord('key-3', 'new', null, T4))).toBe(false);
      expect(await both((s) => s.idempotency.takeOverRecord('key-3', 'new', T3, T4))).toBe(true);
      expect(await both((s) => s.idempotency.takeOverRecord('key-3', 'new', T3, T5))).toBe(false); // taken over already
      expect(await both((s) => s.idempotency.takeOverRecord('key-1', 'd', null, T4))).toBe(true); // no lease yet
      expect(await both((s) => s.idempotency.takeOverRecord('key-1', 'a', null, T4))).toBe(false); // completed
      expect(await both((s) => s.idempotency.takeOverRecord('key-1', 'missing', null, T4))).toBe(false);

      // The run that was taken over no longer owns it; the new one does.
      await both((s) => s.idempotency.deleteRunningRecord('key-3', 'new', T3));
      expect(await both((s) => s.idempotency.findIdempotencyRecord('key-3', 'new'))).toMatchObject({ leaseExpiresAt: T4 });
      await both((s) => s.idempotency.deleteRunningRecord('key-3', 'new', T4));
      expect(await both((s) => s.idempotency.findIdempotencyRecord('key-3', 'new'))).toBeUndefined();
      await both((s) => s.idempotency.deleteRunningRecord('key-1', 'a', T2)); // completed: stays

      await both((s) => s.idempotency.completeRecord('key-1', 'd', 409, 'sealed-d'));
      await both((s) => s.idempotency.completeRecord('key-1', 'd', 201, 'sealed-later'));
      await both((s) => s.idempotency.completeRecord('key-1', 'missing', 201, 'x'));
      expect(await both((s) => s.idempotency.findIdempotencyRecord('key-1', 'd'))).toMatchObject({
        state: 'completed',
        responseStatus: 409,
        responseBody: 'sealed-d',
        leaseExpiresAt: null,
      });

      expect(await both((s) => s.idempotency.replaceSealedAnswer('key-1', 'a', 'sealed-B', 'x'))).toBe(false);
      expect(await both((s) => s.idempotency.replaceSealedAnswer('key-1', 'a', 'sealed-a', 'resealed-a'))).toBe(true);
      expect(await both((s) => s.idempotency.replaceSealedAnswer('key-1', 'a', 'sealed-a', 'again'))).toBe(false);
      expect(await both((s) => s.idempotency.replaceSealedAnswer('key-1', 'c', 'sealed-c', 'x'))).toBe(false); // no answer

      await both((s) => s.idempotency.deleteRecordsBefore(T1)); // strictly before: only 'old'
      await readAll();
      expect(await pg.idempotency.findIdempotencyRecord('key-1', 'old')).toBeUndefined();
      expect(await pg.idempotency.findIdempotencyRecord('key-1', 'a')).toBeDefined();
      await both((s) => s.idempotency.deleteRecordsBefore(T2));
      await readAll();
      await both((s) => s.idempotency.sealedAnswersPage(null, 100));
      expect((await pg.idempotency.sealedAnswersPage(null, 100)).map((row) => `${row.apiKeyId}/${row.key}`)).toEqual([
        'key-0/z',
        'key-2/a',
      ]);
    });
  });

  describe('operations', () => {
    it('answers the same queue sizes, newest sequence and event counts on both', async () => {
      await both((s) => s.operations.pingDatabase());
      expect(await both((s) => s.operations.migrationsCurrent())).toBe(true);
      const sizes = await both((s) => s.operations.queueSizes());
      const pending = await pg.webhooks.countDeliveries({ brandId: brandA.id, status: 'pending' }, null);
      expect(sizes).toMatchObject({ holdsActive: 2, waitlistOffersActive: 1 });
      expect(sizes.webhookDeliveriesPending).toBeGreaterThan(pending.total);
      expect(await both((s) => s.operations.newestEventSequence())).toBe(15);
      for (const after of [0, 3, 7, 14, 15, 99]) await both((s) => s.operations.eventCountsAfter(after));
      expect(await pg.operations.eventCountsAfter(7)).toStrictEqual([
        { type: 'booking.confirmed', n: 1, newest: 9 },
        { type: 'booking.created', n: 7, newest: 15 },
      ]);
      expect(await pg.operations.eventCountsAfter(15)).toEqual([]);
    });

    it('answers an empty database as SQLite does, and knows whether it is migrated', async () => {
      const bare = openPostgres(emptyTarget.url(), { poolSize: 2 });
      const empty = postgresDatabase(bare, webhookGroupStores);
      const sqEmpty = portOf(freshDb());
      try {
        await empty.operations.pingDatabase();
        expect(await empty.operations.migrationsCurrent()).toBe(false);
        await migratePostgres(bare);
        expect(await empty.operations.migrationsCurrent()).toBe(true);
        expect(await empty.operations.queueSizes()).toStrictEqual(await sqEmpty.operations.queueSizes());
        expect(await empty.operations.queueSizes()).toStrictEqual({
          holdsActive: 0,
          waitlistOffersActive: 0,
          webhookDeliveriesPending: 0,
          webhookDeliveriesFailed: 0,
        });
        expect(await empty.operations.newestEventSequence()).toBe(0);
        expect(await empty.operations.eventCountsAfter(0)).toStrictEqual(await sqEmpty.operations.eventCountsAfter(0));
        expect(await empty.webhookDispatch.findDueDeliveries(LATER, 10)).toEqual([]);
        expect(await empty.webhooks.countDeliveries({ brandId: 'x' }, { eventSequence: 1, id: 'x' })).toEqual({ total: 0, before: 0 });
        expect(await empty.idempotency.sealedAnswersPage(null, 10)).toEqual([]);
      } finally {
        await empty.close();
      }
      await expect(empty.operations.pingDatabase()).rejects.toThrow();
    });
  });

  describe('races on PostgreSQL, across two gateways', () => {
    const across = <T>(count: number, work: (db: DatabaseOf<WebhookGroup>, i: number) => Promise<T>) =>
      Promise.all(Array.from({ length: count }, (_, i) => work(gateways[i % 2]!, i)));
    const raceLog = () => pg.webhooks.findDeliveryPage({ brandId: brandR.id }, null, 100);

    it('claims each due delivery for exactly one of 10 racing claims on two gateways', async () => {
      const dueBefore = (await pg.webhookDispatch.findDueDeliveries(T3, 1000)).map((d) => d.id);
      expect(dueBefore.length).toBeGreaterThan(8);
      const claims = await across(10, (db, i) => db.webhookDispatch.claimDueDeliveries(T3, 2, `2026-03-04T00:00:0${i}.000Z`));
      const claimed = claims.flat().map((d) => d.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed).toHaveLength(Math.min(20, dueBefore.length));
      const dueAfter = (await pg.webhookDispatch.findDueDeliveries(T3, 1000)).map((d) => d.id);
      expect([...claimed, ...dueAfter].sort()).toEqual([...dueBefore].sort());
      // Each with the lease its own claim gave it.
      const log = await raceLog();
      claims.forEach((claim, i) => {
        for (const delivery of claim) {
          const row = log.find((r) => r.id === delivery.id);
          if (row) expect(row.nextAttemptAt).toBe(`2026-03-04T00:00:0${i}.000Z`);
        }
      });
    });

    it('passes over a due delivery whose row another transaction holds, instead of waiting for it', async () => {
      const due = await pg.webhookDispatch.findDueDeliveries(LATER, 1000);
      expect(due.length).toBeGreaterThan(2);
      const claimed = await pools[1]!.transaction(async (tx) => {
        await tx.execute(sql`SELECT id FROM webhook_deliveries WHERE id = ${due[0]!.id} FOR UPDATE`);
        return gateways[0]!.webhookDispatch.claimDueDeliveries(LATER, 2, '2026-03-06T00:00:00.000Z');
      });
      expect(claimed.map((d) => d.id)).toEqual([due[1]!.id, due[2]!.id]);
    });

    it('lets exactly one of 10 racing retries take over a record whose lease it read', async () => {
      const apiKeyId = `race-${randomUUID()}`;
      await pg.idempotency.insertRunningRecord({ apiKeyId, key: 'k', requestHash: 'h', leaseExpiresAt: T1, createdAt: T1 });
      const leases = Array.from({ length: 10 }, (_, i) => `2026-03-03T11:00:0${i}.000Z`);
      const outcomes = await across(10, (db, i) => db.transaction((tx) => tx.idempotency.takeOverRecord(apiKeyId, 'k', T1, leases[i]!)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await pg.idempotency.findIdempotencyRecord(apiKeyId, 'k'))?.leaseExpiresAt).toBe(leases[outcomes.indexOf(true)]);
    });

    it('either takes over a record or deletes it, never both, when takeovers race the run that held it', async () => {
      for (let round = 0; round < 6; round += 1) {
        const apiKeyId = `race-${randomUUID()}`;
        await pg.idempotency.insertRunningRecord({ apiKeyId, key: 'k', requestHash: 'h', leaseExpiresAt: T1, createdAt: T1 });
        const outcomes = await across(10, (db, i) =>
          db.transaction(async (tx) => {
            if (i % 2 === 0) return tx.idempotency.takeOverRecord(apiKeyId, 'k', T1, `2026-03-03T12:00:0${i}.000Z`);
            await tx.idempotency.deleteRunningRecord(apiKeyId, 'k', T1);
            return false;
          }),
        );
        const record = await pg.idempotency.findIdempotencyRecord(apiKeyId, 'k');
        const won = outcomes.indexOf(true);
        if (record) {
          expect(outcomes.filter(Boolean)).toHaveLength(1);
          expect(record.leaseExpiresAt).toBe(`2026-03-03T12:00:0${won}.000Z`);
        } else {
          expect(outcomes.filter(Boolean)).toHaveLength(0);
        }
      }
    });

    it('keeps the first of 6 racing answers, and lets one of 8 racing "find, else insert" units claim a new key', async () => {
      const apiKeyId = `race-${randomUUID()}`;
      await pg.idempotency.insertRunningRecord({ apiKeyId, key: 'k', requestHash: 'h', leaseExpiresAt: T1, createdAt: T1 });
      await across(6, (db, i) => db.transaction((tx) => tx.idempotency.completeRecord(apiKeyId, 'k', 200 + i, `answer-${i}`)));
      const record = (await pg.idempotency.findIdempotencyRecord(apiKeyId, 'k'))!;
      expect(record.state).toBe('completed');
      expect(record.responseBody).toBe(`answer-${record.responseStatus! - 200}`);

      const claims = await across(8, (db, i) =>
        db.transaction(async (tx) => {
          if (await tx.idempotency.findIdempotencyRecord(apiKeyId, 'new')) return false;
          await tx.idempotency.insertRunningRecord({ apiKeyId, key: 'new', requestHash: `h-${i}`, leaseExpiresAt: T2, createdAt: T1 });
          return true;
        }),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await pg.idempotency.findIdempotencyRecord(apiKeyId, 'new'))?.requestHash).toBe(`h-${claims.indexOf(true)}`);
    });

    it('swaps a sealed secret and a sealed answer for exactly one of racing re-encryptions', async () => {
      const secrets = await across(6, (db, i) =>
        db.transaction((tx) => tx.webhooks.replaceSealedSecret('ep-R1', 'sealed-ep-R1', `new-${i}`)),
      );
      expect(secrets.filter(Boolean)).toHaveLength(1);
      const answers = await across(6, (db, i) =>
        db.transaction((tx) => tx.idempotency.replaceSealedAnswer('key-2', 'a', 'sealed-2a', `new-${i}`)),
      );
      expect(answers.filter(Boolean)).toHaveLength(1);
    });

    it('leaves each delivery either delivered or given up on when its endpoint is deleted during attempts', async () => {
      const pendingOfR2 = (await raceLog()).filter((row) => row.endpointId === 'ep-R2' && row.status === 'pending');
      expect(pendingOfR2.length).toBeGreaterThan(2);
      await Promise.all([
        ...pendingOfR2.map((row, i) =>
          gateways[i % 2]!.transaction((tx) => tx.webhookDispatch.recordAttempt(row.id, attempt({ status: 'delivered', attemptedAt: T3 }))),
        ),
        gateways[1]!.transaction((tx) => tx.webhooks.deleteWebhookEndpointRow('ep-R2', T3, 'endpoint deleted')),
      ]);
      for (const row of (await raceLog()).filter((r) => r.endpointId === 'ep-R2')) {
        expect([
          ['delivered', null],
          ['failed', 'endpoint deleted'],
        ]).toContainEqual([row.status, row.lastError]);
      }
    });
  });
});
