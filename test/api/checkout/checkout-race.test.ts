/**
 * No place is ever sold twice: many checkouts racing for the last places of a session sell exactly the
 * capacity, within one process (interleaving at the processor call) and across two OS processes
 * writing the same database.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { CheckoutTestProcessor, checkoutRows, guest } from '../../support/checkout.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb, freshSharedDb, type TestDb } from '../../support/db.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Active participants of processing and confirmed bookings of the session, counted from the rows. */
const heldPlaces = (db: TestDb, sessionId: string) =>
  db.value(
    `SELECT count(*) FROM participants p JOIN bookings b ON b.id = p.booking_id
       WHERE b.session_id = ? AND b.status IN ('processing', 'confirmed') AND p.cancelled_at IS NULL`,
    sessionId,
  );

describe('racing checkouts in one process', async () => {
  const db = await freshDb();
  const rows = checkoutRows(db);
  const brand = await createBrand(db);
  const key = (await createApiKey(db, { brandId: brand.id })).secret;
  const sail = (await createExperience(db, brand.id)).experience;
  const payments = new CheckoutTestProcessor();
  payments.holdUntil(40);
  payments.delay = () => Math.floor(Math.random() * 15);
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(db, { payments, now: () => new Date(CHECKOUT_NOW) });
  });

  it('sell exactly the 5 places left to 5 of 40 concurrent requests; the 35 others get 409 CAPACITY_EXCEEDED', async () => {
    const s = await createSession(db, sail, { startLocal: '2026-12-01T09:00:00', capacity: 8 });
    await createBooking(db, { brandId: brand.id, session: s, participants: [{}, {}, {}] });
    expect(await rows.reserved(s.id)).toBe(3);

    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
          key,
          body: { data: [{ experienceId: sail.id, sessionTime: '2026-12-01T09:00', participants: [guest(`Racer${i}`)] }] },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    // Every status counted, so a failure shows what the others were answered.
    const counted: Record<number, number> = {};
    for (const status of statuses) counted[status] = (counted[status] ?? 0) + 1;
    expect(counted).toEqual({ 201: 5, 409: 35 });
    expect(new Set(responses.filter((r) => r.status === 409).map((r) => r.body.error.code))).toEqual(new Set(['CAPACITY_EXCEEDED']));
    // Every request reached the processor (the barrier holds them all there before any writes), so the
    // transaction's own check is what sold exactly five.
    expect(payments.intentCalls).toBe(40);
    expect(await rows.reserved(s.id)).toBe(8);
    expect(await db.value("SELECT count(*) FROM bookings WHERE session_id = ? AND status = 'processing'", s.id)).toBe(5);
    expect(await heldPlaces(db, s.id)).toBe(8);
    expect(await rows.count('carts')).toBe(5);
  });
});

interface Worker {
  ready: Promise<void>;
  done: Promise<Record<string, number>>;
  go(): void;
}

function startWorker(args: string[]): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/support/checkout-worker.ts'), ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<Record<string, number>>((resolve, reject) =>
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(last) as Record<string, number>);
      else reject(new Error(`worker exited with ${code}: ${err}`));
    }),
  );
  return { ready, done, go: () => child.stdin.end('go\n') };
}

describe('racing checkouts in two OS processes on one database', async () => {
  // A database the workers open by its URL (a file on SQLite), each with its own connections.
  const { db, url } = await freshSharedDb();
  const brand = await createBrand(db);
  const sail = (await createExperience(db, brand.id)).experience;
  const s = await createSession(db, sail, { startLocal: '2026-12-01T09:00:00', capacity: 7 });

  it('sell exactly the capacity between them, never more', async () => {
    const args = [url, brand.id, sail.id, '2026-12-01T09:00', '25'];
    const workers = [startWorker(args), startWorker(args)];
    // Both processes are up before either starts, so their checkouts overlap.
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const [a, b] = await Promise.all(workers.map((w) => w.done));
    expect((a!.ok ?? 0) + (b!.ok ?? 0)).toBe(7);
    expect((a!.CAPACITY_EXCEEDED ?? 0) + (b!.CAPACITY_EXCEEDED ?? 0)).toBe(43);
    expect(Object.keys({ ...a, ...b }).sort()).toEqual(['CAPACITY_EXCEEDED', 'ok']);
    expect(await checkoutRows(db).reserved(s.id)).toBe(7);
    expect(await heldPlaces(db, s.id)).toBe(7);
    // Most of it is the two processes starting (tsx compiling the sources, connecting) before they race.
  }, 60_000);
});
