/** List and string limits added in the hardening pass, refused alike on both faces (the domain enforces them for GraphQL). */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventTypes } from '../../../src/domain/outbox/outbox.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const waitlist = await createWaitlist(db, (await createExperience(db, brand.id)).experience.id);
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

const ids = (count: number) => Array.from({ length: count }, () => randomUUID());

async function restError(method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await t.rest(method, url, { key, body });
  expect(res.status).toBe(400);
  return { code: res.body.error.code, field: res.body.error.details?.field, message: res.body.error.message };
}

async function gqlError(query: string, variables: Record<string, unknown>) {
  const res = await t.gql(query, { b: brand.id, ...variables }, { key });
  const [error] = res.body.errors;
  return { code: error.extensions.code, field: error.extensions.field, message: error.message };
}

describe('cancel: participant ids per item', () => {
  const cancel = `mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) { items { id } errors { index code field message } } }`;

  it('takes at most 100 (a booking holds no more): more is an error of that item', async () => {
    const bookings = [{ bookingId: randomUUID(), participants: ids(101) }];
    const expected = {
      index: 0,
      code: 'VALIDATION_FAILED',
      field: 'bookings.0.participants',
      message: 'bookings.0.participants must name at most 100 participants',
    };
    const rest = await t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings } });
    expect([rest.status, rest.body.items, rest.body.errors]).toEqual([200, [], [{ ...expected, bookingId: bookings[0]!.bookingId }]]);
    const graph = await t.gql(cancel, { input: { bookings } }, { key });
    expect(graph.body.data.cancelBookings).toEqual({ items: [], errors: [expected] });
  });
});

/** GraphQL spells an event type as its EventType value: `booking.created` is BOOKING_CREATED. */
const enumOf = (type: string) => type.toUpperCase().replace('.', '_');

describe('webhook endpoints: event types', () => {
  const create = `mutation($b: UUID!, $events: [EventType!]) { createWebhookEndpoint(brandId: $b, url: "http://127.0.0.1:9/x", events: $events) { secret } }`;

  it(`takes at most one entry per type (${eventTypes.length})`, async () => {
    const events = [...eventTypes, eventTypes[0]];
    const url = `/v1/brands/${brand.id}/webhooks`;
    expect(await restError('POST', url, { url: 'http://127.0.0.1:9/x', events })).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'events',
    });
    expect(await gqlError(create, { events: events.map(enumOf) })).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'events',
      message: `events must list at most ${eventTypes.length} event types`,
    });
  });
});

describe('events feed: filters and cursors', () => {
  const feed = `query($b: UUID!, $types: [EventType!], $after: String) { events(brandId: $b, types: $types, after: $after) { edges { cursor } } }`;
  const url = (query: string) => `/v1/brands/${brand.id}/events?${query}`;

  it('takes at most one type filter per type', async () => {
    const types = [...eventTypes, eventTypes[1]];
    const message = `types must name at most ${eventTypes.length} event types`;
    expect(await restError('GET', url(`types=${types.join(',')}`))).toEqual({ code: 'VALIDATION_FAILED', field: 'types', message });
    expect(await gqlError(feed, { types: types.map(enumOf) })).toEqual({ code: 'VALIDATION_FAILED', field: 'types', message });
  });

  it('refuses a type longer than any without echoing it back (GraphQL: not an EventType value)', async () => {
    const long = 'x'.repeat(65);
    const rest = await restError('GET', url(`types=${long}`));
    expect(rest).toEqual({ code: 'VALIDATION_FAILED', field: 'types', message: 'types: an entry is longer than 64 characters' });
    expect((await gqlError(feed, { types: [long] })).code).toBe('BAD_USER_INPUT');
    expect(await restError('GET', url(`types=${'a,'.repeat(400)}a`))).toMatchObject({ field: 'types' });
  });

  it('refuses a cursor longer than 512 characters before decoding it', async () => {
    const after = Buffer.from(JSON.stringify(['1'.padStart(600, '0')])).toString('base64url');
    expect(await restError('GET', url(`after=${after}`))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'after' });
    expect(await gqlError(feed, { after })).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'after',
      message: 'after is not a cursor issued by this API',
    });
  });
});

describe('waitlist entries: status filters', () => {
  const entries = `query($b: UUID!, $w: UUID!, $s: [WaitlistEntryStatus!]) { waitlist(brandId: $b, id: $w) { entries(statuses: $s) { id } } }`;

  it('take at most 10 (one per status, with room for repeats)', async () => {
    const path = `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries?${Array(11).fill('status=waiting').join('&')}`;
    expect(await restError('GET', path)).toMatchObject({ code: 'VALIDATION_FAILED', field: 'status' });
    expect(await gqlError(entries, { w: waitlist.id, s: Array(11).fill('WAITING') })).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'statuses',
      message: 'statuses must name at most 10 statuses',
    });
    const ten = await t.gql(entries, { b: brand.id, w: waitlist.id, s: Array(10).fill('WAITING') }, { key });
    expect(ten.body.data.waitlist.entries).toEqual([]);
  });
});

describe('query string lengths', () => {
  it('bounds include and language tags', async () => {
    const include = Array(20).fill('cancellationPolicy').join(',');
    expect(await restError('GET', `/v1/brands/${brand.id}/settings?include=${include}`)).toMatchObject({ field: 'include' });
    expect(await restError('GET', `/v3/listings/featured?locale=en-${'abcdefgh-'.repeat(4)}x1`)).toMatchObject({ field: 'locale' });
  });
});
