/**
 * Issue 34, denial of inventory through waitlists: places freed on a sold-out session are offered to,
 * and held for, the first entry whose party fits. A publishable key (anyone's) could fill lines with
 * made-up entries and hold every freed place without paying; so a publishable client's live entries
 * (waiting, offered) may wait for at most PUBLISHABLE_HOLD_PLACES_PER_CLIENT (10) places of a brand at
 * once, beyond which a join is HOLD_LIMIT_REACHED, on both faces. Secret keys are not bounded.
 */
import { describe, expect, it } from 'vitest';
import { createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { JOIN, waitlistWorld } from '../../support/waitlist-world.ts';

// Behind a proxy on this host: X-Forwarded-For names the client.
const w = await waitlistWorld({ http: { TRUST_PROXY: ['127.0.0.1'] } });
const { db, brand, waitlist, keys } = w;
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
// A brand whose clients may wait for 4 places (PUBLISHABLE_HOLD_PLACES_PER_CLIENT=4).
const small = await waitlistWorld({ publishableHoldPlacesPerClient: 4 });
const smallKey = (await createPublishableKey(small.db, small.brand.id, ['https://shop.example'])).secret;

type Session = Awaited<ReturnType<typeof w.session>>;
const headers = (client: string) => ({ 'x-forwarded-for': client });
/** A REST join from `client` with the publishable key (or `key`) for a party of `size` on `s`. */
const join = (client: string, s: Session, size: number, email?: string, key = publishable) =>
  w.t().rest('POST', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries`, {
    key,
    headers: headers(client),
    body: w.body(s, size, email),
  });
const gqlJoin = (client: string, s: Session, size: number) =>
  w.t().gql(JOIN, { brandId: brand.id, waitlistId: waitlist.id, input: w.body(s, size) }, { key: publishable, headers: headers(client) });
const leave = (client: string, entryId: string) =>
  w
    .t()
    .rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/${entryId}`, { key: publishable, headers: headers(client) });
const liveEntries = () =>
  db.value<number>("SELECT count(*) FROM waitlist_entries WHERE brand_id = ? AND status IN ('waiting', 'offered')", brand.id);

const refusal = (held: number, requested: number) => ({
  code: 'HOLD_LIMIT_REACHED',
  message: `This client's waitlist entries already wait for ${held} places of this brand (at most 10 waitlist places at once): leave an entry before joining for ${requested} more`,
  details: { limit: 10, requested, held },
});

describe('the waitlist budget of a publishable client', () => {
  it('lets a client wait for 10 places of the brand, refuses the next join (429, no Retry-After), serves another client', async () => {
    const [s1, s2, s3] = [await w.session(), await w.session(), await w.session()];
    expect((await join('198.51.100.1', s1, 6)).status).toBe(201);
    expect((await join('198.51.100.1', s2, 4)).status).toBe(201);
    const before = await liveEntries();

    const refused = await join('198.51.100.1', s3, 1);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject(refusal(10, 1));
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(await liveEntries()).toBe(before);

    // Another address is another client, with a budget of its own.
    const other = await join('198.51.100.2', s3, 6);
    expect([other.status, other.body.position]).toEqual([201, 1]);
    // The entry records its client as an HMAC, never the address.
    const recorded = await db.value<string>('SELECT hold_client FROM waitlist_entries WHERE id = ?', other.body.id);
    expect(recorded).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(recorded).not.toContain('198.51');
  });

  it('refuses a client at its budget the same whether the e-mail already waits or not (no way around it, no oracle)', async () => {
    const s = await w.session();
    const victim = await join('198.51.100.3', s, 2, 'rosa.matos@example.test');
    expect(victim.status).toBe(201);
    expect((await join('198.51.100.4', s, 6)).status).toBe(201);
    expect((await join('198.51.100.4', s, 4)).status).toBe(201);
    const duplicate = await join('198.51.100.4', s, 1, 'Rosa.Matos@example.test');
    const fresh = await join('198.51.100.4', s, 1, 'nobody-yet@example.test');
    expect([duplicate.status, duplicate.body.error]).toEqual([429, { ...refusal(10, 1), requestId: expect.any(String) }]);
    expect([fresh.status, fresh.body.error]).toEqual([429, { ...refusal(10, 1), requestId: expect.any(String) }]);
  });

  it("frees a left entry's places", async () => {
    const [s1, s2, s3] = [await w.session(), await w.session(), await w.session()];
    expect((await join('198.51.100.5', s1, 6)).status).toBe(201);
    const four = await join('198.51.100.5', s2, 4);
    expect((await join('198.51.100.5', s3, 4)).body.error).toMatchObject(refusal(10, 4));
    expect((await leave('198.51.100.5', four.body.id)).status).toBe(200);
    expect((await join('198.51.100.5', s3, 4)).status).toBe(201);
    expect((await join('198.51.100.5', s2, 1)).body.error).toMatchObject(refusal(10, 1));
  });

  it('counts the same budget through GraphQL, which refuses with the figures in extensions', async () => {
    const [s1, s2, s3] = [await w.session(), await w.session(), await w.session()];
    expect((await join('198.51.100.6', s1, 6)).status).toBe(201);
    const second = await gqlJoin('198.51.100.6', s2, 4);
    expect(second.body.errors).toBeUndefined();
    expect(second.body.data.joinWaitlist.entry).toMatchObject({ status: 'WAITING', position: 1 });
    const refused = await gqlJoin('198.51.100.6', s3, 2);
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors[0].message).toBe(refusal(10, 2).message);
    expect(refused.body.errors[0].extensions).toEqual({ code: 'HOLD_LIMIT_REACHED', limit: 10, requested: 2, held: 10 });
    // Another client is served through GraphQL too.
    expect((await gqlJoin('198.51.100.7', s3, 2)).body.errors).toBeUndefined();
  });

  it('does not bound a secret key', async () => {
    const sessions = [await w.session(), await w.session(), await w.session()];
    for (const s of sessions) expect((await join('198.51.100.8', s, 6, undefined, keys.brand)).status).toBe(201);
    expect((await join('198.51.100.8', sessions[0]!, 6, undefined, keys.brand)).status).toBe(201);
  });

  it('lets exactly 3 of 6 racing joins of parties of 3 from one client through', async () => {
    const sessions: Session[] = [];
    for (let i = 0; i < 6; i += 1) sessions.push(await w.session());
    const answers = await Promise.all(sessions.map((s) => join('198.51.100.9', s, 3)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    for (const a of answers.filter((x) => x.status === 429)) expect(a.body.error.details).toEqual({ limit: 10, requested: 3, held: 9 });
    const ids = answers.filter((a) => a.status === 201).map((a) => a.body.id as string);
    const clients = await Promise.all(ids.map((id) => db.value<string>('SELECT hold_client FROM waitlist_entries WHERE id = ?', id)));
    expect(new Set(clients).size).toBe(1);
    expect(
      await db.value<number>(
        "SELECT coalesce(sum(party_size), 0) FROM waitlist_entries WHERE hold_client = ? AND status IN ('waiting', 'offered')",
        clients[0],
      ),
    ).toBe(9);
  });

  it('follows PUBLISHABLE_HOLD_PLACES_PER_CLIENT, and refuses a party above it on its own, naming participants', async () => {
    const s = await small.session();
    const join = (size: number) =>
      small.t().rest('POST', `/v1/brands/${small.brand.id}/waitlists/${small.waitlist.id}/entries`, {
        key: smallKey,
        body: small.body(s, size),
      });
    const alone = await join(5);
    expect([alone.status, alone.body.error.code, alone.body.error.message, alone.body.error.details]).toEqual([
      429,
      'HOLD_LIMIT_REACHED',
      'A waitlist entry joined with a publishable key waits for at most 4 places; this party asks for 5',
      { field: 'participants', limit: 4, requested: 5, held: 0 },
    ]);
    expect((await join(3)).status).toBe(201);
    expect((await join(2)).body.error.details).toEqual({ limit: 4, requested: 2, held: 3 });
    expect((await join(1)).status).toBe(201);
  });
});
