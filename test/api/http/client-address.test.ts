/**
 * Issue 34, item 9: behind a trusted proxy, X-Forwarded-For is taken as written, and every spelling of one
 * address (a port, brackets, IPv4-mapped IPv6, upper case) was a fresh client: 8 spellings held 16 places
 * against a budget of 10. Every budget keyed by the client now counts one client per address.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { checkoutRows, guest } from '../../support/checkout.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const SHOP = 'https://shop.example';
/** The spellings of 198.51.100.9, as a proxy passing the client's header on forwards them. */
const SPELLINGS = [
  '198.51.100.9:1111',
  '198.51.100.9:2222',
  '[198.51.100.9]:3333',
  '::ffff:198.51.100.9',
  '[::ffff:198.51.100.9]:443',
  '::FFFF:C633:6409',
  '::ffff:c633:6409',
  '198.51.100.9',
];

const db = await freshDb();
const rows = checkoutRows(db);
const brand = await createBrand(db, { publishableHoldSharePercent: 100 });
const publishable = (await createPublishableKey(db, brand.id, [SHOP])).secret;
const { experience } = await createExperience(db, brand.id);
let proxied: TestApp;
let limited: TestApp;
let chained: TestApp;
beforeAll(async () => {
  // Two proxies: one on this host, and an inner one at 10.0.0.5 that writes its own address with a port.
  chained = await startApp(db, { http: { TRUST_PROXY: ['127.0.0.1', '10.0.0.0/8'], RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: 2 } });
  // Behind a proxy on this host (inject's own address): X-Forwarded-For names the client. Its checkouts run
  // at CHECKOUT_NOW, before the December 2026 session they book, whatever day the suite runs.
  proxied = await startApp(db, { now: () => new Date(CHECKOUT_NOW), http: { TRUST_PROXY: ['127.0.0.1'] } });
  limited = await startApp(db, {
    http: { TRUST_PROXY: ['127.0.0.1'], RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: 4, RATE_LIMIT_ANONYMOUS_PER_MINUTE: 4 },
  });
});

const checkout = (session: { startLocal: string }, guests: number, client: string) =>
  proxied.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
    key: publishable,
    headers: { origin: SHOP, 'x-forwarded-for': client },
    body: {
      data: [
        {
          experienceId: experience.id,
          sessionTime: session.startLocal,
          participants: Array.from({ length: guests }, (_, i) => guest(`G${i}`)),
        },
      ],
    },
  });

const settings = async (client: string, key?: string) =>
  (await limited.rest('GET', `/v1/brands/${brand.id}/settings`, { ...(key ? { key } : {}), headers: { 'x-forwarded-for': client } }))
    .status;

describe('a client behind a trusted proxy, however its address is spelled', () => {
  it("holds at most 10 places: the issue's 8 spellings, 2 places each, are one client", async () => {
    const session = await createSession(db, experience, { startLocal: '2026-12-01T09:00:00', capacity: 30 });
    const answers = [];
    for (const client of SPELLINGS) answers.push(await checkout(session, 2, client));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(answers[5]!.body.error.code).toBe('HOLD_LIMIT_REACHED');
    expect(answers[5]!.body.error.details).toEqual({ limit: 10, requested: 2, held: 10, retryAfterSeconds: 300 });
    expect(await rows.reserved(session.id)).toBe(10);
    // Another address is another client.
    expect((await checkout(session, 2, '198.51.100.10:1111')).status).toBe(201);
    expect(await rows.reserved(session.id)).toBe(12);
  });

  it("spends one rate budget of a publishable key's client for every spelling", async () => {
    const statuses = [];
    for (const client of SPELLINGS) statuses.push(await settings(client, publishable));
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    expect(await settings('198.51.100.10', publishable)).toBe(200);
  });

  it('spends one budget of an IPv6 /64 for every spelling, and one anonymous budget per address', async () => {
    const ipv6 = ['2001:DB8::1', '[2001:db8::1]:443', '2001:db8:0:0:ffff::2', '2001:0db8::1%eth0', '[2001:db8::]:1'];
    const statuses = [];
    for (const client of ipv6) statuses.push(await settings(client, publishable));
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    // Without a key (401 until the budget is spent, then 429): the same four-per-address budget.
    const anonymous = [];
    for (const client of SPELLINGS.slice(0, 5)) anonymous.push(await settings(client));
    expect(anonymous).toEqual([401, 401, 401, 401, 429]);
  });

  it('counts tokens that are no address as one client, not one each', async () => {
    const garbage = ['unknown', 'x', '0xc6.51.100.9', '3325256713', '198.051.100.009', '"198.51.100.9"'];
    const statuses = [];
    for (const client of garbage) statuses.push(await settings(client, publishable));
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // The well-formed client of the same digits keeps its own budget.
    expect(await settings('198.51.100.11', publishable)).toBe(200);
  });

  it('looks past a trusted proxy that writes its own address with a port, to the client it names', async () => {
    const through = async (forwarded: string) =>
      (await chained.rest('GET', `/v1/brands/${brand.id}/settings`, { key: publishable, headers: { 'x-forwarded-for': forwarded } }))
        .status;
    expect(await through('198.51.100.30, 10.0.0.5:3128')).toBe(200);
    expect(await through('198.51.100.30:1, [10.0.0.5]:3128')).toBe(200);
    expect(await through('198.51.100.30')).toBe(429);
    // Another client behind the same inner proxy: not the proxy's budget, its own.
    expect(await through('198.51.100.31, 10.0.0.5:3128')).toBe(200);
    // What a client writes left of its own address is never believed: the client is 198.51.100.31.
    expect(await through('10.0.0.9, 198.51.100.31:5')).toBe(200);
    expect(await through('198.51.100.31')).toBe(429);
  });
});
