/**
 * Keys and payment intent secrets are never compared byte by byte: the server hashes what it is given
 * (SHA-256) and asks a unique index for that hash. A guess sharing a prefix with a real key hashes to
 * something unrelated, so how long the lookup takes says nothing about how close the guess was. A timing
 * measurement would be noise-bound and flaky; these tests pin down the mechanism instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../../src/domain/access/secrets.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { guest } from '../../support/checkout.ts';
import { freshDb, itOnSqlite } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { recordStatements, untilDataVersionSteady } from '../../support/statements.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const sail = (await createExperience(db, brand.id)).experience;
await createSession(db, sail, { startLocal: '2027-01-05T18:00:00' });
let t: TestApp;

/** Every SQL statement run and the values bound to it, from the moment `record` starts. */
const executed: Array<{ sql: string; params: unknown[] }> = [];

const record = () => recordStatements(db, (sql, params) => executed.push({ sql, params }));

let stopRecording = () => {};
beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2026-11-25T12:00:00.000Z') });
  await untilDataVersionSteady(db);
  stopRecording = record();
});
afterAll(() => stopRecording());

const bound = () => executed.flatMap((e) => e.params).filter((p): p is string => typeof p === 'string');

describe('secret comparison', () => {
  it('sends the database the SHA-256 of an API key, never the key, for a right key, a near miss and the legacy header', async () => {
    // The right key's third request is answered from the key cache (src/domain/access/key-lookup.ts), keyed by
    // the hash too, while the keys version holds (the version that cache is judged by). On PostgreSQL it is the
    // server's snapshot until the gateway listens, which a commit anywhere on the server moves (beforeAll waits
    // for the listening), then moves with each notification of a write to the keys; the key is then looked up
    // again. So the three requests are sent until the version held through them, each round after the first
    // with a key of its own that no cache knows yet. A key's creation moves the version twice, as it commits
    // (this gateway's own write) and as its notification arrives: a round starts once both have (without that
    // wait, each round's notification arrived during its first request and no round ever held). On SQLite
    // nothing else writes: the first round is that one.
    let right = key;
    let nearMiss = '';
    for (let round = 1; ; round++) {
      if (round > 1) {
        right = (await createApiKey(db, { brandId: brand.id })).secret;
        const written = await db.database.keysVersion();
        for (let wait = 0; wait < 100 && (await db.database.keysVersion()) === written; wait++) await sleep(10);
      }
      nearMiss = `${right.slice(0, -1)}${right.endsWith('0') ? '1' : '0'}`;
      const version = await db.database.keysVersion();
      executed.length = 0;
      expect((await t.rest('GET', `/v1/brands/${brand.id}/settings`, { key: right })).status).toBe(200);
      expect((await t.rest('GET', `/v1/brands/${brand.id}/settings`, { key: nearMiss })).status).toBe(401);
      const legacy = { 'tessera-brand-id': brand.id, 'tessera-secret-key': right };
      expect((await t.rest('GET', `/v1/brands/${brand.id}/settings`, { headers: legacy })).status).toBe(200);
      if ((await db.database.keysVersion()) === version || round === 20) break;
    }

    const lookups = executed.filter((e) => /from "api_keys"/i.test(e.sql));
    expect(lookups.map((e) => e.params.find((p) => typeof p === 'string'))).toEqual([hashSecret(right), hashSecret(nearMiss)]);
    for (const value of bound()) {
      expect(value).not.toContain(right);
      expect(value).not.toContain(nearMiss);
    }
  });

  // SQLite's own planner and catalogue (EXPLAIN QUERY PLAN, pragma_index_list): PostgreSQL's planner may
  // rightly scan a table this small, so the plan is pinned down where it is deterministic.
  itOnSqlite('looks the hash up with one seek in a unique index: no row is compared with the guess', async () => {
    const [lookup] = executed.filter((e) => /from "api_keys"/i.test(e.sql));
    const plan = (await db.all(`EXPLAIN QUERY PLAN ${lookup!.sql}`, ...lookup!.params)) as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail)).toEqual([
      expect.stringMatching(/^SEARCH api_keys USING INDEX api_keys_secret_hash_idx \(secret_hash=\?\)$/),
    ]);
    const index = (await db.one("SELECT \"unique\" FROM pragma_index_list('api_keys') WHERE name = 'api_keys_secret_hash_idx'")) as {
      unique: number;
    };
    expect(index.unique).toBe(1);
  });

  it('treats the payment intent secret the same way when the sandbox confirms a payment', async () => {
    const cart = await t.rest('POST', `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`, {
      key,
      body: { data: [{ experienceId: sail.id, sessionTime: '2027-01-05T18:00', participants: [guest('Ana')] }] },
    });
    const secret: string = cart.body.paymentIntentSecret;
    executed.length = 0;
    const res = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
      body: { paymentIntentSecret: secret, outcome: 'succeeded' },
    });
    expect(res.body).toEqual({ paymentIntentStatus: 'succeeded' });
    expect(bound()).toContain(hashSecret(secret));
    for (const value of bound()) expect(value).not.toContain(secret);
  });

  it('reads stored secret hashes nowhere but in those index lookups (and where secrets are issued)', () => {
    const root = join(import.meta.dirname, '../../../src');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const readers = files(root)
      .filter((file) => /secretHash/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file))
      .sort();
    expect(readers).toEqual([
      'db/demo/brands.ts',
      'db/demo/demo-bookings.ts',
      'db/postgres/schema/access.ts',
      'db/postgres/schema/checkout.ts',
      'db/postgres/stores/access/api-keys.ts',
      'db/postgres/stores/checkout/checkout.ts',
      'db/postgres/stores/payments/payments.ts',
      'db/sqlite/schema/access.ts',
      'db/sqlite/schema/checkout.ts',
      'db/sqlite/stores/access/api-keys.ts',
      'db/sqlite/stores/checkout/checkout.ts',
      'db/sqlite/stores/payments/payments.ts',
      'domain/access/api-keys.ts',
      'domain/access/key-lookup.ts',
      'domain/access/store.ts',
      'domain/checkout/store.ts',
      'domain/checkout/write.ts',
      // The sandbox's confirm names its intent by the secret's hash (an IntentSelector), looked up by the store.
      'domain/payments/payments.ts',
      'domain/payments/processor-events.ts',
      'domain/payments/store.ts',
    ]);
    for (const file of readers) {
      expect(readFileSync(join(root, file), 'utf8')).not.toMatch(/secretHash\s*[!=]==?|[!=]==?\s*\w*\.?secretHash/);
    }
  });
});
