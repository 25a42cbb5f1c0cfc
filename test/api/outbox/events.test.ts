/** Reading events: GraphQL `events` and REST `GET /v1/brands/{brandId}/events`, paging, filters, auth, bad input. */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventEnvelope, recordEvent, type EventType, type StoredEvent } from '../../../src/domain/outbox/outbox.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const org = await createOrganization(db);
const brand = await createBrand(db, { organizationId: org.id });
const sister = await createBrand(db, { organizationId: org.id });
const outsider = await createBrand(db);
const keys = {
  brand: (await createApiKey(db, { brandId: brand.id })).secret,
  org: (await createApiKey(db, { organizationId: org.id })).secret,
  outsider: (await createApiKey(db, { brandId: outsider.id })).secret,
};

const types: EventType[] = ['booking.created', 'booking.confirmed', 'waitlist.offered', 'booking.cancelled'];
let minute = 0;
async function record(brandId: string, type: EventType): Promise<StoredEvent> {
  minute += 1;
  const at = new Date(Date.UTC(2026, 10, 25, 12, minute)).toISOString();
  return db.database.transaction(async (tx) =>
    recordEvent(tx, { brandId, type, resourceId: `r${minute}`, payload: { id: `r${minute}`, n: minute }, at }),
  );
}
// Interleaved with the sister brand's, so sequences of one brand have gaps.
const ours: StoredEvent[] = [];
const theirs: StoredEvent[] = [];
for (let i = 0; i < 12; i++) {
  ours.push(await record(brand.id, types[i % types.length]!));
  if (i % 4 === 0) theirs.push(await record(sister.id, 'booking.created'));
}
const envelopes = (events: StoredEvent[]) => events.map(eventEnvelope);
/** GraphQL spells a type as its EventType value: `booking.created` is BOOKING_CREATED. */
const enumOf = (type: string) => type.toUpperCase().replace('.', '_');
const gqlEnvelopes = (events: StoredEvent[]) => envelopes(events).map((e) => ({ ...e, type: enumOf(e.type) }));

let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

// `id: uuid`: the envelope's id as REST and webhooks carry it (GraphQL's own `id` is the global one).
const query = `query($brandId: UUID!, $after: String, $types: [EventType!], $first: Int) {
  events(brandId: $brandId, after: $after, types: $types, first: $first) {
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { id: uuid type createdAt data } }
  }
}`;

async function page(variables: Record<string, unknown>, key = keys.brand) {
  const res = await t.gql(query, { brandId: brand.id, ...variables }, { key });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.events;
}
async function gqlError(variables: Record<string, unknown>, key: string | null = keys.brand) {
  const res = await t.gql(query, { brandId: brand.id, ...variables }, { key: key ?? undefined });
  // `events: null` when the resolver failed (the field is nullable); no data when the variables were refused
  // before execution (BAD_USER_INPUT).
  expect(res.body.data).toEqual(res.body.errors[0].extensions.code === 'BAD_USER_INPUT' ? undefined : { events: null });
  return { code: res.body.errors[0].extensions.code, field: res.body.errors[0].extensions.field };
}
const nodes = (p: any) => p.edges.map((e: any) => e.node);
const feed = (query = '', key: string | null = keys.brand, brandId = brand.id) =>
  t.rest('GET', `/v1/brands/${brandId}/events${query}`, { key: key ?? undefined });

describe('GraphQL events', () => {
  it("walks the brand's events oldest first, 5 at a time, without gaps or repeats", async () => {
    const seen: any[] = [];
    let after: string | null = null;
    const infos: any[] = [];
    do {
      const p: any = await page({ first: 5, after });
      seen.push(...nodes(p));
      infos.push(p.pageInfo);
      after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(gqlEnvelopes(ours));
    expect(infos.map((i) => [i.hasNextPage, i.hasPreviousPage])).toEqual([
      [true, false],
      [true, true],
      [false, true],
    ]);
  });

  it('answers 50 by default, with edge cursors that continue right after their event', async () => {
    const all = await page({});
    expect(nodes(all)).toEqual(gqlEnvelopes(ours));
    expect(all.pageInfo).toMatchObject({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: all.edges[0].cursor,
      endCursor: all.edges[11].cursor,
    });
    expect(nodes(await page({ after: all.edges[6].cursor }))).toEqual(gqlEnvelopes(ours.slice(7)));
  });

  it('keeps only the types asked for, across pages', async () => {
    const wanted = ['booking.confirmed', 'waitlist.offered'];
    const first = await page({ types: ['BOOKING_CONFIRMED', 'WAITLIST_OFFERED'], first: 4 });
    const second = await page({ types: ['BOOKING_CONFIRMED', 'WAITLIST_OFFERED'], first: 4, after: first.pageInfo.endCursor });
    expect([...nodes(first), ...nodes(second)]).toEqual(gqlEnvelopes(ours.filter((e) => wanted.includes(e.type))));
    expect([first.pageInfo.hasNextPage, second.pageInfo.hasNextPage]).toEqual([true, false]);
  });

  it('catches up: from the last cursor, an empty page, then exactly the events recorded since', async () => {
    const caughtUp = await page({});
    const cursor = caughtUp.pageInfo.endCursor;
    expect(await page({ after: cursor })).toEqual({
      pageInfo: { hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null },
      edges: [],
    });
    const later = [
      await record(brand.id, 'booking.refunded'),
      await record(sister.id, 'booking.failed'),
      await record(brand.id, 'waitlist.expired'),
    ];
    ours.push(later[0]!, later[2]!);
    theirs.push(later[1]!);
    expect(nodes(await page({ after: cursor }))).toEqual(gqlEnvelopes([later[0]!, later[2]!]));
  });
});

describe('REST events feed', () => {
  it('shows the same envelopes as GraphQL, with next to store and hasMore to keep reading', async () => {
    const first = await feed('?limit=5');
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: { type: string }) => ({ ...e, type: enumOf(e.type) }))).toEqual(nodes(await page({ first: 5 })));
    expect(first.body.hasMore).toBe(true);
    const rest: any[] = [];
    let next = first.body.next;
    for (let body = first.body; body.hasMore;) {
      body = (await feed(`?limit=5&after=${next}`)).body;
      rest.push(...body.data);
      next = body.next;
    }
    expect([...first.body.data, ...rest]).toEqual(envelopes(ours));
    // Nothing new: the same position comes back, so it can always be stored.
    expect((await feed(`?after=${next}`)).body).toEqual({ data: [], next, hasMore: false });
  });

  it('filters by comma-separated types', async () => {
    const res = await feed('?types=booking.created,booking.cancelled');
    expect(res.body.data).toEqual(envelopes(ours.filter((e) => e.type === 'booking.created' || e.type === 'booking.cancelled')));
    expect(res.body.hasMore).toBe(false);
  });

  it('an empty feed has no position yet', async () => {
    expect((await feed('', keys.outsider, outsider.id)).body).toEqual({ data: [], next: null, hasMore: false });
  });
});

describe('who may read', () => {
  it("never shows another brand's events: 403 FORBIDDEN outside the key's scope, org keys per brand", async () => {
    expect((await feed('', keys.brand, sister.id)).status).toBe(403);
    expect((await feed('', keys.outsider)).body.error.code).toBe('FORBIDDEN');
    expect(await gqlError({ brandId: sister.id })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await gqlError({}, keys.outsider)).toMatchObject({ code: 'FORBIDDEN' });
    expect((await feed('', keys.org, sister.id)).body.data).toEqual(envelopes(theirs));
    expect(nodes(await page({ brandId: sister.id }, keys.org))).toEqual(gqlEnvelopes(theirs));
    expect(nodes(await page({}, keys.org))).toEqual(gqlEnvelopes(ours));
  });

  it('needs an API key', async () => {
    expect((await feed('', null)).status).toBe(401);
    expect(await gqlError({}, null)).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('bad input', () => {
  const forged = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');

  it('GraphQL: VALIDATION_FAILED naming first, after or types; BAD_USER_INPUT for a malformed brand id', async () => {
    for (const first of [0, 101, -1]) expect(await gqlError({ first })).toEqual({ code: 'VALIDATION_FAILED', field: 'first' });
    for (const after of ['garbage', forged(['0']), forged(['x1']), forged([1]), forged(['1', '2'])]) {
      expect(await gqlError({ after })).toEqual({ code: 'VALIDATION_FAILED', field: 'after' });
    }
    // Not values of the EventType enum: refused with the variables, before the resolver runs.
    for (const type of ['BOOKING_LOST', 'booking.created']) expect((await gqlError({ types: [type] })).code).toBe('BAD_USER_INPUT');
    expect(await gqlError({ types: [] })).toEqual({ code: 'VALIDATION_FAILED', field: 'types' });
    expect((await gqlError({ brandId: 'not-a-uuid' })).code).toBe('BAD_USER_INPUT');
    expect((await gqlError({ first: 'ten' })).code).toBe('BAD_USER_INPUT');
  });

  it('REST: 400 VALIDATION_FAILED naming limit, after, types or brandId', async () => {
    const field = async (path: string, brandId = brand.id) => {
      const res = await feed(path, keys.brand, brandId);
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
      return res.body.error.details.field;
    };
    for (const limit of ['0', '101', 'ten', '2.5']) expect(await field(`?limit=${limit}`)).toBe('limit');
    for (const after of ['garbage', forged(['0']), forged(['1', '2'])]) expect(await field(`?after=${after}`)).toBe('after');
    for (const types of ['booking.lost', '', 'booking.created,,booking.failed']) expect(await field(`?types=${types}`)).toBe('types');
    expect(await field('', 'not-a-uuid')).toBe('brandId');
  });
});
