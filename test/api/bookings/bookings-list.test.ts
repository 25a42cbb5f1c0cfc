import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { inTurn } from '../../../fixtures/factories/in-turn.ts';
import { statementsSent, untilDataVersionSteady } from '../../support/statements.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db);
const brand = await createBrand(db, { name: 'Bay Tours', organizationId: org.id });
const sister = await createBrand(db, { name: 'Bay Tours North', organizationId: org.id });
const outsider = await createBrand(db, { name: 'Elsewhere' });
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;

// Los Angeles is 8 hours behind UTC in December: 23:30 local on the 5th is the 6th in UTC.
const bay = (await createExperience(db, brand.id, { title: 'Bay Cruise', timezoneId: 'America/Los_Angeles' })).experience;
const rows = [
  { start: '2026-12-02T23:59:00', createdAt: '2026-11-01T10:00:00.000Z', status: 'confirmed' },
  { start: '2026-12-03T00:00:00', createdAt: '2026-11-02T10:00:00.000Z', status: 'confirmed' },
  { start: '2026-12-04T10:00:00', createdAt: '2026-11-02T10:00:00.000Z', status: 'cancelled' },
  { start: '2026-12-05T23:30:00', createdAt: '2026-11-02T10:00:00.000Z', status: 'confirmed' },
  { start: '2026-12-06T00:00:00', createdAt: '2026-11-03T10:00:00.000Z', status: 'processing' },
  { start: '2026-12-10T09:00:00', createdAt: '2026-11-04T10:00:00.000Z', status: 'cancelled' },
  { start: '2026-12-11T09:00:00', createdAt: '2026-11-05T10:00:00.000Z', status: 'refunded' },
  { start: '2026-12-12T09:00:00', createdAt: '2026-11-05T10:00:00.000Z', status: 'cancelled' },
  { start: '2026-12-13T09:00:00', createdAt: '2026-11-06T10:00:00.000Z', status: 'failed' },
  { start: '2026-12-14T09:00:00', createdAt: '2026-11-07T10:00:00.000Z', status: 'confirmed' },
] as const;
const created = await inTurn(rows, async (r) => {
  const session = await createSession(db, bay, { startLocal: r.start });
  const { booking } = await createBooking(db, { brandId: brand.id, session, status: r.status, overrides: { createdAt: r.createdAt } });
  return { id: booking.id, createdAt: r.createdAt, start: r.start, status: r.status };
});
/** Newest first by (createdAt, id), as the connection promises. */
const newestFirst = [...created].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
const idsWhere = (keep: (row: (typeof created)[number]) => boolean) => newestFirst.filter(keep).map((row) => row.id);

const sisterExperience = (await createExperience(db, sister.id)).experience;
const sisterBooking = (await createBooking(db, { brandId: sister.id, session: await createSession(db, sisterExperience) })).booking;

beforeAll(async () => {
  t = await startApp(db);
});

// The booking's raw id (`uuid`) as `id`: the cases compare it with the rows created above.
const listQuery = `query($brandId: UUID!, $status: BookingStatus, $from: LocalDate, $to: LocalDate, $first: Int, $after: String) {
  bookings(brandId: $brandId, status: $status, from: $from, to: $to, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { id: uuid status confirmationCode event { startDateTime } } }
  }
}`;

async function list(variables: Record<string, unknown>, key = brandKey) {
  const res = await t.gql(listQuery, { brandId: brand.id, ...variables }, { key });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.bookings;
}

async function listError(variables: Record<string, unknown>, key = brandKey) {
  const res = await t.gql(listQuery, { brandId: brand.id, ...variables }, { key });
  // A failed root field is null on its own (the others would still answer).
  expect(res.body.data).toEqual({ bookings: null });
  return res.body.errors[0].extensions;
}

describe('GraphQL bookings', () => {
  it('walks every page with first = 3, newest first, without gaps or duplicates', async () => {
    const seen: string[] = [];
    const pages: Array<{ size: number; hasNextPage: boolean; hasPreviousPage: boolean; totalCount: number }> = [];
    let after: string | null = null;
    do {
      const page = await list({ first: 3, after });
      seen.push(...page.edges.map((e: { node: { id: string } }) => e.node.id));
      pages.push({
        size: page.edges.length,
        hasNextPage: page.pageInfo.hasNextPage,
        hasPreviousPage: page.pageInfo.hasPreviousPage,
        totalCount: page.totalCount,
      });
      expect(page.pageInfo.startCursor).toBe(page.edges[0].cursor);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1).cursor);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(newestFirst.map((row) => row.id));
    expect(pages).toEqual([
      { size: 3, hasNextPage: true, hasPreviousPage: false, totalCount: 10 },
      { size: 3, hasNextPage: true, hasPreviousPage: true, totalCount: 10 },
      { size: 3, hasNextPage: true, hasPreviousPage: true, totalCount: 10 },
      { size: 1, hasNextPage: false, hasPreviousPage: true, totalCount: 10 },
    ]);
  });

  it('uses 20 per page by default and returns full Booking nodes', async () => {
    const page = await list({});
    expect(page.edges).toHaveLength(10);
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    expect(page.edges[0].node).toMatchObject({
      id: newestFirst[0]!.id,
      status: 'CONFIRMED',
      event: { startDateTime: '2026-12-14T09:00:00' },
    });
  });

  it('filters by status, with a matching totalCount', async () => {
    const page = await list({ status: 'CANCELLED' });
    expect(page.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(idsWhere((r) => r.status === 'cancelled'));
    expect(page.totalCount).toBe(3);
    expect(page.edges.every((e: { node: { status: string } }) => e.node.status === 'CANCELLED')).toBe(true);
  });

  it("filters on the session's local date, both ends inclusive", async () => {
    const page = await list({ from: '2026-12-03', to: '2026-12-05' });
    const expected = idsWhere((r) => ['2026-12-03T00:00:00', '2026-12-04T10:00:00', '2026-12-05T23:30:00'].includes(r.start));
    expect(page.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(expected);
    expect(page.totalCount).toBe(3);
    expect((await list({ from: '2026-12-13' })).totalCount).toBe(2);
    expect((await list({ to: '2026-12-02' })).totalCount).toBe(1);
    expect((await list({ from: '2026-12-05', to: '2026-12-05', status: 'CONFIRMED' })).totalCount).toBe(1);
  });

  it('pages through a filtered list with the same cursors', async () => {
    const first = await list({ status: 'CANCELLED', first: 2 });
    const second = await list({ status: 'CANCELLED', first: 2, after: first.pageInfo.endCursor });
    const ids = [...first.edges, ...second.edges].map((e: { node: { id: string } }) => e.node.id);
    expect(ids).toEqual(idsWhere((r) => r.status === 'cancelled'));
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('rejects bad first, after, from and to naming the field', async () => {
    expect(await listError({ first: 0 })).toMatchObject({ code: 'VALIDATION_FAILED', field: 'first' });
    expect(await listError({ first: 101 })).toMatchObject({ code: 'VALIDATION_FAILED', field: 'first' });
    expect(await listError({ after: 'garbage' })).toMatchObject({ code: 'VALIDATION_FAILED', field: 'after' });
    const forged = Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url');
    expect(await listError({ after: forged })).toMatchObject({ code: 'VALIDATION_FAILED', field: 'after' });
    // The shape of an instant but no moment (month 13): PostgreSQL could not read it as a timestamp (a 500 there).
    const impossible = Buffer.from(JSON.stringify(['2026-13-01T00:00:00.000Z', '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001'])).toString(
      'base64url',
    );
    expect(await listError({ after: impossible })).toEqual({ code: 'VALIDATION_FAILED', field: 'after' });
    expect(await listError({ from: '2026-12-05', to: '2026-12-04' })).toMatchObject({ code: 'VALIDATION_FAILED', field: 'to' });
    expect((await t.gql(listQuery, { brandId: brand.id, from: '2026-13-01' }, { key: brandKey })).body.errors[0].extensions.code).toBe(
      'BAD_USER_INPUT',
    );
    expect((await t.gql(listQuery, { brandId: brand.id, status: 'LOST' }, { key: brandKey })).body.errors[0].extensions.code).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('lists only the named brand: FORBIDDEN for another, org keys per brand, UNAUTHENTICATED without a key', async () => {
    expect(await listError({ brandId: outsider.id })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await listError({ brandId: sister.id })).toMatchObject({ code: 'FORBIDDEN' });
    const sisters = await list({ brandId: sister.id }, orgKey);
    expect(sisters.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([sisterBooking.id]);
    expect((await list({}, orgKey)).totalCount).toBe(10);
    expect((await t.gql(listQuery, { brandId: brand.id })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  // The API-key lookup is left out (statementsSent): it is cached under the data version, which on
  // PostgreSQL another gateway's write (or, before the gateway listens, any database's) moves too.
  it('costs the same number of statements for the first page and a later one', async () => {
    // Brands and keys read once per data version: the counts are without them.
    await untilDataVersionSteady(db);
    await list({ first: 3 });
    const first = await statementsSent(db, () => list({ first: 3 }));
    // The data version (SQLite; PostgreSQL keeps it in memory), the page's ids, the bookings with their
    // participants and answers (one statement on PostgreSQL, three prepared ones on SQLite), the count.
    expect(first.count).toBe(db.engine === 'postgresql' ? 3 : 6);
    const later = await statementsSent(db, () => list({ first: 3, after: first.result.pageInfo.endCursor }));
    expect(later.count).toBe(first.count);
    const filtered = await statementsSent(db, () => list({ first: 3, status: 'CONFIRMED', from: '2026-12-01', to: '2026-12-31' }));
    expect(filtered.count).toBe(first.count);
  });
});
