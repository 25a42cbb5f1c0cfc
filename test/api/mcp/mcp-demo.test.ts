/**
 * Issue 40: the MCP face through the SDK's own client (Streamable HTTP) against a listening gateway, on
 * the demo data a person trying it sees: the tools, a search in Portuguese, availability as REST answers
 * it, and what a publishable key may not read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { listen } from '../../support/live.ts';
import { call, mcpClient } from '../../support/mcp.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
const LISBON = demoIds.brands.lisbon;
const TRAM = demoIds.experiences.tram28PhotoWalk;
let t: TestApp;
let publishable: Client;
let secret: Client;
beforeAll(async () => {
  t = await startApp(db, { mcpPaymentPageUrl: 'https://shop.example/pay' });
  const at = await listen(t.app);
  publishable = await mcpClient(at.http, 'pk_test_lisbon_demo');
  secret = await mcpClient(at.http, 'sk_test_lisbon_demo');
});

const localDate = (daysAhead: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + daysAhead * 86_400_000));

describe('MCP on the demo data', () => {
  it('lists the tools, each with a description and an input schema', async () => {
    const { tools } = await publishable.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_experiences',
      'get_experience',
      'check_availability',
      'quote_cart',
      'hold_places',
      'cart_status',
      'join_waitlist',
      'get_booking',
      'cancel_booking',
      'refund_booking',
    ]);
    const search = tools.find((tool) => tool.name === 'search_experiences')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual([
      'brandId',
      'text',
      'language',
      'from',
      'to',
      'groupSize',
      'maxPriceMinor',
      'first',
      'cursor',
    ]);
    expect(search.annotations?.readOnlyHint).toBe(true);
  });

  it('finds the Tram walk in Portuguese, with its prices in minor units and written out in Portuguese', async () => {
    const found = await call(publishable, 'search_experiences', { text: 'Eletrico', language: 'pt' });
    expect(found.isError).toBe(false);
    expect(found.body.nextCursor).toBeNull();
    expect(found.body.items.map((item: any) => [item.experienceId, item.title, item.contentLanguage])).toEqual([
      [TRAM, 'Passeio fotográfico no elétrico 28', 'pt'],
    ]);
    const [tram] = found.body.items;
    expect(tram.fromPrice).toEqual({
      amountMinor: 2500,
      currency: 'EUR',
      formatted: new Intl.NumberFormat('pt', { style: 'currency', currency: 'EUR' }).format(25),
    });
    expect(tram.priceTiers[0]).toEqual({
      name: 'Adult',
      price: { amountMinor: 4500, currency: 'EUR', formatted: expect.stringContaining('45,00') },
    });
    // 'yellow' is in the English description only: the English words do not match the Portuguese text asked for; in English they do.
    expect((await call(publishable, 'search_experiences', { text: 'yellow', language: 'pt' })).body.items).toEqual([]);
    expect((await call(publishable, 'search_experiences', { text: 'yellow' })).body.items.map((i: any) => i.title)).toEqual([
      'Tram 28 Photo Walk',
    ]);
  });

  it('narrows by group size, price ceiling and dates with places', async () => {
    const titles = async (args: Record<string, unknown>) =>
      (await call(publishable, 'search_experiences', args)).body.items.map((i: any) => i.title).sort();
    const all = await titles({});
    expect(all).toContain('Tram 28 Photo Walk');
    // The tram walk takes at most 8 guests; its cheapest tier is 25.00 EUR.
    expect(await titles({ groupSize: 9 })).not.toContain('Tram 28 Photo Walk');
    expect(await titles({ maxPriceMinor: 2499 })).not.toContain('Tram 28 Photo Walk');
    expect(await titles({ maxPriceMinor: 2500 })).toContain('Tram 28 Photo Walk');
    const day = localDate(2);
    const dated = await call(publishable, 'search_experiences', { text: 'tram', from: day, to: day, groupSize: 2 });
    expect(dated.body.items[0].sessions.map((s: any) => s.start)).toEqual([
      { localDateTime: `${day}T09:30:00`, timeZone: 'Europe/Lisbon' },
      { localDateTime: `${day}T15:00:00`, timeZone: 'Europe/Lisbon' },
    ]);
    // Paged with cursors: one at a time gives the same experiences, each once.
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(publishable, 'search_experiences', { first: 1, ...(cursor ? { cursor } : {}) });
      paged.push(...page.body.items.map((i: any) => i.title));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(paged.sort()).toEqual(all);
  });

  it("answers availability as REST's, for the same key", async () => {
    const from = localDate(0);
    const to = localDate(6);
    for (const [client, key] of [
      [publishable, 'pk_test_lisbon_demo'],
      [secret, 'sk_test_lisbon_demo'],
    ] as const) {
      const rest = await t.rest('GET', `/v1/brands/${LISBON}/experiences/${TRAM}/availability?from=${from}&to=${to}`, { key });
      const tool = await call(client, 'check_availability', { experienceId: TRAM, from, to, first: 100 });
      expect(rest.body.data.length).toBeGreaterThan(5);
      expect(tool.body.sessions).toEqual(
        rest.body.data.map((s: any) => ({
          sessionId: s.id,
          start: { localDateTime: s.startDateTime, timeZone: s.timezone },
          durationMinutes: s.duration,
          capacity: s.capacity,
          remaining: s.remaining,
          waitlistId: s.waitlistId,
        })),
      );
      expect(tool.body.nextCursor).toBeNull();
    }
    // A page of 2 and the page after it: the same sessions.
    const rest = (
      await t.rest('GET', `/v1/brands/${LISBON}/experiences/${TRAM}/availability?from=${from}&to=${to}`, { key: 'pk_test_lisbon_demo' })
    ).body.data;
    const first = await call(publishable, 'check_availability', { experienceId: TRAM, from, to, first: 2 });
    const second = await call(publishable, 'check_availability', { experienceId: TRAM, from, to, first: 2, cursor: first.body.nextCursor });
    expect([...first.body.sessions, ...second.body.sessions].map((s: any) => s.sessionId)).toEqual(rest.slice(0, 4).map((s: any) => s.id));
  });

  it('reads an experience with its questions and policies', async () => {
    const tram = await call(publishable, 'get_experience', { experienceId: TRAM, language: 'pt' });
    expect(tram.body.title).toBe('Passeio fotográfico no elétrico 28');
    expect(tram.body.place.timeZone).toBe('Europe/Lisbon');
    expect(tram.body.host).toEqual({ firstName: 'Inês', description: expect.any(String) });
    expect(Array.isArray(tram.body.questions)).toBe(true);
    expect(Object.keys(tram.body.policies)).toEqual(['cancellation', 'reschedule']);
    expect(JSON.stringify(tram.body)).not.toMatch(/@/);
  });

  it('gives a publishable key no booking, no contact details and no staff tool', async () => {
    const bookings = (await t.rest('GET', `/v1/brands/${LISBON}/bookings?limit=100`, { key: 'sk_test_lisbon_demo' })).body.items;
    const becker = bookings.find((b: any) => b.purchaser.emailAddress === 'hannah.becker@example.de');
    expect(becker).toBeDefined();
    // The secret key's staff assistant reads it, contacts included.
    const staff = await call(secret, 'get_booking', { bookingId: becker.id });
    expect(staff.body.purchaser.emailAddress).toBe('hannah.becker@example.de');
    const forbidden = {
      isError: true,
      body: {
        error: {
          code: 'FORBIDDEN',
          message: expect.stringContaining('A publishable key may not use the tool'),
          details: { keyKind: 'publishable' },
        },
      },
    };
    expect(await call(publishable, 'get_booking', { bookingId: becker.id })).toEqual(forbidden);
    expect(await call(publishable, 'cancel_booking', { bookingId: becker.id })).toEqual(forbidden);
    expect(await call(publishable, 'refund_booking', { bookingId: becker.id, amountMinor: 100 })).toEqual(forbidden);
    // Its cart needs the client secret of its payment intent, which only its checkout was given.
    const cart = await call(publishable, 'cart_status', { cartId: becker.cartId });
    expect(cart).toEqual({ isError: true, body: { error: expect.objectContaining({ code: 'FORBIDDEN' }) } });
    expect(JSON.stringify(cart)).not.toContain('becker');
  });

  it('holds places and answers a payment link; the cart it reads back names nobody', async () => {
    const day = localDate(3);
    const held = await call(publishable, 'hold_places', {
      items: [
        {
          experienceId: TRAM,
          sessionTime: `${day}T09:30:00`,
          participants: [
            { firstName: 'Rita', lastName: 'Lopes', priceTierName: 'Adult' },
            { firstName: 'Tiago', lastName: 'Lopes', priceTierName: 'Child' },
          ],
        },
      ],
      purchaser: { firstName: 'Rita', lastName: 'Lopes', emailAddress: 'rita.lopes@example.pt' },
      language: 'pt-PT',
    });
    expect(held.isError).toBe(false);
    expect(held.body.total).toEqual({ amountMinor: 8610, currency: 'EUR', formatted: '86,10\u00a0€' });
    expect(held.body.bookings).toEqual([{ id: expect.any(String), confirmationCode: expect.any(String), status: 'processing' }]);
    const link = new URL(held.body.paymentLink);
    expect(link.origin + link.pathname).toBe('https://shop.example/pay');
    expect(Object.fromEntries(new URLSearchParams(link.hash.slice(1)))).toEqual({
      brandId: LISBON,
      cartId: held.body.cartId,
      paymentIntentSecret: held.body.paymentIntentSecret,
    });
    const cart = await call(publishable, 'cart_status', { cartId: held.body.cartId, paymentIntentSecret: held.body.paymentIntentSecret });
    expect(cart.body).toMatchObject({ cartId: held.body.cartId, status: 'open', total: { amountMinor: 8610 } });
    expect(cart.body.bookings).toEqual([
      expect.objectContaining({ status: 'processing', guests: 2, start: { localDateTime: `${day}T09:30:00`, timeZone: 'Europe/Lisbon' } }),
    ]);
    expect(JSON.stringify(cart.body)).not.toMatch(/Lopes|rita\.lopes/);
  });

  it("serves resources for the brand's experiences and policies", async () => {
    const { resources } = await publishable.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`tessera://brands/${LISBON}/experiences`, `tessera://brands/${LISBON}/policies`]);
    const read = await publishable.readResource({ uri: `tessera://brands/${LISBON}/experiences` });
    const listed = JSON.parse((read.contents[0] as { text: string }).text);
    expect(listed.experiences.map((e: any) => e.experienceId)).toContain(TRAM);
    await expect(publishable.readResource({ uri: `tessera://brands/${demoIds.brands.tokyo}/policies` })).rejects.toThrow(/FORBIDDEN/);
  });
});
