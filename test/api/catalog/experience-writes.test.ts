/** Writing experiences through the API: create, merge-patch with If-Match, archive; both faces, secret keys only. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../support/db.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { checkoutRows, guest } from '../../support/checkout.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { createBrandFamily, createCancellationPolicy, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createCategory, createHost, createVibe } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const { brand, sister, keys } = await createBrandFamily(db);
const host = await createHost(db, brand.id, { firstName: 'Rita', lastName: 'Sousa' });
const sisterHost = await createHost(db, sister.id);
const sisterCategory = await createCategory(db, sister.id, 'Food');
const relaxing = await createVibe(db, brand.id, 'Relaxing');
const policy = await createCancellationPolicy(db, brand.id);
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
const rows = checkoutRows(db);
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(CHECKOUT_NOW), holdTtlSeconds: 900 });
});

const base = `/v1/brands/${brand.id}/experiences`;

/** A document as a client writes it (what GET answers, less `id`). */
const document = (overrides: Record<string, unknown> = {}) => ({
  title: 'Sunset Sail',
  slug: `sunset-sail-${randomUUID().slice(0, 8)}`,
  headline: 'The river at dusk',
  description: 'Two hours on the Tagus.',
  translations: {
    pt: { title: 'Vela ao Pôr do Sol', headline: 'O rio ao anoitecer', description: 'Duas horas no Tejo.', healthAndSafety: 'Coletes.' },
  },
  vibes: [{ id: relaxing.id, name: 'Relaxing' }, { name: 'Romantic' }],
  category: { name: 'Boat tours' },
  location: { longitude: -9.1393, latitude: 38.7223, name: 'Doca de Alcântara', timezoneId: 'Europe/Lisbon', additionalInfo: 'Pier 3' },
  maxParticipantsCount: 8,
  sessionDurationMinutes: 120,
  coverPicture: { uri: { original: 'https://cdn.example/sail.jpg' }, altText: 'A sailboat at sunset' },
  pictures: [{ uri: { original: 'https://cdn.example/deck.png', '480w': 'https://cdn.example/deck-480.png' } }],
  bookingAvailabilityMode: 'group',
  providedItems: ['Life jackets'],
  healthAndSafety: 'Life jackets provided.',
  isExclusive: false,
  isBookable: true,
  isUnlisted: false,
  type: 'tour',
  hostedBy: { id: host.id },
  paymentMethods: ['credit-card'],
  priceTiers: [
    { name: 'Adult', price: 45.5 },
    { name: 'Child', price: 20 },
  ],
  taxes: [{ name: 'VAT', amount: 23 }],
  integrationMeta: [],
  cancellationPolicyId: policy.id,
  ...overrides,
});

const create = (body: unknown = document(), key = keys.brand, brandId = brand.id) =>
  t.rest('POST', `/v1/brands/${brandId}/experiences`, { key, body });
const read = (id: string, query = '', key = keys.brand) => t.rest('GET', `${base}/${id}${query}`, { key });
const patch = (id: string, body: unknown, headers: Record<string, string> = {}, key = keys.brand) =>
  t.rest('PATCH', `${base}/${id}`, { key, body, headers: { authorization: `Bearer ${key}`, ...headers } });

const eventsOf = async (id: string) =>
  (
    await t.rest('GET', `/v1/brands/${brand.id}/events?types=experience.created,experience.updated,experience.archived`, {
      key: keys.brand,
    })
  ).body.data
    .filter((e: { data: { id: string } }) => e.data.id === id)
    .map((e: { type: string; data: { title: string; status: string } }) => [e.type, e.data.title, e.data.status]);

describe('POST /v1/brands/{brandId}/experiences', () => {
  it('creates an experience in a brand with none and reads back what was sent', async () => {
    const sent = document();
    const res = await create(sent);
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.headers.location).toBe(`${base}/${id}`);
    expect(res.headers.etag).toBe('"1"');
    const got = await read(id);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe('"1"');
    expect(got.body).toEqual(res.body);
    const { translations: _t, ...shown } = sent;
    const romantic = got.body.vibes[1];
    expect(got.body).toEqual({
      ...shown,
      id,
      vibes: [
        { id: relaxing.id, name: 'Relaxing' },
        { id: romantic.id, name: 'Romantic' },
      ],
      category: { id: got.body.category.id, name: 'Boat tours' },
      currency: 'EUR',
      coverPicture: { id: got.body.coverPicture.id, uri: { original: 'https://cdn.example/sail.jpg' }, altText: 'A sailboat at sunset' },
      pictures: [
        { id: got.body.pictures[0].id, uri: { original: 'https://cdn.example/deck.png', '480w': 'https://cdn.example/deck-480.png' } },
      ],
      medias: [got.body.coverPicture, got.body.pictures[0]],
      hostedBy: got.body.hostedBy,
      addOns: [],
      customQuestions: [],
      status: 'active',
    });
    expect(got.body.hostedBy.id).toBe(host.id);
    const pt = await read(id, '?language=pt');
    expect([pt.body.title, pt.body.headline, pt.body.healthAndSafety, pt.headers['content-language']]).toEqual([
      'Vela ao Pôr do Sol',
      'O rio ao anoitecer',
      'Coletes.',
      'pt',
    ]);
    expect(await eventsOf(id)).toEqual([['experience.created', 'Sunset Sail', 'active']]);
  });

  it('takes back the document GET answered (less id) as a new experience', async () => {
    const first = (await create()).body;
    const { id: _id, ...again } = first;
    const res = await create({ ...again, slug: 'copied' });
    expect(res.status).toBe(201);
    expect({ ...res.body, id: first.id, slug: first.slug }).toEqual(first);
  });

  it.each([
    [{ priceTiers: [{ name: 'Adult', price: -1 }] }, 'priceTiers.0.price'],
    [
      {
        priceTiers: [
          { name: 'Adult', price: 45 },
          { name: 'Child', price: 12.345 },
        ],
      },
      'priceTiers.1.price',
    ],
    [{ taxes: [{ name: 'VAT', amount: -5 }] }, 'taxes.0.amount'],
    [{ location: { longitude: 0, latitude: 0, name: 'X', timezoneId: 'Europe/Atlantis' } }, 'location.timezoneId'],
    [
      { translations: { 'zz-not-a-tag!': { title: 'x', headline: '', description: '', healthAndSafety: '' } } },
      'translations.zz-not-a-tag!',
    ],
    [{ translations: { qqq: { title: 'x', headline: '', description: '', healthAndSafety: '' } } }, 'translations.qqq'],
    [{ hostedBy: { id: sisterHost.id } }, 'hostedBy.id'],
    [{ category: { id: sisterCategory.id } }, 'category.id'],
    [{ title: '' }, 'title'],
    [{ maxParticipantsCount: 0 }, 'maxParticipantsCount'],
    [{ paymentMethods: ['bitcoin'] }, 'paymentMethods.0'],
  ])('refuses %j naming %s, writing nothing', async (overrides, field) => {
    const before = await rows.count('experiences');
    const res = await create(document(overrides));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.field).toBe(field);
    expect(await rows.count('experiences')).toBe(before);
  });

  it("is FORBIDDEN to a publishable key and to another brand's key; an organization key writes for its brands", async () => {
    const before = await rows.count('experiences');
    const withPublishable = await create(document(), publishable);
    expect([withPublishable.status, withPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const outsider = await create(document(), keys.outsider);
    expect([outsider.status, outsider.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(await rows.count('experiences')).toBe(before);
    const byOrg = await create(document(), keys.org);
    expect(byOrg.status).toBe(201);
  });
});

describe('PATCH /v1/brands/{brandId}/experiences/{experienceId}', () => {
  it('merges the patch (arrays whole, null removes), moves the ETag, and 412s a stale If-Match without changing anything', async () => {
    const id = (await create()).body.id;
    // Read (and kept by the response cache) before the change: the next read shows the change.
    expect((await read(id)).body.title).toBe('Sunset Sail');
    const ok = await patch(
      id,
      {
        title: 'Sunset Sail & Wine',
        priceTiers: [{ name: 'Adult', price: 50 }],
        translations: { pt: null, de: { title: 'Segeln', headline: 'h', description: 'd', healthAndSafety: 's' } },
        cancellationPolicyId: null,
      },
      { 'if-match': '"1"', 'content-type': 'application/merge-patch+json' },
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.etag).toBe('"2"');
    expect([ok.body.title, ok.body.priceTiers, ok.body.taxes, ok.body.cancellationPolicyId]).toEqual([
      'Sunset Sail & Wine',
      [{ name: 'Adult', price: 50 }],
      [{ name: 'VAT', amount: 23 }],
      undefined,
    ]);
    expect((await read(id, '?language=pt')).body.title).toBe('Sunset Sail & Wine');
    expect((await read(id, '?language=de')).body.title).toBe('Segeln');
    const got = await read(id);
    expect([got.headers.etag, got.body.title]).toEqual(['"2"', 'Sunset Sail & Wine']);

    const stale = await patch(id, { title: 'Lost update' }, { 'if-match': '"1"' });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('PRECONDITION_FAILED');
    expect(stale.body.error.details).toEqual({ field: 'If-Match', etag: '"2"' });
    const after = await read(id);
    expect([after.headers.etag, after.body.title]).toEqual(['"2"', 'Sunset Sail & Wine']);
    expect(await eventsOf(id)).toEqual([
      ['experience.created', 'Sunset Sail', 'active'],
      ['experience.updated', 'Sunset Sail & Wine', 'active'],
    ]);
  });

  it('lets one of three writers racing on the same If-Match win; the others get 412 and writes nothing', async () => {
    const id = (await create()).body.id;
    const answers = await Promise.all(
      ['Morning Sail', 'Evening Sail', 'Night Sail'].map((title) =>
        patch(id, { title, priceTiers: [{ name: title, price: 10 }] }, { 'if-match': '"1"' }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!.body.title;
    const got = await read(id);
    expect([got.headers.etag, got.body.title, got.body.priceTiers]).toEqual(['"2"', winner, [{ name: winner, price: 10 }]]);
    expect((await eventsOf(id)).map((e: string[]) => e[0])).toEqual(['experience.created', 'experience.updated']);
  });

  it('reads If-Match as RFC 9110 says: *, a list naming the current tag, a weak tag never matches, garbage is 400', async () => {
    const id = (await create()).body.id;
    const any = await patch(id, { title: 'Any' }, { 'if-match': '*' });
    expect([any.status, any.headers.etag]).toEqual([200, '"2"']);
    const listed = await patch(id, { title: 'Listed' }, { 'if-match': '"1", "2"' });
    expect([listed.status, listed.headers.etag]).toEqual([200, '"3"']);
    const weak = await patch(id, { title: 'Weak' }, { 'if-match': 'W/"3"' });
    expect([weak.status, weak.body.error.details]).toEqual([412, { field: 'If-Match', etag: '"3"' }]);
    const garbage = await patch(id, { title: 'Garbage' }, { 'if-match': '3' });
    expect([garbage.status, garbage.body.error.code, garbage.body.error.details.field]).toEqual([400, 'VALIDATION_FAILED', 'If-Match']);
    const got = await read(id);
    expect([got.headers.etag, got.body.title]).toEqual(['"3"', 'Listed']);
  });

  it('names the field of a bad patch and changes nothing', async () => {
    const id = (await create()).body.id;
    const res = await patch(id, { priceTiers: [{ name: 'Adult', price: 10.001 }] });
    expect([res.status, res.body.error.details.field]).toEqual([400, 'priceTiers.0.price']);
    const got = await read(id);
    expect([got.headers.etag, got.body.priceTiers]).toEqual([
      '"1"',
      [
        { name: 'Adult', price: 45.5 },
        { name: 'Child', price: 20 },
      ],
    ]);
  });

  it("answers NOT_FOUND for another brand's experience named under this brand", async () => {
    const made = await create(
      document({ hostedBy: { id: sisterHost.id }, vibes: [], cancellationPolicyId: null, priceTiers: [{ name: 'Adult', price: 4500 }] }),
      keys.sister,
      sister.id,
    );
    expect(made.status).toBe(201);
    const theirs = made.body.id;
    const res = await patch(theirs, { title: 'Mine now' });
    expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const withPublishable = await patch(theirs, { title: 'Mine now' }, {}, publishable);
    expect([withPublishable.status, withPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('archiving and prices', () => {
  const at = (s: { startLocal: string }) => s.startLocal.slice(0, 16);
  const checkout = (experienceId: string, sessionTime: string) =>
    t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key: keys.brand,
      body: { data: [{ experienceId, sessionTime, participants: [guest('Ana')] }] },
    });

  it('a price change reaches new quotes only: the held cart keeps what it was sold for', async () => {
    const experience = (await create()).body;
    const session = await createSession(db, { id: experience.id, timezoneId: 'Europe/Lisbon' }, { startLocal: '2027-01-12T10:00:00' });
    const held = await checkout(experience.id, at(session));
    expect(held.status).toBe(201);
    const cartId = held.body.cartId ?? held.body.data?.[0]?.cartId;
    const heldRows = await db.all<{ amountMinor: number; cartId: string }>(
      'SELECT b.amount_minor AS "amountMinor", b.cart_id AS "cartId" FROM bookings b WHERE b.experience_id = ?',
      experience.id,
    );
    // 45.50 + 23 % VAT.
    expect(heldRows.map((r) => r.amountMinor)).toEqual([5597]);
    expect(cartId === undefined || heldRows[0]!.cartId === cartId).toBe(true);

    const changed = await patch(experience.id, { priceTiers: [{ name: 'Adult', price: 60 }], taxes: [] });
    expect(changed.status).toBe(200);
    const intentAmount = await db.all<{ amountMinor: number }>(
      'SELECT amount_minor AS "amountMinor" FROM payment_intents WHERE cart_id = ?',
      heldRows[0]!.cartId,
    );
    expect(intentAmount.map((i) => i.amountMinor)).toEqual([5597]);
    expect(
      (
        await db.all<{ amountMinor: number }>('SELECT amount_minor AS "amountMinor" FROM bookings WHERE experience_id = ?', experience.id)
      ).map((r) => r.amountMinor),
    ).toEqual([5597]);

    const later = await checkout(experience.id, at(session));
    expect(later.status).toBe(201);
    const amounts = await db.all<{ amountMinor: number }>(
      'SELECT amount_minor AS "amountMinor" FROM bookings WHERE experience_id = ? ORDER BY amount_minor',
      experience.id,
    );
    expect(amounts.map((r) => r.amountMinor)).toEqual([5597, 6000]);
  });

  it('archiving stops new holds with EXPERIENCE_ARCHIVED and leaves bookings made before as they were', async () => {
    const experience = (await create()).body;
    const session = await createSession(db, { id: experience.id, timezoneId: 'Europe/Lisbon' }, { startLocal: '2027-01-13T10:00:00' });
    expect((await checkout(experience.id, at(session))).status).toBe(201);
    const before = await db.all<{ status: string; amountMinor: number }>(
      'SELECT status, amount_minor AS "amountMinor" FROM bookings WHERE experience_id = ?',
      experience.id,
    );

    const archived = await t.rest('POST', `${base}/${experience.id}/archive`, {
      key: keys.brand,
      headers: { authorization: `Bearer ${keys.brand}`, 'if-match': '"1"' },
    });
    expect([archived.status, archived.headers.etag, archived.body.status]).toEqual([200, '"2"', 'archived']);
    expect((await read(experience.id)).body.status).toBe('archived');

    const refused = await checkout(experience.id, at(session));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'EXPERIENCE_ARCHIVED', details: { field: 'data.0.experienceId' } });
    expect(await rows.reserved(session.id)).toBe(1);
    expect(await db.all('SELECT status, amount_minor AS "amountMinor" FROM bookings WHERE experience_id = ?', experience.id)).toEqual(
      before,
    );
    expect(await eventsOf(experience.id)).toEqual([
      ['experience.created', 'Sunset Sail', 'active'],
      ['experience.archived', 'Sunset Sail', 'archived'],
    ]);
  });
});

describe('un-archiving', () => {
  const checkout = (experienceId: string, sessionTime: string) =>
    t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key: keys.brand,
      body: { data: [{ experienceId, sessionTime, participants: [guest('Ana')] }] },
    });
  const post = (id: string, action: string, ifMatch?: string, key = keys.brand) =>
    t.rest('POST', `${base}/${id}/${action}`, {
      key,
      headers: { authorization: `Bearer ${key}`, ...(ifMatch ? { 'if-match': ifMatch } : {}) },
    });

  it('sells an archived experience again (experience.updated), 412s a stale If-Match, and changes nothing for one not archived', async () => {
    const experience = (await create()).body;
    await createSession(db, { id: experience.id, timezoneId: 'Europe/Lisbon' }, { startLocal: '2027-01-14T10:00:00' });
    expect((await post(experience.id, 'archive')).headers.etag).toBe('"2"');
    const refused = await checkout(experience.id, '2027-01-14T10:00');
    expect([refused.status, refused.body.error.code]).toEqual([422, 'EXPERIENCE_ARCHIVED']);

    const stale = await post(experience.id, 'unarchive', '"1"');
    expect([stale.status, stale.body.error.code, stale.body.error.details]).toEqual([
      412,
      'PRECONDITION_FAILED',
      { field: 'If-Match', etag: '"2"' },
    ]);
    expect((await read(experience.id)).body.status).toBe('archived');

    const restored = await post(experience.id, 'unarchive', '"2"');
    expect([restored.status, restored.headers.etag, restored.body.status]).toEqual([200, '"3"', 'active']);
    expect((await read(experience.id)).body.status).toBe('active');
    const sold = await checkout(experience.id, '2027-01-14T10:00');
    expect(sold.status).toBe(201);

    const again = await post(experience.id, 'unarchive');
    expect([again.status, again.headers.etag, again.body.status]).toEqual([200, '"3"', 'active']);
    expect(await eventsOf(experience.id)).toEqual([
      ['experience.created', 'Sunset Sail', 'active'],
      ['experience.archived', 'Sunset Sail', 'archived'],
      ['experience.updated', 'Sunset Sail', 'active'],
    ]);
    const withPublishable = await post(experience.id, 'unarchive', undefined, publishable);
    expect([withPublishable.status, withPublishable.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('GraphQL unarchiveExperience does the same, PRECONDITION_FAILED naming ifMatch', async () => {
    const experience = (await create()).body;
    await post(experience.id, 'archive');
    const UNARCHIVE = `mutation ($brandId: UUID!, $id: UUID!, $ifMatch: String) {
      unarchiveExperience(brandId: $brandId, id: $id, ifMatch: $ifMatch) { etag experience { status } } }`;
    const stale = await t.gql(UNARCHIVE, { brandId: brand.id, id: experience.id, ifMatch: '"1"' }, { key: keys.brand });
    expect(stale.body.errors[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'ifMatch' });
    const ok = await t.gql(UNARCHIVE, { brandId: brand.id, id: experience.id, ifMatch: '"2"' }, { key: keys.brand });
    expect(ok.body.data.unarchiveExperience).toEqual({ etag: '"3"', experience: { status: 'ACTIVE' } });
  });
});

describe('GraphQL', () => {
  const CREATE = /* GraphQL */ `
    mutation ($brandId: UUID!, $input: JSONObject!) {
      createExperience(brandId: $brandId, input: $input) {
        etag
        experience {
          uuid
          title
          status
          version
          priceTiers {
            name
            price
          }
        }
      }
    }
  `;
  const UPDATE = /* GraphQL */ `
    mutation ($brandId: UUID!, $id: UUID!, $input: JSONObject!, $ifMatch: String) {
      updateExperience(brandId: $brandId, id: $id, input: $input, ifMatch: $ifMatch) {
        etag
        experience {
          title
        }
      }
    }
  `;
  const ARCHIVE = /* GraphQL */ `
    mutation ($brandId: UUID!, $id: UUID!, $ifMatch: String) {
      archiveExperience(brandId: $brandId, id: $id, ifMatch: $ifMatch) {
        etag
        experience {
          status
        }
      }
    }
  `;

  it('creates, updates with ifMatch (stale: PRECONDITION_FAILED naming ifMatch and the current etag) and archives, as REST does', async () => {
    const created = await t.gql(CREATE, { brandId: brand.id, input: document({ title: 'Tram Ride' }) }, { key: keys.brand });
    const made = created.body.data.createExperience;
    expect(made).toMatchObject({
      etag: '"1"',
      experience: {
        title: 'Tram Ride',
        status: 'ACTIVE',
        version: 1,
        priceTiers: [
          { name: 'Adult', price: 45.5 },
          { name: 'Child', price: 20 },
        ],
      },
    });
    const id = made.experience.uuid;
    const updated = await t.gql(UPDATE, { brandId: brand.id, id, input: { title: 'Tram 28' }, ifMatch: made.etag }, { key: keys.brand });
    expect(updated.body.data.updateExperience).toEqual({ etag: '"2"', experience: { title: 'Tram 28' } });
    const stale = await t.gql(UPDATE, { brandId: brand.id, id, input: { title: 'Tram 12' }, ifMatch: made.etag }, { key: keys.brand });
    expect(stale.body.errors[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'ifMatch', etag: '"2"' });
    const staleArchive = await t.gql(ARCHIVE, { brandId: brand.id, id, ifMatch: made.etag }, { key: keys.brand });
    expect(staleArchive.body.errors[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'ifMatch', etag: '"2"' });
    const archived = await t.gql(ARCHIVE, { brandId: brand.id, id, ifMatch: '"2"' }, { key: keys.brand });
    expect(archived.body.data.archiveExperience).toEqual({ etag: '"3"', experience: { status: 'ARCHIVED' } });
    expect((await read(id)).body.title).toBe('Tram 28');
  });

  it('names the field of a mistake, and refuses a publishable key', async () => {
    const bad = await t.gql(
      CREATE,
      { brandId: brand.id, input: document({ priceTiers: [{ name: 'Adult', price: 1.005 }] }) },
      { key: keys.brand },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'priceTiers.0.price' });
    const pk = await t.gql(CREATE, { brandId: brand.id, input: document() }, { key: publishable });
    expect(pk.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
