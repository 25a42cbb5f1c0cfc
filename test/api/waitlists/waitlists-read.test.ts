/**
 * Reading a waitlist's entries (REST list, GraphQL `waitlist`) and leaving one, on both faces, with
 * their filters, errors and access rules.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEAVE, WAITLIST, waitlistWorld } from '../../support/waitlist-world.ts';

const w = await waitlistWorld();
const { brand, keys, waitlist } = w;

const early = await w.session(3);
const late = await w.session(3);
const ids: Record<string, string> = {};
let sisterEntry = '';

beforeAll(async () => {
  // Joined out of session order: the list still runs by session start, then position.
  for (const [name, s, size] of [
    ['lateA', late, 1],
    ['earlyA', early, 2],
    ['lateB', late, 2],
    ['earlyB', early, 1],
  ] as const) {
    const res = await w.join(w.body(s, size));
    ids[name] = res.body.id;
  }
  await w.t().rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/${ids.earlyB}`, { key: keys.brand });
  await w.db.insert('sessions', {
    id: randomUUID(),
    experienceId: w.walk.id,
    startLocal: '2027-03-01T18:00:00',
    startsAt: '2027-03-01T09:00:00.000Z',
    durationMinutes: 120,
    capacity: 0,
  });
  const body = { ...w.body({ startLocal: '2027-03-01T18:00:00', durationMinutes: 120 }, 1) };
  sisterEntry = (await w.join(body, keys.sister, w.sisterWaitlist.id, w.sister.id)).body.id;
});

const list = (query: string, key = keys.brand, waitlistId = waitlist.id) =>
  w.t().rest('GET', `/v1/brands/${brand.id}/waitlists/${waitlistId}/entries${query}`, { key });
const gqlWaitlist = (variables: Record<string, unknown> = {}, key = keys.brand) =>
  w.t().gql(WAITLIST, { brandId: brand.id, id: waitlist.id, ...variables }, { key });
const idsOf = (entries: Array<{ id: string }>) => entries.map((e) => Object.keys(ids).find((name) => ids[name] === e.id));

describe('the entries of a waitlist', () => {
  it('run by session start, then position, alike on both faces', async () => {
    const rest = await list('');
    expect(rest.status).toBe(200);
    expect(idsOf(rest.body.data)).toEqual(['earlyA', 'earlyB', 'lateA', 'lateB']);
    expect(rest.body.data.map((e: any) => [e.position, e.status])).toEqual([
      [1, 'waiting'],
      [2, 'cancelled'],
      [1, 'waiting'],
      [2, 'waiting'],
    ]);
    const gql = await gqlWaitlist();
    expect(gql.body.data.waitlist.entries).toEqual(rest.body.data.map((e: any) => ({ ...e, status: e.status.toUpperCase() })));
  });

  it('filter by session (its local start, with or without seconds or an offset) and by statuses', async () => {
    expect(idsOf((await list(`?sessionStartDateTime=${early.startLocal}`)).body.data)).toEqual(['earlyA', 'earlyB']);
    // 18:00 in Lisbon in January is 18:00 UTC.
    expect(idsOf((await list(`?sessionStartDateTime=${late.startLocal.slice(0, 16)}Z`)).body.data)).toEqual(['lateA', 'lateB']);
    expect(idsOf((await list('?status=cancelled&status=offered')).body.data)).toEqual(['earlyB']);
    expect(idsOf((await list(`?status=waiting&sessionStartDateTime=${early.startLocal.slice(0, 16)}`)).body.data)).toEqual(['earlyA']);
    expect((await list('?sessionStartDateTime=2027-06-01T10:00')).body.data).toEqual([]);
    const gql = await gqlWaitlist({ at: late.startLocal, statuses: ['WAITING'] });
    expect(idsOf(gql.body.data.waitlist.entries)).toEqual(['lateA', 'lateB']);
  });

  it('refuse malformed filters', async () => {
    expect((await list('?sessionStartDateTime=tomorrow')).body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'sessionStartDateTime' },
    });
    expect((await list('?status=pending')).body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'status.0' } });
    expect((await gqlWaitlist({ at: 'tomorrow' })).body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'sessionStartDateTime',
    });
    expect((await gqlWaitlist({ statuses: ['PENDING'] })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it("are the brand's own: 401 without a key, 403 for another brand's key, 404 / null for another brand's waitlist", async () => {
    expect((await list('', '')).status).toBe(401);
    expect((await list('', keys.sister)).status).toBe(403);
    expect((await gqlWaitlist({}, keys.outsider)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    for (const id of [w.sisterWaitlist.id, randomUUID()]) {
      expect((await list('', keys.brand, id)).body.error.code).toBe('NOT_FOUND');
      const gql = await gqlWaitlist({ id });
      expect([gql.body.data.waitlist, gql.body.errors]).toEqual([null, undefined]);
    }
    expect((await list('', keys.org)).body.data).toHaveLength(4);
  });
});

describe('leaving', () => {
  it('cancels a waiting entry on GraphQL; a closed entry is WAITLIST_ENTRY_CLOSED', async () => {
    const res = await w.t().gql(LEAVE, { brandId: brand.id, entryId: ids.lateA }, { key: keys.brand });
    expect(res.body.data.leaveWaitlist.entry).toMatchObject({ id: ids.lateA, status: 'CANCELLED', position: 1 });
    const again = await w.t().gql(LEAVE, { brandId: brand.id, entryId: ids.lateA }, { key: keys.brand });
    expect(again.body.errors[0].extensions.code).toBe('WAITLIST_ENTRY_CLOSED');
    const rest = await w.t().rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/${ids.lateA}`, { key: keys.brand });
    expect([rest.status, rest.body.error.code]).toEqual([409, 'WAITLIST_ENTRY_CLOSED']);
  });

  it("answers NOT_FOUND for another brand's entry, an unknown one, or one of another waitlist", async () => {
    const gql = await w.t().gql(LEAVE, { brandId: brand.id, entryId: sisterEntry }, { key: keys.org });
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    for (const [waitlistId, entryId] of [
      [waitlist.id, randomUUID()],
      [w.sisterWaitlist.id, ids.lateB],
      [waitlist.id, sisterEntry],
    ]) {
      const res = await w.t().rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlistId}/entries/${entryId}`, { key: keys.brand });
      expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect(await w.status(ids.lateB!)).toBe('waiting');
    expect(await w.status(sisterEntry)).toBe('waiting');
  });

  it('needs a key of the brand; an organization key may leave for its brands', async () => {
    const path = `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/${ids.lateB}`;
    expect((await w.t().rest('DELETE', path, {})).status).toBe(401);
    expect((await w.t().rest('DELETE', path, { key: keys.sister })).status).toBe(403);
    expect(
      (await w.t().rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/not-a-uuid`, { key: keys.brand })).body.error,
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'entryId' },
    });
    const res = await w.t().rest('DELETE', path, { key: keys.org });
    expect([res.status, res.body.status]).toEqual([200, 'cancelled']);
  });
});
