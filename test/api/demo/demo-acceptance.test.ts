import { beforeAll, describe, expect, it } from 'vitest';
import { demoId, demoIds } from '../../../src/db/demo/ids.ts';
import { demoSoldOutSession, seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';

/**
 * What a person trying the README's quick start sees: the demo keys and ids work on both faces.
 * (Rules are tested on factory data elsewhere; this checks the demo data and the wiring together.)
 */
const db = await freshDb();
await seedDemoDataIfEmpty(db);
let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

const { brands, experiences } = demoIds;
const LISBON = 'sk_test_lisbon_demo';

describe('demo data through the API', () => {
  it('each demo key reads its brand’s settings; the organization key reads both of its brands', async () => {
    const names = async (brandId: string, key: string) => (await t.rest('GET', `/v1/brands/${brandId}/settings`, { key })).body.data?.name;
    expect(await names(brands.lisbon, LISBON)).toBe('Harbor Lisbon');
    expect(await names(brands.tokyo, 'sk_test_tokyo_demo')).toBe('Harbor Tokyo');
    expect(await names(brands.kayak, 'sk_test_kayak_demo')).toBe('Sunset Kayak Co');
    expect(await names(brands.tokyo, 'sk_test_harbor_org_demo')).toBe('Harbor Tokyo');
    expect((await t.rest('GET', `/v1/brands/${brands.kayak}/settings`, { key: 'sk_test_harbor_org_demo' })).status).toBe(403);
  });

  it('featured listings agree on both faces, published and latest differ for Sintra', async () => {
    const rest = await t.rest('GET', '/v3/listings/featured', { key: LISBON });
    const gql = await t.gql('{ featuredListings { uuid title } }', {}, { key: LISBON });
    expect(rest.body.data.map((l: { id: string }) => l.id)).toEqual(gql.body.data.featuredListings.map((l: { uuid: string }) => l.uuid));
    expect(rest.body.data.length).toBeGreaterThanOrEqual(5);
    const latest = await t.rest('GET', '/v3/listings/featured?version=latest', { key: LISBON });
    const sintra = (body: { data: Array<{ id: string; title: string }> }) =>
      body.data.find((l) => l.id === demoIds.listings.sintraDayTrip)!.title;
    expect(sintra(latest.body)).not.toBe(sintra(rest.body));
    const unlisted = await t.rest('GET', '/v3/listings/featured?unlisted=true', { key: LISBON });
    expect(unlisted.body.data.map((l: { id: string }) => l.id)).toContain(demoIds.listings.azulejoStudioVisit);
  });

  it('walks every page of the tram walk’s reviews', async () => {
    const seen: string[] = [];
    let url = `/v1/experiences/${experiences.tram28PhotoWalk}/reviews?limit=25`;
    for (let pages = 1; pages <= 10; pages++) {
      const [page] = (await t.rest('GET', url, { key: LISBON })).body;
      seen.push(...page.items.map((r: { id: string }) => r.id));
      if (url === page.links.last) break;
      url = page.links.next;
    }
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
  });

  it('serves the sail with its questions of every field type, and the fado night in Portuguese', async () => {
    const res = await t.gql(
      `query($b: UUID!, $sail: UUID!, $fado: UUID!) {
        sail: experience(brandId: $b, id: $sail) { title customQuestions { fieldType config { scope conditions { rule } } } }
        fado: experience(brandId: $b, id: $fado, language: "pt") { title }
      }`,
      { b: brands.lisbon, sail: experiences.tagusSunsetSail, fado: experiences.alfamaFadoNight },
      { key: LISBON },
    );
    expect(res.body.errors).toBeUndefined();
    const questions = res.body.data.sail.customQuestions as Array<{
      fieldType: string;
      config: { scope: string; conditions: unknown[] | null };
    }>;
    expect(new Set(questions.map((q) => q.fieldType))).toEqual(
      new Set(['INPUT', 'TEXTAREA', 'MULTIPLE_SELECT', 'SINGLE_SELECT', 'TERMS_AND_CONDITIONS']),
    );
    expect(new Set(questions.map((q) => q.config.scope))).toEqual(new Set(['PURCHASER', 'PARTICIPANT']));
    expect(questions.some((q) => q.config.conditions?.length)).toBe(true);
    const english = await t.rest('GET', `/v1/brands/${brands.lisbon}/experiences/${experiences.alfamaFadoNight}`, { key: LISBON });
    expect(res.body.data.fado.title).not.toBe(english.body.title);
  });

  it('has two parties waiting for the sold-out sail; freeing two places offers them to the couple first in line', async () => {
    const soldOut = demoSoldOutSession();
    const day = soldOut.startDateTime.slice(0, 10);
    const availability = await t.rest(
      'GET',
      `/v1/brands/${brands.lisbon}/experiences/${experiences.tagusSunsetSail}/availability?from=${day}&to=${day}`,
      { key: LISBON },
    );
    const session = availability.body.data.find((s: { startDateTime: string }) => s.startDateTime === soldOut.startDateTime);
    expect(session.remaining).toBe(0);
    const entries = `/v1/brands/${brands.lisbon}/waitlists/${session.waitlistId}/entries?sessionStartDateTime=${soldOut.startDateTime}`;
    const line = (await t.rest('GET', entries, { key: LISBON })).body.data as Array<{ purchaser: { lastName: string }; status: string }>;
    expect(line.map((e) => [e.purchaser.lastName, e.status])).toEqual([
      ['Nakamura', 'waiting'],
      ['Oliveira', 'waiting'],
    ]);

    const whitaker = (key: string) => demoId('lisbon', key, 'whitaker-couple');
    const participants = [1, 2].map((n) => demoId('lisbon', 'participant', `whitaker-couple/${n}`));
    const cancel = await t.rest('POST', '/v1/bookings/cancel', {
      key: LISBON,
      body: { bookings: [{ bookingId: whitaker('booking'), participants }] },
    });
    expect(cancel.status).toBe(200);
    const after = (await t.rest('GET', entries, { key: LISBON })).body.data as Array<{ purchaser: { lastName: string }; status: string }>;
    expect(after.map((e) => [e.purchaser.lastName, e.status])).toEqual([
      ['Nakamura', 'offered'],
      ['Oliveira', 'waiting'],
    ]);
  });
});

describe('rescheduling the demo brands’ bookings', () => {
  /** Books one adult on the experience's session in 5 days, paying on arrival, and moves it to the next one. */
  async function bookAndMove(brandId: string, experienceId: string, key: string) {
    const from = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const sessions = (await t.rest('GET', `/v1/brands/${brandId}/experiences/${experienceId}/availability?from=${from}&to=${to}`, { key }))
      .body.data;
    const [first, second] = sessions.filter((s: { remaining: number }) => s.remaining > 0);
    const tier = (await t.rest('GET', `/v1/brands/${brandId}/experiences/${experienceId}`, { key })).body.priceTiers[0].name;
    const cartId = crypto.randomUUID();
    const participants = [{ firstName: 'Rita', lastName: 'Demo', priceTierName: tier }];
    const checkout = await t.rest('POST', `/v1/brands/${brandId}/carts/${cartId}/payment_intents`, {
      key,
      body: { data: [{ experienceId, sessionTime: first.startDateTime, participants }], paymentMethod: 'pay-upon-arrival' },
    });
    expect(checkout.status).toBe(201);
    const booking = await db.row('bookings', { cartId });
    return t.rest('POST', `/v1/bookings/${booking.id}/reschedule`, { key, body: { sessionTime: second.startDateTime } });
  }

  it('moves a Harbor Lisbon booking (the feature and a policy are on) and refuses a Sunset Kayak Co one (no feature)', async () => {
    const lisbon = await bookAndMove(brands.lisbon, demoId('lisbon', 'experience', 'lx-factory-street-art'), LISBON);
    expect([lisbon.status, lisbon.body.data.status]).toEqual([200, 'confirmed']);
    const kayak = await bookAndMove(brands.kayak, experiences.sunrisePaddle, 'sk_test_kayak_demo');
    expect([kayak.status, kayak.body.error.code, kayak.body.error.details.flag]).toEqual([
      422,
      'FEATURE_NOT_ENABLED',
      'enableRescheduleBookings',
    ]);
  });
});
