import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { statementsSent } from '../../support/statements.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db);
const brand = await createBrand(db, { organizationId: org.id });
const sister = await createBrand(db, { organizationId: org.id });
const outsider = await createBrand(db, { currency: 'JPY' });
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;
const outsiderKey = (await createApiKey(db, { brandId: outsider.id })).secret;

const sail = (await createExperience(db, brand.id, { maxParticipantsCount: 10, sessionDurationMinutes: 120 })).experience;
const waitlist = await createWaitlist(db, sail.id);
const tea = (await createExperience(db, outsider.id, { timezoneId: 'Asia/Tokyo', sessionDurationMinutes: 60 })).experience;
const sisterTour = (await createExperience(db, sister.id)).experience;

// Inserted out of order: the API sorts by start. The first and last fall just outside 28..30 March.
const before = await createSession(db, sail, { startLocal: '2026-03-27T23:59:59', capacity: 10 });
const dstEvening = await createSession(db, sail, { startLocal: '2026-03-29T18:00:00', capacity: 10 });
const eveOfDst = await createSession(db, sail, { startLocal: '2026-03-28T18:00:00', capacity: 10 });
const dstMorning = await createSession(db, sail, { startLocal: '2026-03-29T10:00:00', capacity: 8, durationMinutes: 90 });
const lastDay = await createSession(db, sail, { startLocal: '2026-03-30T23:59:59', capacity: 10 });
const after = await createSession(db, sail, { startLocal: '2026-03-31T00:00:00', capacity: 10 });
const teaSession = await createSession(db, tea, { startLocal: '2026-03-29T10:00:00', capacity: 6, durationMinutes: 60 });

const guests = (n: number, cancelled = 0) =>
  Array.from({ length: n }, (_, i) => ({ firstName: `Guest${i + 1}`, cancelledAt: i < cancelled ? '2026-03-20T10:00:00.000Z' : null }));
// The eve of the DST change is sold out.
await createBooking(db, { brandId: brand.id, session: eveOfDst, participants: guests(10) });
// On the DST evening: 2 active of 3 confirmed, 2 processing; failed, cancelled and refunded bookings hold nothing.
await createBooking(db, { brandId: brand.id, session: dstEvening, participants: guests(3, 1) });
await createBooking(db, { brandId: brand.id, session: dstEvening, status: 'processing', participants: guests(2) });
await createBooking(db, { brandId: brand.id, session: dstEvening, status: 'failed', participants: guests(3) });
await createBooking(db, { brandId: brand.id, session: dstEvening, status: 'cancelled', participants: guests(2, 2) });
await createBooking(db, { brandId: brand.id, session: dstEvening, status: 'refunded', participants: guests(1) });

// Lisbon is on UTC in winter: at this instant the 23:30 session of 28 February has started, the 00:30 one has not.
const NOW = new Date('2026-03-01T00:00:00.000Z');
const walk = (await createExperience(db, brand.id)).experience;
const started = await createSession(db, walk, { startLocal: '2026-02-28T23:30:00', capacity: 5 });
const upcoming = await createSession(db, walk, { startLocal: '2026-03-01T00:30:00', capacity: 5 });

beforeAll(async () => {
  t = await startApp(db, { now: () => NOW });
});

const restUrl = (brandId: string, experienceId: string, query: string) =>
  `/v1/brands/${brandId}/experiences/${experienceId}/availability${query}`;
// The session's raw id (`uuid`) under REST's name, so both faces compare with one expectation.
const fields = 'id: uuid startDateTime timezone duration capacity remaining waitlistId';
const availabilityQuery = `query($b: UUID!, $e: UUID!, $from: LocalDate!, $to: LocalDate!) {
  availability(brandId: $b, experienceId: $e, from: $from, to: $to) { ${fields} } }`;
const nestedQuery = `query($b: UUID!, $e: UUID!, $from: LocalDate!, $to: LocalDate!) {
  experience(brandId: $b, id: $e) { uuid sessions(from: $from, to: $to) { ${fields} } } }`;

const view = (
  session: { id: string; startLocal: string; capacity: number },
  duration: number,
  remaining: number,
  waitlistId: string | null,
  timezone = 'Europe/Lisbon',
) => ({
  id: session.id,
  startDateTime: session.startLocal,
  timezone,
  duration,
  capacity: session.capacity,
  remaining,
  waitlistId,
});

const expectedSail = [
  view(eveOfDst, 120, 0, waitlist.id),
  view(dstMorning, 90, 8, waitlist.id),
  view(dstEvening, 120, 6, waitlist.id),
  view(lastDay, 120, 10, waitlist.id),
];

describe('GET availability and GraphQL availability / Experience.sessions', () => {
  it('lists the sessions of the local dates from..to by start, with remaining places and the waitlist', async () => {
    const res = await t.rest('GET', restUrl(brand.id, sail.id, '?from=2026-03-28&to=2026-03-30'), { key: brandKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expectedSail });
  });

  it('answers the same on both faces, at the top level and nested in an experience', async () => {
    const variables = { b: brand.id, e: sail.id, from: '2026-03-28', to: '2026-03-30' };
    const top = await t.gql(availabilityQuery, variables, { key: brandKey });
    expect(top.body.errors).toBeUndefined();
    expect(top.body.data.availability).toEqual(expectedSail);
    const nested = await t.gql(nestedQuery, variables, { key: orgKey });
    expect(nested.body.errors).toBeUndefined();
    expect(nested.body.data.experience).toEqual({ uuid: sail.id, sessions: expectedSail });
  });

  it('includes both ends of the range and nothing outside it', async () => {
    const first = await t.rest('GET', restUrl(brand.id, sail.id, '?from=2026-03-27&to=2026-03-27'), { key: brandKey });
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([before.id]);
    const last = await t.rest('GET', restUrl(brand.id, sail.id, '?from=2026-03-31&to=2026-03-31'), { key: brandKey });
    expect(last.body.data.map((s: { id: string }) => s.id)).toEqual([after.id]);
    const empty = await t.rest('GET', restUrl(brand.id, sail.id, '?from=2026-04-01&to=2026-06-30'), { key: brandKey });
    expect(empty.body).toEqual({ data: [] });
  });

  it('shows a session on the DST day at its local time; the database holds the right UTC instant', async () => {
    const res = await t.rest('GET', restUrl(brand.id, sail.id, '?from=2026-03-29&to=2026-03-29'), { key: brandKey });
    expect(res.body.data.map((s: { startDateTime: string }) => s.startDateTime)).toEqual(['2026-03-29T10:00:00', '2026-03-29T18:00:00']);
    const startsAt = (id: string) => db.one('SELECT starts_at FROM sessions WHERE id = ?', id);
    expect(await startsAt(eveOfDst.id)).toEqual({ starts_at: '2026-03-28T18:00:00.000Z' });
    expect(await startsAt(dstEvening.id)).toEqual({ starts_at: '2026-03-29T17:00:00.000Z' });
  });

  it("gives a null waitlistId when the experience has no waitlist, and the experience's own zone", async () => {
    const res = await t.rest('GET', restUrl(outsider.id, tea.id, '?from=2026-03-29&to=2026-03-29'), { key: outsiderKey });
    expect(res.body).toEqual({ data: [view(teaSession, 60, 6, null, 'Asia/Tokyo')] });
  });

  it('lets an organization key read its brands', async () => {
    const res = await t.rest('GET', restUrl(brand.id, sail.id, '?from=2026-03-28&to=2026-03-30'), { key: orgKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expectedSail);
  });

  it('runs the same number of statements for one day as for 92', async () => {
    const run = (to: string) =>
      statementsSent(db, () => t.rest('GET', restUrl(brand.id, sail.id, `?from=2026-01-01&to=${to}`), { key: brandKey }));
    const oneDay = await run('2026-01-01');
    const quarter = await run('2026-04-02');
    expect(quarter.result.body.data).toHaveLength(6);
    expect(quarter.count).toBe(oneDay.count);
    expect(quarter.sql.filter((s) => s.includes('"sessions"'))).toHaveLength(1);
  });
});

describe('sessions that have started', () => {
  it('are left out on both faces: availability offers only what checkout can sell', async () => {
    const rest = await t.rest('GET', restUrl(brand.id, walk.id, '?from=2026-02-28&to=2026-03-01'), { key: brandKey });
    expect(rest.body).toEqual({ data: [view(upcoming, 120, 5, null)] });
    const gql = await t.gql(availabilityQuery, { b: brand.id, e: walk.id, from: '2026-02-28', to: '2026-03-01' }, { key: brandKey });
    expect(gql.body.data.availability).toEqual([view(upcoming, 120, 5, null)]);
    const checkout = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key: brandKey,
      body: {
        data: [
          {
            experienceId: walk.id,
            sessionTime: started.startLocal,
            participants: [{ firstName: 'Ana', lastName: 'Reis', priceTierName: 'Adult' }],
          },
        ],
        purchaser: { firstName: 'Ana', lastName: 'Reis', emailAddress: 'ana@example.com' },
      },
    });
    expect([checkout.status, checkout.body.error?.code]).toEqual([422, 'SESSION_STARTED']);
  });
});

describe('remaining places follow bookings', () => {
  it('counts new processing bookings, not cancelled participants', async () => {
    const session = await createSession(db, sail, { startLocal: '2026-05-01T18:00:00', capacity: 10 });
    const remaining = async () =>
      (await t.rest('GET', restUrl(brand.id, sail.id, '?from=2026-05-01&to=2026-05-01'), { key: brandKey })).body.data[0].remaining;
    expect(await remaining()).toBe(10);
    await createBooking(db, { brandId: brand.id, session, status: 'processing', participants: guests(4, 1) });
    expect(await remaining()).toBe(7);
    await createBooking(db, { brandId: brand.id, session, status: 'failed', participants: guests(5) });
    expect(await remaining()).toBe(7);
  });
});

describe('range validation', () => {
  it.each([
    ['from is missing', '?to=2026-03-30', 'from'],
    ['to is missing', '?from=2026-03-28', 'to'],
    ['from is not a date', '?from=28-03-2026&to=2026-03-30', 'from'],
    ['from does not exist', '?from=2026-02-30&to=2026-03-30', 'from'],
    ['to does not exist', '?from=2026-03-28&to=2026-04-31', 'to'],
    ['to is before from', '?from=2026-03-28&to=2026-03-27', 'to'],
    ['the range is longer than 92 days', '?from=2026-01-01&to=2026-04-03', 'to'],
  ])('REST: 400 VALIDATION_FAILED when %s', async (_, query, field) => {
    const res = await t.rest('GET', restUrl(brand.id, sail.id, query), { key: brandKey });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });

  it('REST: names a malformed experience id', async () => {
    const res = await t.rest('GET', restUrl(brand.id, 'sail', '?from=2026-03-28&to=2026-03-30'), { key: brandKey });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('experienceId');
  });

  it.each([
    ['to is before from', '2026-03-28', '2026-03-27'],
    ['the range is longer than 92 days', '2026-01-01', '2026-04-03'],
  ])('GraphQL: VALIDATION_FAILED on to when %s', async (_, from, to) => {
    for (const query of [availabilityQuery, nestedQuery]) {
      const res = await t.gql(query, { b: brand.id, e: sail.id, from, to }, { key: brandKey });
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'to' });
    }
  });

  it('GraphQL: BAD_USER_INPUT for a date that does not exist', async () => {
    const res = await t.gql(availabilityQuery, { b: brand.id, e: sail.id, from: '2026-02-30', to: '2026-03-30' }, { key: brandKey });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('access', () => {
  const range = '?from=2026-03-28&to=2026-03-30';
  const variables = (b: string, e: string) => ({ b, e, from: '2026-03-28', to: '2026-03-30' });

  it('needs an API key (401 on both faces)', async () => {
    expect((await t.rest('GET', restUrl(brand.id, sail.id, range))).status).toBe(401);
    const res = await t.gql(availabilityQuery, variables(brand.id, sail.id));
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a brand the key may not act for (403)', async () => {
    const res = await t.rest('GET', restUrl(brand.id, sail.id, range), { key: outsiderKey });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const gql = await t.gql(availabilityQuery, variables(brand.id, sail.id), { key: outsiderKey });
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it("hides the sessions of another brand's experience reached through this brand's path (404)", async () => {
    const res = await t.rest('GET', restUrl(brand.id, sisterTour.id, range), { key: orgKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const gql = await t.gql(availabilityQuery, variables(brand.id, sisterTour.id), { key: orgKey });
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('answers 404 for an unknown experience', async () => {
    const res = await t.rest('GET', restUrl(brand.id, randomUUID(), range), { key: brandKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
