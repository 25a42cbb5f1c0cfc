/**
 * The example GraphQL client (examples/clients/graphql/) regenerated from this checkout's schema,
 * compiled with tsc and run as its own process against a gateway listening on a port: a schema change
 * that breaks generated clients fails here.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { startApp } from '../../support/app.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const client = join(root, 'examples/clients/graphql');
const bin = (name: string) => join(root, 'node_modules/.bin', name);

const now = () => new Date(CHECKOUT_NOW);
const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
// Adult 45.50 EUR, 23 % VAT on top; the first session has too few places for the client's two guests.
const { experience } = await createExperience(db, brand.id, { title: 'Sunset Sail' });
await createSession(db, experience, { startLocal: '2026-12-01T18:00:00', capacity: 1 });
await createSession(db, experience, { startLocal: '2026-12-02T18:00:00', capacity: 8 });
await createSession(db, experience, { startLocal: '2026-12-20T18:00:00', capacity: 8 });

let baseUrl = '';
beforeAll(async () => {
  const t = await startApp(db, { now, payments: new SandboxProcessor({ now }) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

describe('the generated GraphQL client', () => {
  it('regenerates from the current schema and compiles', async () => {
    await run(bin('graphql-codegen'), ['--config', join(client, 'codegen.ts')], { cwd: root });
    const compiled = await run(bin('tsc'), ['--noEmit', '-p', client], { cwd: root }).catch((error: { stdout: string }) => error);
    expect(compiled.stdout).toBe('');
  }, 120_000);

  it('buys, pays, reads and cancels with a full refund against a running gateway', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(client, 'src/main.ts')], {
      cwd: root,
      env: {
        ...process.env,
        TESSERA_URL: baseUrl,
        TESSERA_API_KEY: key,
        TESSERA_BRAND_ID: brand.id,
        TESSERA_EXPERIENCE_ID: experience.id,
        TESSERA_FROM: '2026-12-01',
        TESSERA_TO: '2026-12-07',
      },
    });
    const result = JSON.parse(stdout);
    expect(result.experience).toEqual({ title: 'Sunset Sail', currency: 'EUR', priceTier: { name: 'Adult', price: 45.5 } });
    expect(result.session).toEqual({ startDateTime: '2026-12-02T18:00:00', timezone: 'Europe/Lisbon', remaining: 8 });
    // 2 x 45.50 = 91.00, plus 23 % VAT: 111.93.
    expect(result.checkout).toEqual({
      totalNetAmount: 111.93,
      cartStatus: 'OPEN',
      booking: { id: expect.any(String), uuid: expect.any(String), status: 'PROCESSING', amount: 111.93 },
    });
    expect(result.paymentIntentStatus).toBe('succeeded');
    expect(result.paid).toMatchObject({
      id: result.checkout.booking.id,
      status: 'CONFIRMED',
      amount: 111.93,
      amountRefunded: 0,
      currency: 'EUR',
      paymentMethod: 'CREDIT_CARD',
      event: { startDateTime: '2026-12-02T18:00:00', timezone: 'Europe/Lisbon' },
    });
    expect(result.paid.participants.map((p: { firstName: string; cancelledAt: string | null }) => [p.firstName, p.cancelledAt])).toEqual([
      ['Ana', null],
      ['Rui', null],
    ]);
    expect(result.cancellation).toEqual({
      items: [
        { id: result.checkout.booking.id, uuid: result.checkout.booking.uuid, status: 'REFUNDED', amount: 111.93, amountRefunded: 111.93 },
      ],
      errors: [],
    });
    expect(result.cancelled).toMatchObject({ status: 'REFUNDED', amountRefunded: 111.93 });
    expect(result.cancelled.participants.map((p: { cancelledAt: string | null }) => p.cancelledAt)).toEqual([CHECKOUT_NOW, CHECKOUT_NOW]);
  }, 60_000);

  it('gave the places it took back to the session', async () => {
    const remaining = await db.value("SELECT capacity - reserved FROM sessions WHERE start_local = '2026-12-02T18:00:00'");
    expect(remaining).toBe(8);
  });
});
