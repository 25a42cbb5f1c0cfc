/**
 * The example booking page (examples/booking-page) in a real Chromium: served on its own origin, it buys
 * a tour from a real gateway (production mode: only listed origins pass CORS) with a publishable key,
 * pays through the sandbox and shows the confirmation, which the database then holds. The same page on
 * an origin nobody allowed gets nothing from the gateway. `.ci/run` installs Debian's chromium and sets
 * TESSERA_REQUIRE_BROWSER=1, so there a missing browser fails instead of skipping.
 */
import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBookingPage } from '../../examples/booking-page/serve.ts';
import { demoIds, seedDemoDataIfEmpty } from '../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { freshDb } from '../support/db.ts';
import { createPublishableKey } from '../../fixtures/factories/brands.ts';

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
  let browser: BrowserContext;

  beforeAll(async () => {
    await seedDemoDataIfEmpty(db);
    gateway = await startApp(db, { production: true });
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    gatewayUrl = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
    shop = await serveBookingPage(0);
    elsewhere = await serveBookingPage(0);
    key = (await createPublishableKey(db, demoIds.brands.lisbon, [shop.origin])).secret;
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

  it('buys a tour with a publishable key and shows the confirmation the database holds', async () => {
    const page = await browser.newPage();
    await page.goto(`${shop.origin}/?gateway=${gatewayUrl}&key=${key}`);
    await expect.poll(() => page.locator('#brand').textContent()).toBe('Harbor Lisbon');
    await page.locator('li.listing', { hasText: 'Tram 28 Photo Walk' }).getByRole('button', { name: 'Book' }).click();
    await page.locator('#experience').waitFor();
    expect(await page.locator('#experience-title').textContent()).toBe('Tram 28 Photo Walk');
    const sessionTime = await page.locator('#session').inputValue();
    expect(sessionTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
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
    const total = await page.locator('#total').textContent();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.locator('#confirmation').waitFor();
    const code = (await page.locator('#confirmation-code').textContent())!;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(await page.locator('#confirmation-detail').textContent()).toBe(
      `Paid ${total}. Tram 28 Photo Walk, ${sessionTime.replace('T', ' ').slice(0, 16)}.`,
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    const screenshot = join(ARTIFACTS, 'booking-page-confirmation.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(5_000);

    const bookings = await db.all(
      `SELECT b.status, b.amount_minor AS amount, b.currency, COUNT(p.id) AS guests FROM bookings b
         JOIN participants p ON p.booking_id = b.id WHERE b.cart_confirmation_code = ? GROUP BY b.id`,
      code,
    );
    expect(bookings).toHaveLength(1);
    const [booking] = bookings as Array<{ status: string; amount: number; currency: string; guests: number }>;
    expect(booking).toMatchObject({ status: 'confirmed', currency: 'EUR', guests: 2 });
    expect(total).toBe(new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(booking!.amount / 100));
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
