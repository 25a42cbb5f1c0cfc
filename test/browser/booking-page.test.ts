/**
 * The example booking page (examples/booking-page) in a real Chromium: served on its own origin, it buys
 * a tour from a real gateway (production mode: only listed origins pass CORS) with a publishable key,
 * pays through the sandbox and shows the confirmation, which the database then holds. The same page on
 * an origin nobody allowed gets nothing from the gateway. Live updates: while the page shows the
 * experience, other clients' holds change its session list within 2 s over the page's WebSocket, and the
 * confirmation comes from the cart's subscription; with the WebSocket blocked the page books as before.
 * `.ci/run` installs Debian's chromium and sets
 * TESSERA_REQUIRE_BROWSER=1, so there a missing browser fails instead of skipping.
 */
import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBookingPage } from '../../examples/booking-page/serve.ts';
import { demoIds, seedDemoDataIfEmpty } from '../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { freshDb } from '../support/db.ts';
import { createApiKey, createPublishableKey } from '../../fixtures/factories/brands.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.TESSERA_REQUIRE_BROWSER === '1') {
  throw new Error(`Chromium is required here (TESSERA_REQUIRE_BROWSER=1) but ${CHROMIUM} does not exist`);
}
if (!available) {
  process.stderr.write(`Skipping the browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)\n`);
}

/** Where the screenshot goes (ignored by git); CI keeps it with the run's output. */
const ARTIFACTS = join(process.cwd(), 'test-results');

const db = await freshDb();

describe.skipIf(!available)('the booking page in Chromium', () => {
  let gateway: TestApp;
  let gatewayUrl: string;
  let shop: { origin: string; server: Server };
  let elsewhere: { origin: string; server: Server };
  let key: string;
  let secretKey: string;
  let browser: BrowserContext;

  /** A GraphQL call over HTTP from another client (a server: no Origin), failing the test on errors. */
  async function gql(query: string, variables: Record<string, unknown>, withKey: string) {
    const res = await fetch(`${gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${withKey}` },
      body: JSON.stringify({ query, variables }),
    });
    const answer = (await res.json()) as { data?: any; errors?: unknown[] };
    expect(answer.errors).toBeUndefined();
    return answer.data;
  }

  /** Places left of the Tram 28 session starting at `startDateTime`, as the page's key is shown them over HTTP. */
  async function placesLeft(startDateTime: string): Promise<number> {
    const date = startDateTime.slice(0, 10);
    const { availability } = await gql(
      'query($b: UUID!, $e: UUID!, $d: LocalDate!) { availability(brandId: $b, experienceId: $e, from: $d, to: $d) { startDateTime remaining } }',
      { b: demoIds.brands.lisbon, e: demoIds.experiences.tram28PhotoWalk, d: date },
      key,
    );
    return (availability as Array<{ startDateTime: string; remaining: number }>).find((s) => s.startDateTime === startDateTime)!.remaining;
  }

  /** Another client's hold of `places` on a Tram 28 session, through the API's checkout; answers the intent's client secret. */
  async function hold(startDateTime: string, places: number, withKey: string): Promise<string> {
    const participants = Array.from({ length: places }, (_, i) => ({
      firstName: `Other${i + 1}`,
      lastName: 'Client',
      priceTierName: 'Adult',
    }));
    const { createPaymentIntent } = await gql(
      `mutation($b: UUID!, $c: UUID!, $input: CreatePaymentIntentInput!) {
        createPaymentIntent(brandId: $b, cartId: $c, input: $input) { paymentIntentSecret }
      }`,
      {
        b: demoIds.brands.lisbon,
        c: randomUUID(),
        input: {
          data: [{ experienceId: demoIds.experiences.tram28PhotoWalk, sessionTime: startDateTime, participants }],
          purchaser: { firstName: 'Other', lastName: 'Client', emailAddress: 'other@example.com' },
        },
      },
      withKey,
    );
    return createPaymentIntent.paymentIntentSecret as string;
  }

  const when = (startDateTime: string) => startDateTime.replace('T', ' ').slice(0, 16);
  const option = (page: Page, startDateTime: string) => page.locator(`#session option[value="${startDateTime}"]`);

  /** Opens Tram 28 on a fresh page, as a visitor would. */
  async function openTram28(): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${shop.origin}/?gateway=${gatewayUrl}&key=${key}`);
    await expect.poll(() => page.locator('#brand').textContent()).toBe('Harbor Lisbon');
    await page.locator('li.listing', { hasText: 'Tram 28 Photo Walk' }).getByRole('button', { name: 'Book' }).click();
    await page.locator('#experience').waitFor();
    expect(await page.locator('#experience-title').textContent()).toBe('Tram 28 Photo Walk');
    return page;
  }

  /** Fills the form for two guests and checks out; answers the total shown. */
  async function checkOut(page: Page): Promise<string> {
    await page.fill('input[name="purchaser-first"]', 'Ana');
    await page.fill('input[name="purchaser-last"]', 'Silva');
    await page.fill('input[name="purchaser-email"]', 'ana@example.com');
    await page.fill('input[name="guest-0:first"]', 'Ana');
    await page.fill('input[name="guest-0:last"]', 'Silva');
    await page.getByRole('button', { name: 'Add a guest' }).click();
    await page.fill('input[name="guest-1:first"]', 'Rui');
    await page.fill('input[name="guest-1:last"]', 'Costa');
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.locator('#payment').waitFor();
    return (await page.locator('#total').textContent())!;
  }

  /** The cart's bookings with that confirmation code, as the database holds them. */
  async function bookingsOf(code: string) {
    return db.all<{ status: string; amount: number; currency: string; guests: number }>(
      `SELECT b.status, b.amount_minor AS amount, b.currency, COUNT(p.id) AS guests FROM bookings b
         JOIN participants p ON p.booking_id = b.id WHERE b.cart_confirmation_code = ? GROUP BY b.id`,
      code,
    );
  }

  beforeAll(async () => {
    await seedDemoDataIfEmpty(db);
    gateway = await startApp(db, { production: true });
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    gatewayUrl = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
    shop = await serveBookingPage(0);
    elsewhere = await serveBookingPage(0);
    key = (await createPublishableKey(db, demoIds.brands.lisbon, [shop.origin])).secret;
    secretKey = (await createApiKey(db, { brandId: demoIds.brands.lisbon })).secret;
    // A fresh profile per run (the persistent context's directory), nothing from an earlier run.
    browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tessera-chromium-')), {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    shop?.server.close();
    elsewhere?.server.close();
  });

  it('buys a tour with a publishable key, its places and confirmation live, and shows the confirmation the database holds', async () => {
    const page = await openTram28();
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live: places left and your confirmation update as they happen.');
    const sessionTime = await page.locator('#session').inputValue();
    expect(sessionTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const open = await page
      .locator('#session option:not([disabled])')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    const other = open.find((value) => value !== sessionTime)!;
    expect(other).toBeDefined();

    // Another visitor holds one place of the chosen session: the page's list says so within 2 s.
    const before = await placesLeft(sessionTime);
    expect(await option(page, sessionTime).textContent()).toBe(`${when(sessionTime)} · ${before} left`);
    await hold(sessionTime, 1, key);
    expect(await placesLeft(sessionTime)).toBe(before - 1);
    await expect.poll(() => option(page, sessionTime).textContent(), { timeout: 2_000 }).toBe(`${when(sessionTime)} · ${before - 1} left`);

    // A server takes every place left of another session: sold out, not choosable; its payment fails and
    // the places come back.
    const otherBefore = await placesLeft(other);
    const { availability } = await gql(
      'query($b: UUID!, $e: UUID!, $d: LocalDate!) { availability(brandId: $b, experienceId: $e, from: $d, to: $d) { startDateTime remaining } }',
      { b: demoIds.brands.lisbon, e: demoIds.experiences.tram28PhotoWalk, d: other.slice(0, 10) },
      secretKey,
    );
    const all = (availability as Array<{ startDateTime: string; remaining: number }>).find((s) => s.startDateTime === other)!.remaining;
    const soldOut = await hold(other, all, secretKey);
    await expect.poll(() => option(page, other).textContent(), { timeout: 2_000 }).toBe(`${when(other)} · sold out`);
    expect(await option(page, other).isDisabled()).toBe(true);
    const failed = await fetch(`${gatewayUrl}/v1/sandbox/payment_intents/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentIntentSecret: soldOut, outcome: 'failed' }),
    });
    expect(failed.status).toBe(200);
    await expect.poll(() => option(page, other).textContent(), { timeout: 2_000 }).toBe(`${when(other)} · ${otherBefore} left`);
    expect(await option(page, other).isDisabled()).toBe(false);
    expect(await page.locator('#session').inputValue()).toBe(sessionTime);

    const total = await checkOut(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.locator('#confirmation').waitFor();
    // Told by the cart's subscription once Tessera confirmed the booking, not by the payment's answer.
    expect(await page.locator('#confirmation').getAttribute('data-via')).toBe('live');
    const code = (await page.locator('#confirmation-code').textContent())!;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(await page.locator('#confirmation-detail').textContent()).toBe(`Paid ${total}. Tram 28 Photo Walk, ${when(sessionTime)}.`);
    mkdirSync(ARTIFACTS, { recursive: true });
    const screenshot = join(ARTIFACTS, 'booking-page-confirmation.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(5_000);

    const bookings = await bookingsOf(code);
    expect(bookings).toHaveLength(1);
    const [booking] = bookings;
    expect(booking).toMatchObject({ status: 'confirmed', currency: 'EUR', guests: 2 });
    expect(total).toBe(new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(booking!.amount / 100));
    // Done: the page closed its WebSocket.
    await expect.poll(() => gateway.app.liveConnections.subscriptions).toBe(0);
    await page.close();
  });

  it('says the booking did not go through when its hold fails before the payment, as the subscription tells it', async () => {
    const page = await openTram28();
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live: places left and your confirmation update as they happen.');
    const checkout = page.waitForResponse(
      (response) =>
        response.url() === `${gatewayUrl}/graphql` &&
        response.request().method() === 'POST' &&
        (response.request().postData() ?? '').includes('createPaymentIntent'),
    );
    await checkOut(page);
    const { data } = (await (await checkout).json()) as {
      data: { createPaymentIntent: { paymentIntentSecret: string; cart: { confirmationCode: string } } };
    };
    // The processor refuses the payment (the guest's bank, another tab): the bookings fail, places go back.
    const refused = await fetch(`${gatewayUrl}/v1/sandbox/payment_intents/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentIntentSecret: data.createPaymentIntent.paymentIntentSecret, outcome: 'failed' }),
    });
    expect(refused.status).toBe(200);
    await page.locator('#status.error').waitFor({ timeout: 2_000 });
    expect(await page.locator('#status').textContent()).toBe(
      'The booking did not go through: the hold on your places lapsed or the payment failed. Please book again.',
    );
    expect(await page.locator('#payment').isHidden()).toBe(true);
    expect(await page.locator('#confirmation').isHidden()).toBe(true);
    expect(await bookingsOf(data.createPaymentIntent.cart.confirmationCode)).toMatchObject([{ status: 'failed', guests: 2 }]);
    await page.close();
  });

  it('books as before when no WebSocket gets through, and says live updates are off', async () => {
    const page = await browser.newPage();
    // A network that lets HTTP through but cuts WebSockets.
    await page.routeWebSocket(/\/graphql$/, (ws) => ws.close({ code: 1011, reason: 'Blocked' }));
    await page.goto(`${shop.origin}/?gateway=${gatewayUrl}&key=${key}`);
    await page.locator('li.listing', { hasText: 'Tram 28 Photo Walk' }).getByRole('button', { name: 'Book' }).click();
    await page.locator('#experience').waitFor();
    await expect
      .poll(() => page.locator('#live').textContent())
      .toBe(
        `Live updates are off (no WebSocket to ${new URL(gatewayUrl).host}): places are as loaded, and the payment's answer confirms the booking.`,
      );
    const sessionTime = await page.locator('#session').inputValue();
    const total = await checkOut(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.locator('#confirmation').waitFor();
    expect(await page.locator('#confirmation').getAttribute('data-via')).toBe('answer');
    const code = (await page.locator('#confirmation-code').textContent())!;
    expect(await page.locator('#confirmation-detail').textContent()).toBe(`Paid ${total}. Tram 28 Photo Walk, ${when(sessionTime)}.`);
    expect(await bookingsOf(code)).toMatchObject([{ status: 'confirmed', guests: 2 }]);
    await page.close();
  });

  it('gets nothing from the gateway on an origin nobody allowed', async () => {
    const page = await browser.newPage();
    await page.goto(`${elsewhere.origin}/?gateway=${gatewayUrl}&key=${key}`);
    await page.locator('#status.error').waitFor();
    expect(await page.locator('#status').textContent()).toBe(
      `Cannot reach Tessera at ${gatewayUrl} from ${elsewhere.origin}: is it running, and does it allow this origin?`,
    );
    expect(await page.locator('#listings').isHidden()).toBe(true);
    await page.close();
  });
});
