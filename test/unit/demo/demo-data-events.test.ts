/**
 * The demo's history in the events feed, read through the API: every demo booking has the events a
 * card checkout and its payment confirmation record, every demo waitlist entry the one joining records,
 * each carrying the resource as the API shows it, at the seed's own times, in the order things happened,
 * under ids as stable as the rows. A webhook endpoint created afterwards gets none of that history.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoEventIds, demoId, demoIds } from '../../../src/db/demo/ids.ts';
import { demoSoldOutSession, seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb, type TestDb } from '../../support/db.ts';
import { deliveriesOf } from '../../../fixtures/factories/webhooks.ts';
import { invariantViolations } from '../../support/invariants.ts';

const NOW = new Date('2026-03-28T10:00:00.000Z');
const db = await freshDb();
await seedDemoDataIfEmpty(db, NOW);
/** The demo loaded on another day, for the test of its event ids. */
const later = await freshDb();
let t: TestApp;
beforeAll(async () => {
  t = await startApp(db, { now: () => NOW });
});

const { brands } = demoIds;
const LISBON = 'sk_test_lisbon_demo';
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

/** In the order they happened: the four bookings (three sell out the sail), then the two parties that joined its waitlist. */
const bookings = [
  ['laurent-family', 240],
  ['whitaker-couple', 96],
  ['becker-tram', 52],
  ['ferreira-friends', 30],
] as const;
const entries = [
  ['nakamura-couple', 20],
  ['oliveira-family', 6],
] as const;

const bookingId = (key: string) => demoId('lisbon', 'booking', key);
const expected = [
  ...bookings.flatMap(([key, hours]) =>
    (['booking.created', 'booking.confirmed'] as const).map((type) => ({
      key,
      type,
      resourceId: bookingId(key),
      createdAt: hoursAgo(hours),
    })),
  ),
  ...entries.map(([key, hours]) => ({
    key,
    type: 'waitlist.entry_created',
    resourceId: demoId('lisbon', 'waitlist-entry', key),
    createdAt: hoursAgo(hours),
  })),
];

interface Envelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, any>;
}

const feed = async (brandId: string, key: string, after = '') => {
  const res = await t.rest('GET', `/v1/brands/${brandId}/events?limit=100${after ? `&after=${after}` : ''}`, { key });
  expect(res.status).toBe(200);
  return res.body as { data: Envelope[]; next: string | null; hasMore: boolean };
};
const eventsOf = async (resourceId: string) => (await feed(brands.lisbon, LISBON)).data.filter((e) => e.data.id === resourceId);

describe('the demo events feed', () => {
  it('lists two events per demo booking and one per waitlist entry, in the order they happened, at the seed times, under stable ids', async () => {
    const page = await feed(brands.lisbon, LISBON);
    expect(page.hasMore).toBe(false);
    expect(page.data).toHaveLength(10);
    expect(page.data.map((e) => ({ id: e.id, type: e.type, resourceId: e.data.id, createdAt: e.createdAt }))).toEqual(
      expected.map(({ key, type, resourceId, createdAt }) => ({ id: demoEventIds('lisbon', key)(type), type, resourceId, createdAt })),
    );
  });

  it('shows each booking as GET /v1/bookings/{id} does: processing when created, confirmed once paid, at its own creation time', async () => {
    for (const [key] of bookings) {
      const view = await t.rest('GET', `/v1/bookings/${bookingId(key)}`, { key: LISBON });
      expect(view.status).toBe(200);
      expect(view.body.status).toBe('confirmed');
      const [created, confirmed] = await eventsOf(bookingId(key));
      expect(created!.data).toEqual({ ...view.body, status: 'processing' });
      expect(confirmed!.data).toEqual(view.body);
      expect([created!.createdAt, confirmed!.createdAt]).toEqual([view.body.createdAt, view.body.createdAt]);
    }
  });

  it('shows each waitlist entry as the waitlist lists it, after the booking that sold the sail out', async () => {
    const soldOut = demoSoldOutSession(NOW);
    const waitlistId = demoId('lisbon', 'waitlist', 'tagus-sunset-sail');
    const url = `/v1/brands/${brands.lisbon}/waitlists/${waitlistId}/entries?sessionStartDateTime=${soldOut.startDateTime}`;
    const line = (await t.rest('GET', url, { key: LISBON })).body.data as Array<Record<string, unknown>>;
    const joined = (await feed(brands.lisbon, LISBON)).data.filter((e) => e.type === 'waitlist.entry_created');
    expect(line).toHaveLength(2);
    expect(joined.map((e) => e.data)).toEqual(line);
    expect(joined.map((e) => e.createdAt)).toEqual(line.map((entry) => entry.createdAt));
    const soldOutAt = (await eventsOf(bookingId('ferreira-friends')))[1]!.createdAt;
    expect(joined.every((e) => e.createdAt > soldOutAt)).toBe(true);
  });

  it('GraphQL `events` shows the same envelopes', async () => {
    const res = await t.gql(
      'query($b: UUID!) { events(brandId: $b, first: 100) { pageInfo { hasNextPage } edges { node { id: uuid type createdAt data } } } }',
      { b: brands.lisbon },
      { key: LISBON },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.events.pageInfo.hasNextPage).toBe(false);
    // The same envelopes (`id: uuid`: the envelope's raw id), GraphQL spelling the type as its EventType value
    // (`booking.created` is BOOKING_CREATED).
    const rest = (await feed(brands.lisbon, LISBON)).data.map((e: Envelope) => ({ ...e, type: e.type.toUpperCase().replace('.', '_') }));
    expect(res.body.data.events.edges.map((e: { node: Envelope }) => e.node)).toEqual(rest);
  });

  it('has no events for the other demo brands, which have no bookings', async () => {
    expect((await feed(brands.tokyo, 'sk_test_tokyo_demo')).data).toEqual([]);
    expect((await feed(brands.kayak, 'sk_test_kayak_demo')).data).toEqual([]);
  });

  it('keeps every outbox invariant (one booking.created each, the latest event shows the status)', async () => {
    expect(await invariantViolations(db)).toEqual([]);
  });

  it('gives the events the same ids when seeded on another day; only their times and payloads move', async () => {
    await seedDemoDataIfEmpty(later, new Date('2026-11-22T12:00:00.000Z'));
    const ids = (database: TestDb) => database.values('SELECT id FROM events ORDER BY sequence');
    expect(await ids(later)).toEqual(await ids(db));
    expect(await ids(db)).toHaveLength(10);
  });
});

describe('a webhook endpoint created on the demo', () => {
  it('gets no delivery of the demo history, as for any event older than it; changes after it are delivered', async () => {
    const created = await t.rest('POST', `/v1/brands/${brands.lisbon}/webhooks`, {
      key: LISBON,
      body: { url: 'https://hooks.partner.test/demo', events: ['*'] },
    });
    expect(created.status).toBe(201);
    const endpointId: string = created.body.endpoint.id;
    expect(await deliveriesOf(db, endpointId)).toEqual([]);
    const history = await feed(brands.lisbon, LISBON);

    const participants = [1, 2].map((n) => demoId('lisbon', 'participant', `whitaker-couple/${n}`));
    const cancel = await t.rest('POST', '/v1/bookings/cancel', {
      key: LISBON,
      body: { bookings: [{ bookingId: bookingId('whitaker-couple'), participants }] },
    });
    expect(cancel.status).toBe(200);
    const newer = (await feed(brands.lisbon, LISBON, history.next!)).data;
    expect(newer.map((e) => [e.type, e.data.id])).toEqual([
      ['booking.cancelled', bookingId('whitaker-couple')],
      ['waitlist.offered', demoId('lisbon', 'waitlist-entry', 'nakamura-couple')],
    ]);
    expect((await deliveriesOf(db, endpointId)).map((d) => [d.eventId, d.status])).toEqual(newer.map((e) => [e.id, 'pending']));
  });
});
