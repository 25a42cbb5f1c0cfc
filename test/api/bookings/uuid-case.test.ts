/**
 * UUIDs match in any case (issue 34, item 11): an upper-case id of an existing booking, brand or
 * experience names it on both faces, in paths, arguments and bodies, with secret and publishable keys.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const brand = await createBrand(db, { name: 'Coast Lisbon', currency: 'EUR' });
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const sail = (await createExperience(db, brand.id, { title: 'Sunset Sail', timezoneId: 'Europe/Lisbon' })).experience;
const session = await createSession(db, sail, { startLocal: '2026-12-01T09:00:00' });
const { booking, participants } = await createBooking(db, {
  brandId: brand.id,
  session,
  participants: [{ firstName: 'Ana' }, { firstName: 'Rita' }],
});
const upper = (id: string) => id.toUpperCase();
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2026-11-25T12:00:00.000Z') });
});

describe('an upper-case booking id', () => {
  it('reads the booking through REST', async () => {
    const res = await t.rest('GET', `/v1/bookings/${upper(booking.id)}`, { key: secret });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: booking.id, confirmationCode: booking.confirmationCode });
  });

  it('reads the booking through GraphQL, as an argument and as a variable', async () => {
    const literal = await t.gql(`{ booking(id: "${upper(booking.id)}") { uuid confirmationCode } }`, {}, { key: secret });
    expect(literal.body).toEqual({ data: { booking: { uuid: booking.id, confirmationCode: booking.confirmationCode } } });
    const variable = await t.gql(`query($id: UUID!) { booking(id: $id) { uuid } }`, { id: upper(booking.id) }, { key: secret });
    expect(variable.body).toEqual({ data: { booking: { uuid: booking.id } } });
  });

  it('cancels a participant named in upper case through REST', async () => {
    const res = await t.rest('POST', '/v1/bookings/cancel', {
      key: secret,
      body: { bookings: [{ bookingId: upper(booking.id), participants: [upper(participants[1]!.id)] }] },
    });
    expect(res.status).toBe(200);
    const read = await t.rest('GET', `/v1/bookings/${booking.id}`, { key: secret });
    const cancelled = read.body.participants.map((p: { id: string; cancelledAt: string | null }) => [p.id, p.cancelledAt !== null]);
    expect(cancelled).toEqual([
      [participants[0]!.id, false],
      [participants[1]!.id, true],
    ]);
  });
});

describe('upper-case brand and experience ids with a publishable key', () => {
  it('read the experience and its availability through REST', async () => {
    const experience = await t.rest('GET', `/v1/brands/${upper(brand.id)}/experiences/${upper(sail.id)}`, { key: publishable });
    expect([experience.status, experience.body.id, experience.body.title]).toEqual([200, sail.id, 'Sunset Sail']);
    const availability = await t.rest(
      'GET',
      `/v1/brands/${upper(brand.id)}/experiences/${upper(sail.id)}/availability?from=2026-12-01&to=2026-12-01`,
      { key: publishable },
    );
    expect(availability.status).toBe(200);
    expect(availability.body.data.map((s: { id: string }) => s.id)).toEqual([session.id]);
  });

  it('read the experience through GraphQL', async () => {
    const res = await t.gql(
      `query($b: UUID!, $e: UUID!) { experience(brandId: $b, id: $e) { uuid title } }`,
      { b: upper(brand.id), e: upper(sail.id) },
      { key: publishable },
    );
    expect(res.body).toEqual({ data: { experience: { uuid: sail.id, title: 'Sunset Sail' } } });
  });
});
