/**
 * The store contract of the outbox (src/domain/outbox/store.ts): events numbered by the database, their
 * pending deliveries, and pages by sequence. Then units of work writing events, raced (races.ts): their
 * sequences commit in order, so a reader paging by sequence never skips an event.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createWebhookEndpoint } from '../../fixtures/factories/webhooks.ts';
import type { EventInsert, EventRow } from '../../src/domain/outbox/store.ts';
import { freshDb } from '../support/db.ts';
import { eventRaces, eventRaceWorld } from './races.ts';

const db = await freshDb();
const { database } = db;

const brand = await createBrand(db);
const otherBrand = await createBrand(db, { name: 'Other Brand' });

// Endpoints of the brand: two live (one for some types only), one deleted.
const liveEndpoint = await createWebhookEndpoint(db, brand.id, {
  url: 'https://hooks.example.test/a',
  events: ['booking.created', 'waitlist.offered'],
});
const allEndpoint = await createWebhookEndpoint(db, brand.id, {
  url: 'https://hooks.example.test/b',
  createdAt: '2026-12-01T00:00:00.000Z',
});
await createWebhookEndpoint(db, brand.id, { url: 'https://hooks.example.test/gone', deletedAt: '2026-12-02T00:00:00.000Z' });

/** Event number n: its payload's keys in an order no sorting gives. */
const event = (brandId: string, type: string, n: number): EventInsert => ({
  id: randomUUID(),
  brandId,
  type,
  resourceId: `resource-${n}`,
  payload: { id: `resource-${n}`, status: 'confirmed', amountMinor: n * 100, nested: { b: [1, 2], a: null } },
  createdAt: new Date(Date.parse('2027-02-01T10:00:00.000Z') + n * 1000).toISOString(),
});
// Events 1 to 6: 3 and 6 of the other brand; odd ones created, even ones cancelled.
for (let n = 1; n <= 6; n += 1) {
  await database.events.insertEvent(
    event(n % 3 === 0 ? otherBrand.id : brand.id, n % 2 === 0 ? 'booking.cancelled' : 'booking.created', n),
  );
}

describe('store contract: events', () => {
  it('records events with the next sequence numbers, as numbers, and their deliveries', async () => {
    const inputs = [7, 8, 9].map((n) => event(n === 8 ? otherBrand.id : brand.id, n === 9 ? 'waitlist.offered' : 'booking.created', n));
    for (const input of inputs) await database.events.insertEvent(input);
    const rows: EventRow[] = [
      ...(await database.events.findEventPage(brand.id, 6, null, 10)),
      ...(await database.events.findEventPage(otherBrand.id, 6, null, 10)),
    ].sort((x, y) => x.sequence - y.sequence);
    expect(rows).toStrictEqual(inputs.map((input, i) => ({ ...input, sequence: 7 + i })));
    expect(typeof rows[0]!.sequence).toBe('number');
    // The payload comes back with its keys in the order they were written, nested ones too.
    expect(JSON.stringify(rows[0]!.payload)).toBe(
      '{"id":"resource-7","status":"confirmed","amountMinor":700,"nested":{"b":[1,2],"a":null}}',
    );
    const [stored] = await database.events.findEventPage(brand.id, 6, null, 1);
    expect(JSON.stringify(stored!.payload)).toBe(JSON.stringify(rows[0]!.payload));

    // No order is promised: sorted here.
    const endpoints = await database.events.liveEndpointsOfBrand(brand.id);
    expect([...endpoints].sort((a, b) => (a.id < b.id ? -1 : 1))).toStrictEqual(
      [
        { id: liveEndpoint.id, eventTypes: ['booking.created', 'waitlist.offered'] },
        { id: allEndpoint.id, eventTypes: allEndpoint.eventTypes },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(await database.events.liveEndpointsOfBrand(otherBrand.id)).toStrictEqual([]);
    expect(await database.events.liveEndpointsOfBrand('no-such-brand')).toStrictEqual([]);

    await database.events.insertPendingDeliveries([]);
    expect(await db.count('webhookDeliveries')).toBe(0);
    const deliveries = [liveEndpoint, allEndpoint].map((endpoint, i) => ({
      id: `delivery-${i}`,
      endpointId: endpoint.id,
      eventId: rows[2]!.id,
      resourceId: rows[2]!.resourceId,
      at: rows[2]!.createdAt,
    }));
    await database.events.insertPendingDeliveries(deliveries);
    // Pending, due at once (at the event's time).
    expect(await db.rows('webhookDeliveries', {}, ['id'])).toStrictEqual(
      deliveries.map((d) => ({
        id: d.id,
        endpointId: d.endpointId,
        eventSequence: 9,
        resourceId: 'resource-9',
        status: 'pending',
        attempts: 0,
        nextAttemptAt: '2027-02-01T10:00:09.000Z',
        lastAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        createdAt: '2027-02-01T10:00:09.000Z',
        deliveredAt: null,
        leasedUntil: null,
      })),
    );
  });

  it('pages events by sequence, of some types, and tells whether any come before', async () => {
    const sequences = (rows: Array<{ sequence: number }>) => rows.map((row) => row.sequence);
    expect(sequences(await database.events.findEventPage(brand.id, 0, null, 50))).toStrictEqual([1, 2, 4, 5, 7, 9]);
    expect(sequences(await database.events.findEventPage(brand.id, 2, null, 3))).toStrictEqual([4, 5, 7]);
    expect(sequences(await database.events.findEventPage(brand.id, 0, ['booking.created', 'waitlist.offered'], 50))).toStrictEqual([
      1, 5, 7, 9,
    ]);
    expect(sequences(await database.events.findEventPage(otherBrand.id, 3, null, 50))).toStrictEqual([6, 8]);
    expect(await database.events.findEventPage(brand.id, 9, null, 50)).toStrictEqual([]);
    expect(await database.events.findEventPage(brand.id, 0, [], 50)).toStrictEqual([]);
    expect(await database.events.findEventPage(brand.id, 4, ['booking.created'], 1)).toStrictEqual([
      {
        sequence: 5,
        id: expect.any(String),
        brandId: brand.id,
        type: 'booking.created',
        resourceId: 'resource-5',
        payload: { id: 'resource-5', status: 'confirmed', amountMinor: 500, nested: { b: [1, 2], a: null } },
        createdAt: '2027-02-01T10:00:05.000Z',
      },
    ]);

    expect(await database.events.hasEventsUpTo(brand.id, 1, null)).toBe(true);
    expect(await database.events.hasEventsUpTo(brand.id, 3, ['booking.cancelled'])).toBe(true);
    expect(await database.events.hasEventsUpTo(brand.id, 1, ['booking.cancelled'])).toBe(false);
    expect(await database.events.hasEventsUpTo(otherBrand.id, 2, null)).toBe(false);
    expect(await database.events.hasEventsUpTo(otherBrand.id, 3, null)).toBe(true);
    expect(await database.events.hasEventsUpTo(brand.id, 9, [])).toBe(false);
  });

  it('delivers an event recorded for subscribers to each live endpoint of its brand subscribed to its type, in a unit or alone', async () => {
    const before = new Set((await db.rows('webhookDeliveries')).map((d) => d.id));
    const created = event(brand.id, 'booking.created', 10);
    const cancelled = event(brand.id, 'booking.cancelled', 11);
    const elsewhere = event(otherBrand.id, 'booking.created', 12);
    await database.transaction(async (tx) => {
      for (const e of [created, cancelled, elsewhere]) await tx.events.insertEventForSubscribers(e);
    });
    const alone = event(brand.id, 'waitlist.offered', 13);
    await database.events.insertEventForSubscribers(alone);
    const delivered = (await db.rows('webhookDeliveries'))
      .filter((d) => !before.has(d.id))
      .map((d) => ({
        endpointId: d.endpointId,
        eventSequence: d.eventSequence,
        resourceId: d.resourceId,
        status: d.status,
        at: d.nextAttemptAt,
      }))
      .sort((a, b) => a.eventSequence - b.eventSequence || (a.endpointId < b.endpointId ? -1 : 1));
    const to = (endpointId: string, n: number) => ({
      endpointId,
      eventSequence: n,
      resourceId: `resource-${n}`,
      status: 'pending',
      at: `2027-02-01T10:00:${n}.000Z`,
    });
    const sorted = (ids: string[]) => [...ids].sort();
    // The deleted endpoint gets nothing, the brand-wide one everything, the other brand's event no one.
    expect(delivered).toStrictEqual([
      ...sorted([liveEndpoint.id, allEndpoint.id]).map((id) => to(id, 10)),
      to(allEndpoint.id, 11),
      ...sorted([liveEndpoint.id, allEndpoint.id]).map((id) => to(id, 13)),
    ]);
    expect((await database.events.findEventPage(brand.id, 9, null, 10)).map((e) => e.id)).toStrictEqual([
      created.id,
      cancelled.id,
      alone.id,
    ]);
  });
});

// The races, in a database of their own: what they race for is all there is.
const racingDb = await freshDb();
const racing = await eventRaceWorld(racingDb);

describe('store contract: events, raced', () => {
  eventRaces(() => ({ db: racingDb, gateways: [racingDb.database], w: racing }));
});
