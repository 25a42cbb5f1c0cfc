/**
 * The store contract of webhook endpoints, the delivery log and dispatch (src/domain/webhooks/store.ts):
 * what each method returns and writes, with exact values and orders, over the world of
 * webhooks-world.ts. Then claims, deletions and re-encryptions, raced (races.ts).
 */
import { describe, expect, it } from 'vitest';
import { createBrand } from '../../fixtures/factories/brands.ts';
import type { DeliveryFilter, DeliveryKey, DeliveryLogRow, DueDelivery, WebhookEndpointRow } from '../../src/domain/webhooks/store.ts';
import { freshDb } from '../support/db.ts';
import { webhookRaces, webhookRaceWorld } from './races.ts';
import {
  ALL_TYPES,
  attempt,
  dl,
  evt,
  LATER,
  T0,
  T0_1,
  T0_2,
  T0_3,
  T1,
  T1_250,
  T2,
  T2_10,
  T3,
  T4,
  T5,
  T9,
  webhooksWorld,
} from './webhooks-world.ts';

const db = await freshDb();
const { database } = db;

const { brandA, brandB, events } = await webhooksWorld(db);
const eventOf = (n: number) => events.get(n)!;

/** A due delivery as the store gives it: never attempted and due at its event's time unless `over` says otherwise. */
const due = (n: number, endpointId: string, over: Partial<Pick<DueDelivery, 'attempts' | 'nextAttemptAt'>> = {}): DueDelivery => ({
  id: dl(n, endpointId),
  attempts: 0,
  createdAt: eventOf(n).createdAt,
  nextAttemptAt: eventOf(n).createdAt,
  endpointId,
  url: `https://${endpointId}.hooks.test/in`,
  secretCiphertext: `sealed-${endpointId}`,
  endpointDisabled: false,
  event: { id: evt(n), type: eventOf(n).type, createdAt: eventOf(n).createdAt, payload: eventOf(n).payload },
  ...over,
});
/** A delivery of the log as the store gives it: pending and never attempted unless `over` says otherwise. */
const logged = (n: number, endpointId: string, over: Partial<DeliveryLogRow> = {}): DeliveryLogRow => ({
  id: dl(n, endpointId),
  endpointId,
  eventSequence: n,
  resourceId: eventOf(n).resourceId,
  status: 'pending',
  attempts: 0,
  nextAttemptAt: eventOf(n).createdAt,
  lastAttemptAt: null,
  lastStatusCode: null,
  lastError: null,
  createdAt: eventOf(n).createdAt,
  deliveredAt: null,
  leasedUntil: null,
  eventId: evt(n),
  eventType: eventOf(n).type,
  ...over,
});
const endpointRow = (id: string, brandId: string, createdAt: string, over: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow => ({
  id,
  brandId,
  url: `https://${id}.hooks.test/in`,
  eventTypes: ALL_TYPES,
  secretCiphertext: `sealed-${id}`,
  createdAt,
  deletedAt: null,
  failingSince: null,
  disabledAt: null,
  ...over,
});
const pairs = (rows: DueDelivery[]) => rows.map((d) => `${d.event.id}>${d.endpointId}`);

// Brand R's deliveries: each of its 6 events, to ep-R1 then ep-R2 (due at the same time: by id).
const brandRDue = [10, 11, 12, 13, 14, 15].flatMap((n) => [due(n, 'ep-R1'), due(n, 'ep-R2')]);
const gaveUp = { status: 'failed' as const, lastError: 'endpoint deleted', leasedUntil: null };

/**
 * Brand A's delivery log once the world's and the claims' attempts are recorded: newest first, by event
 * then delivery id in byte order ('ep-a3' > 'ep-Zombie' > 'ep-Gone' > 'ep-A2' > 'ep-A1'). Claimed and
 * not recorded: leased until T9.
 */
const brandALog = [
  logged(7, 'ep-a3'),
  logged(7, 'ep-Zombie'),
  logged(7, 'ep-A2'),
  logged(7, 'ep-A1'),
  logged(6, 'ep-Zombie'),
  logged(6, 'ep-A2'),
  logged(6, 'ep-A1'),
  logged(5, 'ep-a3', { nextAttemptAt: T9, leasedUntil: T9 }),
  logged(5, 'ep-Zombie'),
  logged(5, 'ep-Gone', gaveUp),
  logged(5, 'ep-A2'),
  logged(5, 'ep-A1', { attempts: 1, nextAttemptAt: T9, leasedUntil: T9, lastAttemptAt: T2, lastStatusCode: 503, lastError: 'HTTP 503' }),
  logged(4, 'ep-Zombie'),
  logged(4, 'ep-Gone', gaveUp),
  logged(4, 'ep-A2', { status: 'failed', attempts: 7, lastAttemptAt: T1, lastError: 'connect ECONNREFUSED' }),
  logged(4, 'ep-A1', { status: 'delivered', attempts: 1, nextAttemptAt: T9, lastAttemptAt: T3, lastStatusCode: 200, deliveredAt: T3 }),
  logged(3, 'ep-a3', { status: 'failed', attempts: 1, nextAttemptAt: T9, lastAttemptAt: T1, lastStatusCode: 410, lastError: 'too old' }),
  logged(3, 'ep-Zombie'),
  logged(3, 'ep-Gone', gaveUp),
  logged(3, 'ep-A2'),
  logged(3, 'ep-A1'),
  logged(2, 'ep-Zombie'),
  logged(2, 'ep-Gone', gaveUp),
  logged(2, 'ep-A2', { nextAttemptAt: T9, leasedUntil: T9 }),
  logged(2, 'ep-A1', { status: 'delivered', attempts: 1, lastAttemptAt: T1, lastStatusCode: 200, deliveredAt: T1_250 }),
  logged(1, 'ep-Zombie'),
  logged(1, 'ep-Gone', gaveUp),
  logged(1, 'ep-A2', { attempts: 1, nextAttemptAt: T5, lastAttemptAt: T1, lastStatusCode: 500, lastError: 'HTTP 500' }),
  logged(1, 'ep-A1', { nextAttemptAt: T9 }),
];
const brandBLog = [logged(9, 'ep-B1'), logged(8, 'ep-B1', { attempts: 2, lastAttemptAt: T1, lastError: 'timeout' })];

describe('store contract: webhook dispatch', () => {
  it('finds the due deliveries at every moment and limit: one per endpoint and resource, in event order', async () => {
    // Leased until T9, retrying at T5, retrying at T2+10min: the rest never attempted.
    const leasedA1 = due(1, 'ep-A1', { nextAttemptAt: T9 });
    const retryA2 = due(1, 'ep-A2', { attempts: 1, nextAttemptAt: T5 });
    const retryA1 = due(5, 'ep-A1', { attempts: 1, nextAttemptAt: T2_10 });
    const atT3 = [
      due(2, 'ep-A2'),
      due(3, 'ep-a3'),
      due(4, 'ep-A1'),
      // Of one event's deliveries, the one due first first (ep-a3's at T2), against id order.
      due(5, 'ep-a3'),
      retryA1,
      due(7, 'ep-A2'),
      due(7, 'ep-a3'),
      due(8, 'ep-B1'),
      ...brandRDue,
    ];
    const expected = new Map<string, DueDelivery[]>([
      [T0, []],
      [T1, [due(2, 'ep-A2'), due(3, 'ep-a3'), due(8, 'ep-B1'), ...brandRDue]],
      [T2, [due(2, 'ep-A2'), due(3, 'ep-a3'), due(4, 'ep-A1'), due(5, 'ep-a3'), due(8, 'ep-B1'), ...brandRDue]],
      [T3, atT3],
      // Once its retry is due, ep-A2's r1 goes first; after the lease, ep-A1's r1 is due again, after ep-A2's (due earlier).
      [T5, [retryA2, ...atT3]],
      [T9, [retryA2, leasedA1, ...atT3]],
      [LATER, [retryA2, leasedA1, ...atT3]],
    ]);
    for (const [now, all] of expected) {
      expect({ now, due: await database.webhookDispatch.findDueDeliveries(now, 100) }).toStrictEqual({ now, due: all });
      for (const limit of [1, 2, 3, 4, 5, 8]) {
        expect({ now, limit, due: await database.webhookDispatch.findDueDeliveries(now, limit) }).toStrictEqual({
          now,
          limit,
          due: all.slice(0, limit),
        });
      }
    }
    // Blocked: ep-A1's r1 events 3 and 6 behind its leased 1, its r3 event 7 behind 4, ep-B1's 9 behind 8;
    // deleted endpoints (ep-Gone, and ep-Zombie with deliveries still pending) get nothing.
    expect(pairs(await database.webhookDispatch.findDueDeliveries(T3, 9))).toEqual([
      'evt-02>ep-A2',
      'evt-03>ep-a3',
      'evt-04>ep-A1',
      'evt-05>ep-a3',
      'evt-05>ep-A1',
      'evt-07>ep-A2',
      'evt-07>ep-a3',
      'evt-08>ep-B1',
      'evt-10>ep-R1',
    ]);
    const [first] = await database.webhookDispatch.findDueDeliveries(T3, 1);
    expect(first).toStrictEqual({
      id: dl(2, 'ep-A2'),
      attempts: 0,
      createdAt: T1,
      nextAttemptAt: T1,
      endpointId: 'ep-A2',
      url: 'https://ep-A2.hooks.test/in',
      secretCiphertext: 'sealed-ep-A2',
      endpointDisabled: false,
      event: {
        id: evt(2),
        type: 'booking.created',
        createdAt: T1,
        payload: { id: 'r2', status: 'created', n: 2, nested: { z: true, a: [1, 'two', null] } },
      },
    });
    // The payload with its keys in the order they were written.
    expect(JSON.stringify(first!.event.payload)).toBe('{"id":"r2","status":"created","n":2,"nested":{"z":true,"a":[1,"two",null]}}');
  });

  it('claims what is due in the order it is due, with the lease it is given, and records attempts', async () => {
    const claimed = await database.webhookDispatch.claimDueDeliveries(T3, 5, T9);
    expect(claimed).toStrictEqual(
      [due(2, 'ep-A2'), due(3, 'ep-a3'), due(4, 'ep-A1'), due(5, 'ep-a3'), due(5, 'ep-A1', { attempts: 1 })].map((d) => ({
        ...d,
        nextAttemptAt: T9,
      })),
    );
    // Leased: no longer due, and still in the way of the same resource's later events.
    expect(await database.webhookDispatch.findDueDeliveries(T3, 100)).toStrictEqual([
      due(7, 'ep-A2'),
      due(7, 'ep-a3'),
      due(8, 'ep-B1'),
      ...brandRDue,
    ]);
    expect(await database.webhookDispatch.claimDueDeliveries(T0, 5, T9)).toStrictEqual([]);

    await database.webhookDispatch.recordAttempt(dl(4, 'ep-A1'), attempt({ status: 'delivered', attemptedAt: T3, finishedAt: T3 }));
    // Given up on already: an attempt's outcome changes nothing.
    await database.webhookDispatch.recordAttempt(dl(4, 'ep-A2'), attempt({ status: 'delivered' }));
    // Pending without a next attempt keeps the one it had.
    await database.webhookDispatch.recordAttempt(
      dl(8, 'ep-B1'),
      attempt({ status: 'pending', statusCode: null, error: 'timeout', attempts: 2 }),
    );
    await database.webhookDispatch.recordAttempt(dl(3, 'ep-a3'), attempt({ status: 'failed', error: 'too old', statusCode: 410 }));

    expect(await database.webhooks.findDeliveryPage({ brandId: brandA.id }, null, 100)).toStrictEqual(brandALog);
    expect(await database.webhooks.findDeliveryPage({ brandId: brandB.id }, null, 100)).toStrictEqual(brandBLog);
    expect(await database.webhookDispatch.findDueDeliveries(T3, 100)).toStrictEqual([
      due(7, 'ep-A1'),
      due(7, 'ep-A2'),
      due(7, 'ep-a3'),
      due(8, 'ep-B1', { attempts: 2 }),
      ...brandRDue,
    ]);
  });
});

describe('store contract: webhook endpoints and the delivery log', () => {
  it('lists live endpoints oldest first, finds any endpoint, and inserts one', async () => {
    expect(await database.webhooks.liveWebhookEndpoints(brandA.id)).toStrictEqual([
      endpointRow('ep-A1', brandA.id, T0),
      endpointRow('ep-A2', brandA.id, T0_1, { failingSince: T1 }),
      endpointRow('ep-a3', brandA.id, T0_2, { eventTypes: ['booking.confirmed'], failingSince: T1 }),
    ]);
    expect(await database.webhooks.liveWebhookEndpoints(brandB.id)).toStrictEqual([
      endpointRow('ep-B1', brandB.id, T0, { failingSince: T1 }),
    ]);
    expect(await database.webhooks.liveWebhookEndpoints('no-such-brand')).toStrictEqual([]);
    expect(await database.webhooks.findWebhookEndpoint('ep-A1')).toStrictEqual(endpointRow('ep-A1', brandA.id, T0));
    expect(await database.webhooks.findWebhookEndpoint('ep-Gone')).toStrictEqual(endpointRow('ep-Gone', brandA.id, T0, { deletedAt: T2 }));
    expect(await database.webhooks.findWebhookEndpoint('ep-Zombie')).toStrictEqual(
      endpointRow('ep-Zombie', brandA.id, T0_3, { deletedAt: T3 }),
    );
    expect(await database.webhooks.findWebhookEndpoint('no-such-endpoint')).toBeUndefined();

    const inserted = await database.webhooks.insertWebhookEndpoint({
      id: 'ep-B2',
      brandId: brandB.id,
      url: 'https://b2.hooks.test/',
      eventTypes: ['booking.refunded', 'booking.created'],
      secretCiphertext: 'sealed-ep-B2',
      createdAt: T0,
    });
    expect(inserted).toStrictEqual({
      id: 'ep-B2',
      brandId: brandB.id,
      url: 'https://b2.hooks.test/',
      eventTypes: ['booking.refunded', 'booking.created'],
      secretCiphertext: 'sealed-ep-B2',
      createdAt: T0,
      deletedAt: null,
      failingSince: null,
      disabledAt: null,
    });
    expect(
      await database.webhooks.insertWebhookEndpoint({
        id: 'ep-B0',
        brandId: brandB.id,
        url: 'https://b0.hooks.test/',
        eventTypes: ['booking.created'],
        secretCiphertext: 'sealed-ep-B0',
        createdAt: T1,
        deletedAt: T2,
      }),
    ).toStrictEqual({
      id: 'ep-B0',
      brandId: brandB.id,
      url: 'https://b0.hooks.test/',
      eventTypes: ['booking.created'],
      secretCiphertext: 'sealed-ep-B0',
      createdAt: T1,
      deletedAt: T2,
      failingSince: null,
      disabledAt: null,
    });
    const third = await database.webhooks.insertWebhookEndpoint({ ...inserted, id: 'ep-B3', createdAt: T0_1, deletedAt: undefined });
    expect(third).toStrictEqual({ ...inserted, id: 'ep-B3', createdAt: T0_1 });
    // ep-B1 and ep-B2 share a millisecond: in the order they were written.
    expect(await database.webhooks.liveWebhookEndpoints(brandB.id)).toStrictEqual([
      endpointRow('ep-B1', brandB.id, T0, { failingSince: T1 }),
      inserted,
      third,
    ]);
    await expect(database.webhooks.insertWebhookEndpoint({ ...inserted })).rejects.toThrow();
    expect(await database.webhooks.findWebhookEndpoint('ep-B2')).toStrictEqual(inserted);
  });

  it('lists endpoints created in the same millisecond in the order they were written, not by id', async () => {
    const brand = 'brand-ties';
    const row = (id: string) => ({
      id,
      brandId: brandA.id,
      url: `https://${id}.test/`,
      eventTypes: [],
      secretCiphertext: id,
      createdAt: T4,
    });
    await database.webhooks.insertWebhookEndpoint(row(`${brand}-y`));
    await database.webhooks.insertWebhookEndpoint(row(`${brand}-x`));
    expect(await database.webhooks.liveWebhookEndpoints(brandA.id)).toStrictEqual([
      endpointRow('ep-A1', brandA.id, T0),
      endpointRow('ep-A2', brandA.id, T0_1, { failingSince: T1 }),
      endpointRow('ep-a3', brandA.id, T0_2, { eventTypes: ['booking.confirmed'], failingSince: T1 }),
      { ...row(`${brand}-y`), deletedAt: null, failingSince: null, disabledAt: null },
      { ...row(`${brand}-x`), deletedAt: null, failingSince: null, disabledAt: null },
    ]);
    for (const id of [`${brand}-x`, `${brand}-y`]) await database.webhooks.deleteWebhookEndpointRow(id, T4, 'test');
    expect((await database.webhooks.liveWebhookEndpoints(brandA.id)).map((e) => e.id)).toStrictEqual(['ep-A1', 'ep-A2', 'ep-a3']);
  });

  it('pages the delivery log newest first and counts it, whatever the filter and page size', async () => {
    /** Older than `key` in newest-first order: by event, then delivery id in byte order (ASCII ids: JS compares them so). */
    const olderThan = (row: DeliveryLogRow, key: DeliveryKey) =>
      row.eventSequence < key.eventSequence || (row.eventSequence === key.eventSequence && row.id < key.id);
    const filters: Array<[DeliveryFilter, DeliveryLogRow[]]> = [
      [{ brandId: brandA.id }, brandALog],
      [{ brandId: brandA.id, endpointId: null, status: null }, brandALog],
      [{ brandId: brandA.id, endpointId: 'ep-A1' }, brandALog.filter((row) => row.endpointId === 'ep-A1')],
      [{ brandId: brandA.id, endpointId: 'ep-Gone' }, brandALog.filter((row) => row.endpointId === 'ep-Gone')],
      [{ brandId: brandA.id, status: 'pending' }, brandALog.filter((row) => row.status === 'pending')],
      [{ brandId: brandA.id, status: 'failed' }, brandALog.filter((row) => row.status === 'failed')],
      [
        { brandId: brandA.id, endpointId: 'ep-a3', status: 'pending' },
        [logged(7, 'ep-a3'), logged(5, 'ep-a3', { nextAttemptAt: T9, leasedUntil: T9 })],
      ],
      [{ brandId: brandA.id, endpointId: 'ep-B1' }, []], // another brand's endpoint: nothing
      [{ brandId: brandB.id }, brandBLog],
      [{ brandId: 'no-such-brand' }, []],
    ];
    // The filters narrow as they say.
    expect(filters.map(([, rows]) => rows.length)).toStrictEqual([29, 29, 7, 5, 20, 7, 2, 0, 2, 0]);
    for (const [filter, log] of filters) {
      const at = (what: string) => ({ filter, what });
      expect({ ...at('count'), n: await database.webhooks.countDeliveries(filter, null) }).toStrictEqual({
        ...at('count'),
        n: { total: log.length, before: 0 },
      });
      for (const limit of [1, 2, 3, 7]) {
        let after: DeliveryKey | null = null;
        for (let start = 0; ; start += limit) {
          const page = await database.webhooks.findDeliveryPage(filter, after, limit);
          expect({ ...at(`page from ${start} of ${limit}`), page }).toStrictEqual({
            ...at(`page from ${start} of ${limit}`),
            page: log.slice(start, start + limit),
          });
          if (page.length < limit) break;
          after = { eventSequence: page[limit - 1]!.eventSequence, id: page[limit - 1]!.id };
          expect({ ...at(`count to ${start + limit}`), n: await database.webhooks.countDeliveries(filter, after) }).toStrictEqual({
            ...at(`count to ${start + limit}`),
            n: { total: log.length, before: start + limit },
          });
        }
      }
      // Keys that are no delivery's: between two of one event, before all, after all.
      for (const key of [
        { eventSequence: 5, id: 'd-05-ep-B' },
        { eventSequence: 3, id: 'd-03-ep-Gonf' },
        { eventSequence: 0, id: '' },
        { eventSequence: 1_000_000, id: 'zzz' },
      ]) {
        const older = log.filter((row) => olderThan(row, key));
        expect({ ...at(`after ${key.id}`), page: await database.webhooks.findDeliveryPage(filter, key, 4) }).toStrictEqual({
          ...at(`after ${key.id}`),
          page: older.slice(0, 4),
        });
        expect({ ...at(`count ${key.id}`), n: await database.webhooks.countDeliveries(filter, key) }).toStrictEqual({
          ...at(`count ${key.id}`),
          n: { total: log.length, before: log.length - older.length },
        });
      }
    }

    const page = await database.webhooks.findDeliveryPage({ brandId: brandA.id }, { eventSequence: 5, id: dl(5, 'ep-Gone') }, 4);
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
      leasedUntil: null,
      eventId: evt(5),
      eventType: 'booking.confirmed',
    });
    // Brand A: 4 + 4 + 5 + 4 + 5 + 3 + 4 deliveries; the key itself counts as "before" (at or before).
    expect(await database.webhooks.countDeliveries({ brandId: brandA.id }, null)).toEqual({ total: 29, before: 0 });
    expect(await database.webhooks.countDeliveries({ brandId: brandA.id }, { eventSequence: 5, id: dl(5, 'ep-Gone') })).toEqual({
      total: 29,
      before: 10,
    });
  });

  it('deletes an endpoint once, giving up its pending deliveries and keeping its log', async () => {
    await database.webhooks.deleteWebhookEndpointRow('ep-A2', T4, 'endpoint deleted');
    await database.webhooks.deleteWebhookEndpointRow('ep-A2', T5, 'deleted again');
    await database.webhooks.deleteWebhookEndpointRow('no-such-endpoint', T5, 'nothing');
    expect(await database.webhooks.findWebhookEndpoint('ep-A2')).toStrictEqual(
      endpointRow('ep-A2', brandA.id, T0_1, { deletedAt: T4, failingSince: T1 }),
    );
    const log = await database.webhooks.findDeliveryPage({ brandId: brandA.id, endpointId: 'ep-A2' }, null, 100);
    expect(log.map((row) => [row.id, row.status, row.lastError])).toEqual([
      [dl(7, 'ep-A2'), 'failed', 'endpoint deleted'],
      [dl(6, 'ep-A2'), 'failed', 'endpoint deleted'],
      [dl(5, 'ep-A2'), 'failed', 'endpoint deleted'],
      [dl(4, 'ep-A2'), 'failed', 'connect ECONNREFUSED'],
      [dl(3, 'ep-A2'), 'failed', 'endpoint deleted'],
      [dl(2, 'ep-A2'), 'failed', 'endpoint deleted'],
      [dl(1, 'ep-A2'), 'failed', 'endpoint deleted'],
    ]);
    // Nothing else of them changes.
    expect(log).toStrictEqual(
      brandALog.filter((row) => row.endpointId === 'ep-A2').map((row) => (row.status === 'pending' ? { ...row, ...gaveUp } : row)),
    );
    expect((await database.webhooks.liveWebhookEndpoints(brandA.id)).map((e) => e.id)).toStrictEqual(['ep-A1', 'ep-a3']);
    expect(await database.webhookDispatch.findDueDeliveries(LATER, 100)).toStrictEqual([
      due(1, 'ep-A1', { nextAttemptAt: T9 }),
      // Due at the same instant: by delivery id.
      due(5, 'ep-A1', { attempts: 1, nextAttemptAt: T9 }),
      due(5, 'ep-a3', { nextAttemptAt: T9 }),
      due(7, 'ep-A1'),
      due(7, 'ep-a3'),
      due(8, 'ep-B1', { attempts: 2 }),
      ...brandRDue,
    ]);
    // Gone's 5, ep-a3's event 3, and all 7 of ep-A2's.
    expect(await database.webhooks.countDeliveries({ brandId: brandA.id, status: 'failed' }, null)).toEqual({ total: 13, before: 0 });
  });

  it('pages sealed secrets by id (byte order, deleted endpoints too) and swaps one only while it is the value read', async () => {
    const all = [
      { id: 'brand-ties-x', secretCiphertext: 'brand-ties-x' },
      { id: 'brand-ties-y', secretCiphertext: 'brand-ties-y' },
      ...['ep-A1', 'ep-A2', 'ep-B0', 'ep-B1', 'ep-B2'].map((id) => ({ id, secretCiphertext: `sealed-${id}` })),
      { id: 'ep-B3', secretCiphertext: 'sealed-ep-B2' },
      ...['ep-Gone', 'ep-R1', 'ep-R2', 'ep-Zombie', 'ep-a3'].map((id) => ({ id, secretCiphertext: `sealed-${id}` })),
    ];
    expect(await database.webhooks.sealedSecretsPage(null, 1000)).toStrictEqual(all);
    for (const limit of [1, 2, 5]) {
      let after: string | null = null;
      for (let start = 0; ; start += limit) {
        const page = await database.webhooks.sealedSecretsPage(after, limit);
        expect({ limit, start, page }).toStrictEqual({ limit, start, page: all.slice(start, start + limit) });
        if (page.length < limit) break;
        after = page[limit - 1]!.id;
      }
    }
    const after = (id: string) => all.filter((row) => row.id > id).slice(0, 3);
    expect(await database.webhooks.sealedSecretsPage('', 3)).toStrictEqual(all.slice(0, 3));
    expect(await database.webhooks.sealedSecretsPage('ep-B', 3)).toStrictEqual(after('ep-B'));
    expect(after('ep-B').map((row) => row.id)).toStrictEqual(['ep-B0', 'ep-B1', 'ep-B2']);
    expect(await database.webhooks.sealedSecretsPage('ep-a', 3)).toStrictEqual([{ id: 'ep-a3', secretCiphertext: 'sealed-ep-a3' }]);
    expect(await database.webhooks.sealedSecretsPage('zzz', 3)).toStrictEqual([]);
    expect(await database.webhooks.sealedSecretsPage('ep-A2', 2)).toEqual([
      { id: 'ep-B0', secretCiphertext: 'sealed-ep-B0' },
      { id: 'ep-B1', secretCiphertext: 'sealed-ep-B1' },
    ]);
    expect(await database.webhooks.replaceSealedSecret('ep-A1', 'sealed-ep-A2', 'new')).toBe(false);
    expect(await database.webhooks.replaceSealedSecret('ep-A1', 'sealed-ep-A1', 'resealed-ep-A1')).toBe(true);
    expect(await database.webhooks.replaceSealedSecret('ep-A1', 'sealed-ep-A1', 'again')).toBe(false);
    expect(await database.webhooks.replaceSealedSecret('no-such-endpoint', 'x', 'y')).toBe(false);
    expect(await database.webhooks.findWebhookEndpoint('ep-A1')).toStrictEqual(
      endpointRow('ep-A1', brandA.id, T0, { secretCiphertext: 'resealed-ep-A1' }),
    );
  });
});

describe('store contract: webhook dispatch of one event to several endpoints', () => {
  it('gives the deliveries of one event due at the same instant by id (byte order), whatever order they were written in', async () => {
    const brand = await createBrand(db);
    const at = '2026-04-01T00:00:00.000Z';
    for (const id of ['tie-b', 'tie-A', 'tie-a']) {
      await database.webhooks.insertWebhookEndpoint({
        id,
        brandId: brand.id,
        url: `https://${id}.test/`,
        eventTypes: ALL_TYPES,
        secretCiphertext: id,
        createdAt: at,
      });
    }
    await database.transaction(async (tx) => {
      await tx.events.insertEvent({
        id: 'evt-ties',
        brandId: brand.id,
        type: 'booking.created',
        resourceId: 'r-ties',
        payload: {},
        createdAt: at,
      });
      await tx.events.insertPendingDeliveries(
        ['tie-b', 'tie-a', 'tie-A'].map((endpointId) => ({
          id: `d-ties-${endpointId}`,
          endpointId,
          eventId: 'evt-ties',
          resourceId: 'r-ties',
          at,
        })),
      );
    });
    const ties = (rows: DueDelivery[]) => rows.filter((d) => d.event.id === 'evt-ties').map((d) => d.id);
    expect(ties(await database.webhookDispatch.findDueDeliveries(at, 100))).toStrictEqual(['d-ties-tie-A', 'd-ties-tie-a', 'd-ties-tie-b']);
    expect(ties(await database.webhookDispatch.claimDueDeliveries(at, 100, LATER))).toStrictEqual([
      'd-ties-tie-A',
      'd-ties-tie-a',
      'd-ties-tie-b',
    ]);
  });
});

describe('store contract: each endpoint kept apart', () => {
  // Before every other delivery of the file is due: what is due at these times is this world's alone.
  const AT = '2026-02-01T10:00:00.000Z';
  const AT_1 = '2026-02-01T10:00:01.000Z';
  const UNTIL = '2026-02-01T10:00:15.000Z';
  const RETRY = '2026-02-01T11:00:00.000Z';
  const OFF = '2026-02-04T10:00:01.000Z';
  const id = (n: number, endpointId: string) => `d-cap-${n}-${endpointId}`;
  const due = (rows: DueDelivery[]) => rows.map((d) => d.id);
  const log = async (endpointId: string) =>
    (await database.webhooks.findDeliveryPage({ brandId: capBrand.id, endpointId }, null, 100)).map((d) => [d.id, d.status, d.lastError]);
  let capBrand: { id: string };

  /** Event n about resource `rC<resource>`, delivered to each endpoint given, due at AT. */
  const capEvent = (n: number, resource: number, endpointIds: string[]) =>
    database.transaction(async (tx) => {
      await tx.events.insertEvent({
        id: `evt-cap-${n}`,
        brandId: capBrand.id,
        type: 'booking.created',
        resourceId: `rC${resource}`,
        payload: { n },
        createdAt: AT,
      });
      await tx.events.insertPendingDeliveries(
        endpointIds.map((endpointId) => ({
          id: id(n, endpointId),
          endpointId,
          eventId: `evt-cap-${n}`,
          resourceId: `rC${resource}`,
          at: AT,
        })),
      );
    });

  it('gives each endpoint at most its cap, counting the leases still running, and its earliest deliveries', async () => {
    capBrand = await createBrand(db);
    for (const endpointId of ['C1', 'C2']) {
      await database.webhooks.insertWebhookEndpoint({
        id: endpointId,
        brandId: capBrand.id,
        url: `https://${endpointId}.hooks.test/in`,
        eventTypes: ALL_TYPES,
        secretCiphertext: `sealed-${endpointId}`,
        createdAt: AT,
      });
    }
    for (const n of [1, 2, 3, 4, 5]) await capEvent(n, n, ['C1', 'C2']);
    await capEvent(6, 1, ['C1', 'C2']); // resource rC1 again: waits behind event 1

    const firstTwoEach = [id(1, 'C1'), id(1, 'C2'), id(2, 'C1'), id(2, 'C2')];
    expect(due(await database.webhookDispatch.findDueDeliveries(AT, 100, 2))).toStrictEqual(firstTwoEach);
    expect(due(await database.webhookDispatch.findDueDeliveries(AT, 3, 2))).toStrictEqual(firstTwoEach.slice(0, 3));
    expect(due(await database.webhookDispatch.findDueDeliveries(AT, 100, 1))).toStrictEqual([id(1, 'C1'), id(1, 'C2')]);

    const claimed = await database.webhookDispatch.claimDueDeliveries(AT, 100, UNTIL, 2);
    expect(claimed.map((d) => [d.id, d.nextAttemptAt, d.endpointDisabled])).toStrictEqual(firstTwoEach.map((d) => [d, UNTIL, false]));
    // Both endpoints at their cap: nothing more for either, though more is due.
    expect(await database.webhookDispatch.findDueDeliveries(AT, 100, 2)).toStrictEqual([]);
    expect(await database.webhookDispatch.claimDueDeliveries(AT, 100, UNTIL, 2)).toStrictEqual([]);
    expect(due(await database.webhookDispatch.findDueDeliveries(AT, 100, 3))).toStrictEqual([id(3, 'C1'), id(3, 'C2')]);
    expect(due(await database.webhookDispatch.findDueDeliveries(AT, 100))).toStrictEqual(
      [3, 4, 5].flatMap((n) => [id(n, 'C1'), id(n, 'C2')]),
    );
    // Leases that ran out (a sender that died) hold no place: the same four are due again.
    expect(due(await database.webhookDispatch.findDueDeliveries(UNTIL, 100, 2))).toStrictEqual(firstTwoEach);

    // C1's two attempts fail: it is failing since the first; its places free up for its next two.
    const failed = (attemptedAt: string) =>
      attempt({ status: 'pending', attemptedAt, finishedAt: attemptedAt, statusCode: 503, error: 'HTTP 503', nextAttemptAt: RETRY });
    expect(await database.webhookDispatch.recordAttempt(id(1, 'C1'), failed(AT))).toStrictEqual({ failingSince: AT });
    expect(await database.webhookDispatch.recordAttempt(id(2, 'C1'), failed(AT_1))).toStrictEqual({ failingSince: AT });
    expect(due(await database.webhookDispatch.findDueDeliveries(AT, 100, 2))).toStrictEqual([id(3, 'C1'), id(4, 'C1')]);
    // C2's first succeeds: not failing.
    const ok = attempt({ status: 'delivered', attemptedAt: AT, finishedAt: AT });
    expect(await database.webhookDispatch.recordAttempt(id(1, 'C2'), ok)).toStrictEqual({ failingSince: null });
    expect(due(await database.webhookDispatch.findDueDeliveries(AT, 100, 2))).toStrictEqual([id(3, 'C1'), id(3, 'C2'), id(4, 'C1')]);
    // An outcome for a delivery no longer pending changes nothing, its endpoint included.
    expect(await database.webhookDispatch.recordAttempt(id(1, 'C2'), failed(AT_1))).toStrictEqual({ failingSince: null });
    expect((await database.webhooks.findWebhookEndpoint('C2'))!.failingSince).toBeNull();
  });

  it('disables an endpoint failing since the time given, once, giving up its pending deliveries', async () => {
    expect(await database.webhookDispatch.disableFailingEndpoint('C1', '2026-02-01T09:59:59.999Z', OFF, 'endpoint disabled')).toBe(false);
    expect(await database.webhookDispatch.disableFailingEndpoint('C2', OFF, OFF, 'endpoint disabled')).toBe(false); // not failing
    expect(await database.webhookDispatch.disableFailingEndpoint('C1', AT, OFF, 'endpoint disabled')).toBe(true);
    expect(await database.webhookDispatch.disableFailingEndpoint('C1', OFF, AT_1, 'again')).toBe(false);
    expect(await database.webhooks.findWebhookEndpoint('C1')).toStrictEqual(
      endpointRow('C1', capBrand.id, AT, { url: 'https://C1.hooks.test/in', failingSince: AT, disabledAt: OFF }),
    );
    expect(await log('C1')).toStrictEqual([...[6, 5, 4, 3, 2, 1].map((n) => [id(n, 'C1'), 'failed', 'endpoint disabled'])]);
    // Still listed (disabled, not deleted); a later event's delivery is due, marked so, to be given up.
    expect((await database.webhooks.liveWebhookEndpoints(capBrand.id)).map((e) => [e.id, e.disabledAt])).toStrictEqual([
      ['C1', OFF],
      ['C2', null],
    ]);
    await capEvent(7, 7, ['C1']);
    // C2 has one place left (its event 2 is leased).
    expect((await database.webhookDispatch.findDueDeliveries(AT, 100, 2)).map((d) => [d.id, d.endpointDisabled])).toStrictEqual([
      [id(3, 'C2'), false],
      [id(7, 'C1'), true],
    ]);
    await database.webhookDispatch.giveUpDelivery(id(7, 'C1'), 'endpoint disabled');
    await database.webhookDispatch.giveUpDelivery(id(7, 'C1'), 'given up twice');
    expect((await log('C1'))[0]).toStrictEqual([id(7, 'C1'), 'failed', 'endpoint disabled']);
    expect(due(await database.webhookDispatch.findDueDeliveries(AT, 100, 2))).toStrictEqual([id(3, 'C2')]);
  });

  it('enables and disables an endpoint row, a deleted one never', async () => {
    await database.webhooks.enableWebhookEndpointRow('C1');
    expect(await database.webhooks.findWebhookEndpoint('C1')).toMatchObject({ failingSince: null, disabledAt: null });
    await database.webhooks.disableWebhookEndpointRow('C2', OFF, 'endpoint disabled');
    await database.webhooks.disableWebhookEndpointRow('C2', AT_1, 'again');
    expect(await database.webhooks.findWebhookEndpoint('C2')).toMatchObject({ failingSince: null, disabledAt: OFF });
    expect((await log('C2')).filter(([, status]) => status !== 'delivered')).toStrictEqual(
      [6, 5, 4, 3, 2].map((n) => [id(n, 'C2'), 'failed', 'endpoint disabled']),
    );
    await database.webhooks.deleteWebhookEndpointRow('C1', OFF, 'endpoint deleted');
    await database.webhooks.disableWebhookEndpointRow('C1', OFF, 'endpoint disabled');
    await database.webhooks.enableWebhookEndpointRow('C2');
    await database.webhooks.deleteWebhookEndpointRow('C2', OFF, 'endpoint deleted');
    await database.webhooks.enableWebhookEndpointRow('C2');
    expect(await database.webhooks.findWebhookEndpoint('C1')).toMatchObject({ deletedAt: OFF, disabledAt: null });
    expect(await database.webhooks.findWebhookEndpoint('C2')).toMatchObject({ deletedAt: OFF, disabledAt: null });
  });
});

// The races, in a database of their own: what they race for is all there is.
const racingDb = await freshDb();
const racing = await webhookRaceWorld(racingDb);

describe('store contract: webhooks, raced', () => {
  webhookRaces(() => ({ db: racingDb, gateways: [racingDb.database], w: racing }));
});
