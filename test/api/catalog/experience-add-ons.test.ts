/** The experience document's add-ons: read by GET, written back whole by PATCH, sold by the next checkout at the new price. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../support/db.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { guest } from '../../support/checkout.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { createBrandFamily } from '../../../fixtures/factories/brands.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createHost } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const { brand, keys } = await createBrandFamily(db);
const host = await createHost(db, brand.id, { firstName: 'Rita', lastName: 'Sousa' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(CHECKOUT_NOW), holdTtlSeconds: 900 });
});

const base = `/v1/brands/${brand.id}/experiences`;

const document = (overrides: Record<string, unknown> = {}) => ({
  title: 'Sunset Sail',
  slug: `sunset-sail-${randomUUID().slice(0, 8)}`,
  headline: 'The river at dusk',
  description: 'Two hours on the Tagus.',
  category: { name: 'Boat tours' },
  location: { longitude: -9.1393, latitude: 38.7223, name: 'Doca de Alcântara', timezoneId: 'Europe/Lisbon', additionalInfo: '' },
  maxParticipantsCount: 8,
  sessionDurationMinutes: 120,
  coverPicture: { uri: { original: 'https://cdn.example/sail.jpg' } },
  bookingAvailabilityMode: 'group',
  healthAndSafety: '',
  type: 'tour',
  hostedBy: { id: host.id },
  priceTiers: [{ name: 'Adult', price: 40 }],
  ...overrides,
});

const create = (body: unknown) => t.rest('POST', base, { key: keys.brand, body });
const read = (id: string) => t.rest('GET', `${base}/${id}`, { key: keys.brand });
const patch = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  t.rest('PATCH', `${base}/${id}`, { key: keys.brand, body, headers: { authorization: `Bearer ${keys.brand}`, ...headers } });
const checkout = (experienceId: string, addOnId: string, quantity = 1) =>
  t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
    key: keys.brand,
    body: {
      data: [{ experienceId, sessionTime: '2027-01-12T10:00', participants: [guest('Ana')], listingAddOns: [{ addOnId, quantity }] }],
    },
  });
const amounts = async (experienceId: string) =>
  (
    await db.all<{ amountMinor: number }>(
      'SELECT amount_minor AS "amountMinor" FROM bookings WHERE experience_id = ? ORDER BY amount_minor',
      experienceId,
    )
  ).map((r) => r.amountMinor);

describe('addOns in the experience document', () => {
  it('round-trips GET -> edit -> PATCH: ids kept, a new add-on sold at once, a new price for new quotes only', async () => {
    const made = await create(document({ addOns: [{ name: 'Wine', price: 12.5 }] }));
    expect(made.status).toBe(201);
    const id = made.body.id;
    const [wine] = made.body.addOns;
    expect(made.body.addOns).toEqual([{ id: wine.id, name: 'Wine', price: 12.5 }]);
    await createSession(db, { id, timezoneId: 'Europe/Lisbon' }, { startLocal: '2027-01-12T10:00:00' });
    const held = await checkout(id, wine.id, 2);
    expect(held.status).toBe(201);
    // 40 + 2 x 12.50.
    expect(await amounts(id)).toEqual([6500]);

    const got = await read(id);
    expect(got.body.addOns).toEqual(made.body.addOns);
    const changed = await patch(
      id,
      {
        addOns: [
          { ...got.body.addOns[0], price: 15 },
          { name: 'Blanket', price: 3 },
        ],
      },
      { 'if-match': String(got.headers.etag) },
    );
    expect([changed.status, changed.headers.etag]).toEqual([200, '"2"']);
    const [kept, blanket] = changed.body.addOns;
    expect(changed.body.addOns).toEqual([
      { id: wine.id, name: 'Wine', price: 15 },
      { id: blanket.id, name: 'Blanket', price: 3 },
    ]);
    expect(kept.id).toBe(wine.id);
    expect((await read(id)).body.addOns).toEqual(changed.body.addOns);
    const gql = await t.gql(
      `query ($brandId: UUID!, $id: UUID!) { experience(brandId: $brandId, id: $id) { addOns { addOnId name price } } }`,
      { brandId: brand.id, id },
      { key: keys.brand },
    );
    expect(gql.body.data.experience.addOns).toEqual([
      { addOnId: wine.id, name: 'Wine', price: 15 },
      { addOnId: blanket.id, name: 'Blanket', price: 3 },
    ]);

    // The held cart keeps its price; the next checkout sells at the new one, and the new add-on.
    expect(await amounts(id)).toEqual([6500]);
    expect((await checkout(id, wine.id, 2)).status).toBe(201);
    expect((await checkout(id, blanket.id)).status).toBe(201);
    expect(await amounts(id)).toEqual([4300, 6500, 7000]);

    // Removed: no longer sold.
    const removed = await patch(id, { addOns: [changed.body.addOns[1]] });
    expect(removed.body.addOns).toEqual([{ id: blanket.id, name: 'Blanket', price: 3 }]);
    const gone = await checkout(id, wine.id);
    expect([gone.status, gone.body.error.code, gone.body.error.details.field]).toEqual([
      422,
      'UNKNOWN_ADD_ON',
      'data.0.listingAddOns.0.addOnId',
    ]);
    expect(await amounts(id)).toEqual([4300, 6500, 7000]);
  });

  it.each([
    [[{ name: 'Wine', price: -1 }], 'addOns.0.price'],
    [[{ name: 'Wine', price: 1.005 }], 'addOns.0.price'],
    [[{ name: 'Wine', price: '12' }], 'addOns.0.price'],
    [[{ name: '', price: 1 }], 'addOns.0.name'],
    [
      [
        { name: 'Wine', price: 1 },
        { name: 'Wine', price: 2 },
      ],
      'addOns.1.name',
    ],
    [[{ id: randomUUID(), name: 'Wine', price: 1 }], 'addOns.0.id'],
  ])('refuses %j naming %s, writing nothing', async (list, field) => {
    const id = (await create(document({ addOns: [{ name: 'Map', price: 1 }] }))).body.id;
    const res = await patch(id, { addOns: list });
    expect([res.status, res.body.error.code, res.body.error.details.field]).toEqual([400, 'VALIDATION_FAILED', field]);
    const got = await read(id);
    expect([got.headers.etag, got.body.addOns.map((a: { name: string }) => a.name)]).toEqual(['"1"', ['Map']]);
  });

  it('412s a stale If-Match and keeps the add-ons', async () => {
    const made = (await create(document({ addOns: [{ name: 'Map', price: 1 }] }))).body;
    expect((await patch(made.id, { title: 'Moved on' })).status).toBe(200);
    const stale = await patch(made.id, { addOns: [] }, { 'if-match': '"1"' });
    expect([stale.status, stale.body.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await read(made.id)).body.addOns).toEqual(made.addOns);
  });
});
