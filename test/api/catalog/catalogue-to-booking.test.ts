/**
 * Issue 35's "done when", through HTTP alone: from an empty brand (no hosts, no experiences) to a sold booking
 * (host, experience, a daily schedule across Lisbon's spring-forward night, a published listing, a checkout paid
 * in the sandbox), then a price and a capacity change, and the session cancelled with its booking
 * refunded and every step in the brand's events feed, in order.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb } from '../../support/db.ts';
import { TestProcessor } from '../../support/processors.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';

const clock = { now: new Date(CHECKOUT_NOW) };
const db = await freshDb();
const brand = await createBrand(db, { name: 'Coast Lisbon', currency: 'EUR' });
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const payments = new TestProcessor({ now: () => clock.now });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => clock.now, payments, holdTtlSeconds: 900 });
});

const v1 = `/v1/brands/${brand.id}`;
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.rest(method, url, { key, body });

interface Slot {
  id: string;
  startDateTime: string;
  capacity: number;
  remaining: number;
}
const availability = async (experienceId: string, from: string, to: string) =>
  ((await call('GET', `${v1}/experiences/${experienceId}/availability?from=${from}&to=${to}`)).body.data as Slot[]).map((s) => [
    s.startDateTime,
    s.capacity,
    s.remaining,
  ]);
/** Whether a session is still on sale at `instant` (availability leaves out a session once it has started). */
const onSaleAt = async (experienceId: string, day: string, instant: string) => {
  clock.now = new Date(instant);
  try {
    return (await availability(experienceId, day, day)).length === 1;
  } finally {
    clock.now = new Date(CHECKOUT_NOW);
  }
};
const participants = [
  { firstName: 'Ana', lastName: 'Silva', emailAddress: 'ana@example.test', priceTierName: 'Adult' },
  { firstName: 'Rui', lastName: 'Silva', priceTierName: 'Child' },
];
const item = (experienceId: string) => ({ experienceId, sessionTime: '2027-03-29T10:00', participants });

describe('from an empty brand to a sold booking, through the API alone', () => {
  it('creates, schedules across the DST change, publishes, sells, reprices, resizes and cancels, each step in the events feed', async () => {
    expect((await call('GET', '/v3/listings/featured?version=latest')).body).toEqual({ data: [] });
    expect((await call('GET', `${v1}/hosts`)).body).toEqual({ data: [] });

    // The host who leads it.
    const hostCreated = await call('POST', `${v1}/hosts`, {
      firstName: 'Rita',
      lastName: 'Sousa',
      emailAddress: 'rita@coast.test',
      description: 'Skipper on the Tagus.',
      profilePicture: { uri: { original: 'https://cdn.example/rita.jpg' }, altText: 'Rita at the helm' },
    });
    expect(hostCreated.status).toBe(201);
    const host = hostCreated.body.data as { id: string };

    // The experience.
    const created = await call('POST', `${v1}/experiences`, {
      title: 'Sunset Sail',
      slug: 'sunset-sail',
      headline: 'The river at dusk',
      description: 'Two hours on the Tagus.',
      healthAndSafety: 'Life jackets provided.',
      category: { name: 'Boat tours' },
      hostedBy: { id: host.id },
      location: { longitude: -9.1393, latitude: 38.7223, name: 'Doca de Alcântara', timezoneId: 'Europe/Lisbon' },
      maxParticipantsCount: 8,
      sessionDurationMinutes: 120,
      coverPicture: { uri: { original: 'https://cdn.example/sail.jpg' }, altText: 'A sailboat at sunset' },
      bookingAvailabilityMode: 'group',
      providedItems: ['Life jackets'],
      type: 'tour',
      paymentMethods: ['credit-card'],
      priceTiers: [
        { name: 'Adult', price: 45.5 },
        { name: 'Child', price: 20 },
      ],
      taxes: [{ name: 'VAT', amount: 23 }],
    });
    expect(created.status).toBe(201);
    expect(created.headers.etag).toBe('"1"');
    expect(created.body).toMatchObject({
      title: 'Sunset Sail',
      currency: 'EUR',
      status: 'active',
      location: { timezoneId: 'Europe/Lisbon' },
      category: { name: 'Boat tours' },
      priceTiers: [
        { name: 'Adult', price: 45.5 },
        { name: 'Child', price: 20 },
      ],
    });
    const experienceId = created.body.id as string;

    // Sessions every day at 10:00 Lisbon time, across the last Sunday of March (2027-03-28).
    const scheduled = await call('POST', `${v1}/experiences/${experienceId}/sessions`, {
      schedule: { rrule: 'FREQ=DAILY', from: '2027-03-23', until: '2027-04-01', startTimes: ['10:00'] },
      capacity: 6,
    });
    expect(scheduled.status).toBe(201);
    expect(scheduled.body.existing).toEqual([]);
    expect(
      scheduled.body.data.map((s: Slot & { timezone: string; duration: number }) => [s.startDateTime, s.timezone, s.duration, s.capacity]),
    ).toEqual(
      ['23', '24', '25', '26', '27', '28', '29', '30', '31', '01'].map((d) => [
        `2027-0${d === '01' ? 4 : 3}-${d}T10:00:00`,
        'Europe/Lisbon',
        120,
        6,
      ]),
    );
    const sessionId = scheduled.body.data.find((s: Slot) => s.startDateTime === '2027-03-29T10:00:00').id as string;
    // The UTC instants: a session leaves sale at its start. 10:00 UTC before the change (UTC+0), 09:00 UTC from its day on (UTC+1).
    expect(await onSaleAt(experienceId, '2027-03-27', '2027-03-27T09:59:59.999Z')).toBe(true);
    expect(await onSaleAt(experienceId, '2027-03-27', '2027-03-27T10:00:00.000Z')).toBe(false);
    expect(await onSaleAt(experienceId, '2027-03-28', '2027-03-28T08:59:59.999Z')).toBe(true);
    expect(await onSaleAt(experienceId, '2027-03-28', '2027-03-28T09:00:00.000Z')).toBe(false);
    expect(await onSaleAt(experienceId, '2027-03-29', '2027-03-29T08:59:59.999Z')).toBe(true);
    expect(await onSaleAt(experienceId, '2027-03-29', '2027-03-29T09:00:00.000Z')).toBe(false);
    // Posting the same schedule again makes nothing new.
    const again = await call('POST', `${v1}/experiences/${experienceId}/sessions`, {
      schedule: { rrule: 'FREQ=DAILY', from: '2027-03-23', until: '2027-04-01', startTimes: ['10:00'] },
      capacity: 6,
    });
    expect([again.status, again.body.data, again.body.existing.length]).toEqual([201, [], 10]);

    // The listing: a draft guests do not see, then published and featured.
    const listing = await call('POST', `${v1}/listings`, {
      experienceId,
      title: 'Sunset Sail',
      summary: 'Two hours at dusk',
      advertisedPrice: 45.5,
      startingPrice: 20,
    });
    expect(listing.status).toBe(201);
    const listingId = listing.body.data.id as string;
    expect((await call('GET', '/v3/listings/featured')).body).toEqual({ data: [] });
    const published = await call('POST', `${v1}/listings/${listingId}/publish`);
    expect(published.status).toBe(200);
    const featured = (await call('GET', '/v3/listings/featured')).body.data;
    expect(
      featured.map((l: Record<string, unknown>) => [
        l.id,
        l.experienceId,
        l.title,
        l.summary,
        l.advertisedPrice,
        l.startingPrice,
        l.isFeatured,
      ]),
    ).toEqual([[listingId, experienceId, 'Sunset Sail', 'Two hours at dusk', 45.5, 20, true]]);

    // A booking: checkout with the secret key, paid in the sandbox. 45.50 + 20.00 = 65.50, VAT 23 % 15.07: 80.57.
    const cartId = randomUUID();
    const checkout = await call('POST', `${v1}/carts/${cartId}/payment_intents`, { data: [item(experienceId)] });
    expect(checkout.status).toBe(201);
    expect(checkout.body.totalNetAmount).toBe(80.57);
    const bookingId = checkout.body.bookings[0].id as string;
    const confirmed = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
      body: { paymentIntentSecret: checkout.body.paymentIntentSecret, outcome: 'succeeded' },
    });
    expect(confirmed.body).toEqual({ paymentIntentStatus: 'succeeded' });
    const booking = async () => (await call('GET', `/v1/bookings/${bookingId}`)).body;
    expect(await booking()).toMatchObject({
      status: 'confirmed',
      amount: 80.57,
      amountRefunded: 0,
      currency: 'EUR',
      event: { timezone: 'Europe/Lisbon', startDateTime: '2027-03-29T10:00:00' },
      experience: { id: experienceId, title: 'Sunset Sail' },
    });
    expect(await availability(experienceId, '2027-03-29', '2027-03-29')).toEqual([['2027-03-29T10:00:00', 6, 4]]);

    // A new price reaches the next quote only: (50 + 20) * 1.23 = 86.10; the booking keeps 80.57.
    const repriced = await call('PATCH', `${v1}/experiences/${experienceId}`, {
      priceTiers: [
        { name: 'Adult', price: 50 },
        { name: 'Child', price: 20 },
      ],
    });
    expect([repriced.status, repriced.headers.etag, repriced.body.priceTiers]).toEqual([
      200,
      '"2"',
      [
        { name: 'Adult', price: 50 },
        { name: 'Child', price: 20 },
      ],
    ]);
    const quote = await call('POST', `${v1}/carts/${randomUUID()}/payment_intents`, {
      getOnlyTotalNetAmount: true,
      data: [item(experienceId)],
    });
    expect([quote.status, quote.body]).toEqual([200, { totalNetAmount: 86.1 }]);
    expect(await booking()).toMatchObject({ status: 'confirmed', amount: 80.57, amountRefunded: 0 });

    // Capacity: never under the two places sold; down to 4, availability shows 2 left.
    const tooSmall = await call('PATCH', `${v1}/sessions/${sessionId}`, { capacity: 1 });
    expect([tooSmall.status, tooSmall.body.error.code, tooSmall.body.error.details.taken]).toEqual([409, 'CAPACITY_BELOW_TAKEN', 2]);
    const resized = await call('PATCH', `${v1}/sessions/${sessionId}`, { capacity: 4 });
    expect(resized.status).toBe(200);
    expect(await availability(experienceId, '2027-03-29', '2027-03-29')).toEqual([['2027-03-29T10:00:00', 4, 2]]);

    // Cancel the day's tour: the booking is cancelled and refunded in full, the session no longer sold.
    const cancelled = await call('POST', `${v1}/sessions/${sessionId}/cancel`, { reason: 'Storm warning' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.errors).toEqual([]);
    expect(
      cancelled.body.bookings.map((b: { id: string; status: string; amountRefunded: number }) => [b.id, b.status, b.amountRefunded]),
    ).toEqual([[bookingId, 'refunded', 80.57]]);
    expect(await booking()).toMatchObject({ status: 'refunded', amount: 80.57, amountRefunded: 80.57 });
    expect(payments.refundCalls.map((r) => [r.amountMinor, r.currency])).toEqual([[8057, 'EUR']]);
    expect(await availability(experienceId, '2027-03-28', '2027-03-30')).toEqual([
      ['2027-03-28T10:00:00', 6, 6],
      ['2027-03-30T10:00:00', 6, 6],
    ]);
    const late = await call('POST', `${v1}/carts/${randomUUID()}/payment_intents`, { data: [item(experienceId)] });
    expect([late.status, late.body.error.code]).toEqual([409, 'SESSION_CANCELLED']);

    // Every step in the brand's events feed, in order.
    const events = (await call('GET', `${v1}/events?limit=100`)).body;
    const types = events.data.map((e: { type: string }) => e.type);
    expect(types).toEqual([
      'host.created',
      'experience.created',
      ...Array<string>(10).fill('session.created'),
      'listing.created',
      'listing.published',
      'booking.created',
      'booking.confirmed',
      'experience.updated',
      'session.updated',
      'session.cancelled',
      'booking.cancelled',
      'booking.refunded',
    ]);
    expect(events.data[0].data).toEqual(hostCreated.body.data);
    const data = events.data.slice(1).map((e: { data: Record<string, unknown> }) => e.data);
    expect(data[0]).toMatchObject({ id: experienceId, version: 1 });
    expect(data.slice(1, 11).map((d: { startDateTime: string }) => d.startDateTime)).toEqual(
      scheduled.body.data.map((s: Slot) => s.startDateTime),
    );
    expect(data.slice(11, 13).map((d: { id: string; title: string }) => [d.id, d.title])).toEqual([
      [listingId, 'Sunset Sail'],
      [listingId, 'Sunset Sail'],
    ]);
    expect(data.slice(13, 15).map((d: { id: string; status: string; amount: number }) => [d.id, d.status, d.amount])).toEqual([
      [bookingId, 'processing', 80.57],
      [bookingId, 'confirmed', 80.57],
    ]);
    expect(data[15]).toMatchObject({
      id: experienceId,
      version: 2,
      priceTiers: [
        { name: 'Adult', price: 50 },
        { name: 'Child', price: 20 },
      ],
    });
    expect(data[16]).toMatchObject({ id: sessionId, capacity: 4, previousCapacity: 6 });
    expect(data[17]).toMatchObject({ id: sessionId, status: 'cancelled', experienceId });
    // Both carry the booking as the cancellation left it (one unit of work): refunded in full.
    expect(data.slice(18).map((d: { id: string; status: string; amountRefunded: number }) => [d.id, d.status, d.amountRefunded])).toEqual([
      [bookingId, 'refunded', 80.57],
      [bookingId, 'refunded', 80.57],
    ]);
  });
});
