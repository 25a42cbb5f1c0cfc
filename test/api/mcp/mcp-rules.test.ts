/**
 * Issue 40: the rules the MCP tools share with REST, through the SDK's client against listening gateways:
 * a hold through a tool spends the same client budget as a browser's checkout, staff tools cancel and
 * refund with a secret key, malformed arguments are VALIDATION_FAILED naming the field, and two gateways
 * on one database serve one client call after call (stateless).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { listen } from '../../support/live.ts';
import { call, mcpClient } from '../../support/mcp.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const SHOP = 'https://shop.example';
const db = await freshDb();
// Every place open to publishable holds: the budget per client is what is tested.
const brand = await createBrand(db, { publishableHoldSharePercent: 100 });
const secretKey = (await createApiKey(db, { brandId: brand.id })).secret;
const publishableKey = (await createPublishableKey(db, brand.id, [SHOP])).secret;
const { experience } = await createExperience(db, brand.id);
const session = await createSession(db, experience, { startLocal: '2026-12-01T09:00:00', capacity: 40 });
let gateways: TestApp[];
let urls: string[];
beforeAll(async () => {
  // Two gateways on one database, each behind a proxy on this host: X-Forwarded-For names the client.
  gateways = [];
  urls = [];
  for (let i = 0; i < 2; i++) {
    const t = await startApp(db, { now: () => NOW, http: { TRUST_PROXY: ['127.0.0.1'] }, mcpPaymentPageUrl: 'https://shop.example/pay' });
    gateways.push(t);
    urls.push((await listen(t.app)).http);
  }
});

const items = (guests: number) => [
  {
    experienceId: experience.id,
    sessionTime: session.startLocal,
    participants: Array.from({ length: guests }, (_, i) => ({ firstName: `G${i}`, lastName: 'Silva', priceTierName: 'Adult' })),
  },
];
const purchaser = { firstName: 'Ana', lastName: 'Silva', emailAddress: 'ana@example.pt' };
const reserved = () => db.value<number>('SELECT reserved FROM sessions WHERE id = ?', session.id);

describe('holds through a tool', () => {
  it("are bounded by the client's budget exactly as a browser's checkouts: the same client, the same 10 places", async () => {
    const before = await reserved();
    const assistant = await mcpClient(urls[0]!, publishableKey, { 'x-forwarded-for': '203.0.113.7' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(assistant, 'hold_places', { items: items(2), purchaser }));
    expect(answers.map((a) => a.isError)).toEqual([false, false, false, false]);
    // The same client's browser checks out 2 more through REST: 10 held.
    const browser = await gateways[1]!.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key: publishableKey,
      headers: { origin: SHOP, 'x-forwarded-for': '203.0.113.7' },
      body: { data: items(2), purchaser },
    });
    expect(browser.status).toBe(201);
    const refused = await call(assistant, 'hold_places', { items: items(1), purchaser });
    expect(refused).toEqual({
      isError: true,
      body: {
        error: {
          code: 'HOLD_LIMIT_REACHED',
          message:
            'This client already holds 10 unpaid places of this brand (at most 10 at once): pay for them, or retry in 300 s when the oldest hold lapses',
          details: { limit: 10, requested: 1, held: 10, retryAfterSeconds: 300 },
        },
      },
    });
    // And the browser of that client is refused alike.
    const browserAgain = await gateways[0]!.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key: publishableKey,
      headers: { origin: SHOP, 'x-forwarded-for': '203.0.113.7' },
      body: { data: items(1), purchaser },
    });
    expect(browserAgain.status).toBe(429);
    // A cart asking for more than the budget alone names its field.
    const tooMany = await call(assistant, 'hold_places', { items: items(11), purchaser });
    expect(tooMany.body.error).toMatchObject({ code: 'HOLD_LIMIT_REACHED', field: 'data', details: { limit: 10, requested: 11 } });
    // Another client has a budget of its own.
    const other = await mcpClient(urls[1]!, publishableKey, { 'x-forwarded-for': '203.0.113.8' });
    expect((await call(other, 'hold_places', { items: items(2), purchaser })).isError).toBe(false);
    expect((await reserved()) - before).toBe(12);
    // The first holds lapse in 5 minutes, as a browser's.
    expect(answers[0]!.body.expiresAt).toBe(new Date(NOW.getTime() + 300_000).toISOString());
  });
});

describe('staff tools with a secret key', () => {
  it('cancels a booking with a refund, and refunds another within its balance', async () => {
    const staff = await mcpClient(urls[0]!, secretKey);
    const { booking } = await createPaidBooking(db, {
      brandId: brand.id,
      session,
      participants: [{ priceMinor: 4500 }, { priceMinor: 4500 }],
    });
    const cancelled = await call(staff, 'cancel_booking', { bookingId: booking.id, refundAmountMinor: 3000 });
    expect(cancelled.isError).toBe(false);
    expect(cancelled.body).toMatchObject({
      bookingId: booking.id,
      status: 'cancelled',
      amount: { amountMinor: 9000, currency: 'EUR', formatted: '€90.00' },
      amountRefunded: { amountMinor: 3000, currency: 'EUR', formatted: '€30.00' },
    });
    expect((await gateways[1]!.rest('GET', `/v1/bookings/${booking.id}`, { key: secretKey })).body).toMatchObject({
      status: 'cancelled',
      amountRefunded: 30,
    });

    const { booking: kept } = await createPaidBooking(db, { brandId: brand.id, session, participants: [{ priceMinor: 4500 }] });
    const refunded = await call(staff, 'refund_booking', { bookingId: kept.id, amountMinor: 1250 });
    expect(refunded.body).toMatchObject({ status: 'confirmed', amountRefunded: { amountMinor: 1250, formatted: '€12.50' } });
    const beyond = await call(staff, 'refund_booking', { bookingId: kept.id, amountMinor: 4000 });
    expect(beyond).toEqual({
      isError: true,
      body: { error: expect.objectContaining({ code: 'REFUND_EXCEEDS_BALANCE', field: 'amountMinor' }) },
    });
    // Another brand's booking is not found, never forbidden.
    const elsewhere = await createBrand(db);
    const { experience: theirs } = await createExperience(db, elsewhere.id);
    const theirSession = await createSession(db, theirs, { startLocal: '2026-12-02T09:00:00' });
    const { booking: foreign } = await createPaidBooking(db, { brandId: elsewhere.id, session: theirSession, participants: [{}] });
    expect((await call(staff, 'cancel_booking', { bookingId: foreign.id })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('malformed arguments', () => {
  it('are a tool error VALIDATION_FAILED naming the field', async () => {
    const assistant = await mcpClient(urls[0]!, publishableKey);
    const field = async (name: string, args: Record<string, unknown>) => {
      const answer = await call(assistant, name, args);
      expect(answer.isError).toBe(true);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
      return answer.body.error.field;
    };
    expect(await field('search_experiences', { groupSize: 'four' })).toBe('groupSize');
    expect(await field('search_experiences', { from: '2026-12-01' })).toBe('to');
    expect(await field('search_experiences', { colour: 'blue' })).toBe('colour');
    expect(await field('check_availability', { experienceId: experience.id, from: '2026-12-01', to: '2026-11-01' })).toBe('to');
    const noTier = { items: [{ ...items(1)[0], participants: [{ firstName: 'A', lastName: 'B' }] }], purchaser };
    expect(await field('hold_places', noTier)).toBe('items.0.participants.0.priceTierName');
    expect(await field('hold_places', { items: items(1), purchaser: { ...purchaser, emailAddress: 'nobody' } })).toBe(
      'purchaser.emailAddress',
    );
    const unknownTier = await call(assistant, 'quote_cart', { items: [{ ...items(1)[0], participants: [{ priceTierName: 'Pirate' }] }] });
    expect(unknownTier.body.error).toMatchObject({ code: 'UNKNOWN_PRICE_TIER', field: 'data.0.participants.0.priceTierName' });
  });
});

describe('two gateways on one database', () => {
  it('serve one client, each call on the other gateway', async () => {
    let turn = 0;
    const seen: string[] = [];
    // Every request of the client goes to the next gateway: initialize on one, the calls alternating.
    const alternate: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const gateway = new URL(urls[turn++ % 2]!);
      url.host = gateway.host;
      seen.push(gateway.port);
      return fetch(url, init);
    };
    const client = new Client({ name: 'two-gateways', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${urls[0]}/mcp`), {
        fetch: alternate,
        requestInit: { headers: { authorization: `Bearer ${publishableKey}`, 'x-forwarded-for': '203.0.113.20' } },
      }),
    );
    const held = await call(client, 'hold_places', { items: items(1), purchaser });
    expect(held.isError).toBe(false);
    const state = await call(client, 'cart_status', { cartId: held.body.cartId, paymentIntentSecret: held.body.paymentIntentSecret });
    expect(state.body).toMatchObject({ cartId: held.body.cartId, status: 'open', bookings: [{ status: 'processing', guests: 1 }] });
    await client.close();
    expect(new Set(seen).size).toBe(2);
  });
});
