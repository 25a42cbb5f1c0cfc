/**
 * The keys version on PostgreSQL (Database.keysVersion; src/db/postgres/data-version.ts): the API key a
 * request names is looked up again only when a key, a brand or an organization may have been written, not
 * after every write. What a user sees: a booking does not make the next request pay a key lookup; a key
 * revoked on a gateway is refused there from the next request on, and on another gateway of the database
 * once the notification arrives (normally a few milliseconds; the bound tested here is a second); a
 * brand added to an organization is seen by its key the same way.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { admissionDefaults } from '../../src/db/admission.ts';
import { openPostgres } from '../../src/db/postgres/client.ts';
import { postgresEngine } from '../../src/db/postgres/database.ts';

import { revokeKey } from '../../src/domain/access/api-keys.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createOrganization } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { holdMutation } from '../../fixtures/graphql/documents.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { guest } from '../support/checkout.ts';
import { freshPostgresDb, testDbOf, type TestDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { statementsBesidesLiveness } from '../support/statements.ts';
import { waitFor } from '../support/webhook-receiver.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;
/** A second gateway on the same database: its own pool and its own listening connection. */
const second = adminUrl
  ? testDbOf(postgresEngine(openPostgres(db!.url, { poolSize: 4 }), admissionDefaults, { checkIntervalMs: 100, checkTimeoutMs: 500 }))
  : undefined;
afterAll(() => second?.database.close());
/** Another session on the database, as psql would write through. */
const other = adminUrl ? new pg.Client({ connectionString: db!.url }) : undefined;
await other?.connect();
afterAll(() => other?.end());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => new Date('2026-11-25T12:00:00.000Z');

const statementsOf = <T>(fn: () => Promise<T>) => statementsBesidesLiveness(db!, fn);
const keyLookups = (sql: string[]) => sql.filter((statement) => statement.includes('from "api_keys"')).length;

/**
 * The key lookups of `request` after `write`: the fewest of up to five rounds, stopping at the first
 * without one. A round can see a lookup that `write` did not cause: on a loaded machine a notification of
 * the set-up's own writes (the brand, its key) can reach the listening connection only now, or the
 * liveness check times out and the listening connection starts again (a new epoch). Neither happens in every round, while a write that moves the keys version does: so
 * only the write's own effect is judged.
 */
async function lookupsAfter(write: () => Promise<unknown>, request: () => Promise<{ status: number }>): Promise<number> {
  let fewest = Infinity;
  for (let round = 1; round <= 5 && fewest > 0; round += 1) {
    await write();
    const after = await statementsOf(request);
    expect(after.result.status).toBe(200);
    fewest = Math.min(fewest, keyLookups(after.sql));
  }
  return fewest;
}

/** A brand with a session to book, a secret key, and `settings`: an authenticated read on `t`. */
async function world(on: TestDb) {
  const brand = await createBrand(on);
  const key = await createApiKey(on, { brandId: brand.id });
  const sail = (await createExperience(on, brand.id)).experience;
  await createSession(on, sail, { startLocal: '2027-01-05T18:00:00', capacity: 1000 });
  const settings = (t: TestApp) => t.rest('GET', `/v1/brands/${brand.id}/settings`, { key: key.secret });
  const hold = async (t: TestApp) => {
    const input = { data: [{ experienceId: sail.id, sessionTime: '2027-01-05T18:00:00', participants: [guest('Ana')] }] };
    const res = await t.gql(holdMutation, { brandId: brand.id, cartId: randomUUID(), input }, { key: key.secret });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createPaymentIntent.cart.status).toBeTruthy();
  };
  return { brand, key, settings, hold };
}

/** Until `t` answers `status` to `settings`, for `boundMs` at most: how long it took. */
async function answeredWithin(request: () => Promise<{ status: number }>, status: number, boundMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    const res = await request();
    const elapsed = performance.now() - start;
    if (res.status === status) return elapsed;
    if (elapsed > boundMs) throw new Error(`still ${res.status} after ${boundMs} ms, not ${status}`);
    await sleep(2);
  }
}

describePostgres('the keys version on PostgreSQL', () => {
  it('has the keys trigger on exactly the tables a key lookup reads', async () => {
    const triggers = await db!.all<{ table: string; definition: string }>(
      `SELECT c.relname AS "table", pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE t.tgname = 'tessera_keys_changed' AND c.relnamespace = current_schema()::regnamespace ORDER BY c.relname`,
    );
    expect(triggers.map((trigger) => trigger.table)).toStrictEqual(['api_keys', 'brands', 'organizations']);
    for (const { table, definition } of triggers) {
      expect(definition).toBe(
        `CREATE TRIGGER tessera_keys_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.${table} FOR EACH STATEMENT EXECUTE FUNCTION tessera_keys_changed()`,
      );
    }
  });

  it('does not look the key up again after a booking, and refuses a key revoked on the same gateway from the next request on', async () => {
    const t = await startApp(db!, { now });
    const { key, settings, hold } = await world(db!);
    expect((await settings(t)).status).toBe(200);
    await waitFor('the version in memory', async () => keyLookups((await statementsOf(() => settings(t))).sql) === 0, 3000);

    // A booking on this gateway, then one on another connection: neither moves the keys version.
    expect(
      await lookupsAfter(
        () => hold(t),
        () => settings(t),
      ),
    ).toBe(0);
    const otherWrite = async () => {
      await other!.query(`UPDATE sessions SET reserved = reserved WHERE id IS NOT NULL`);
      await sleep(100);
    };
    expect(await lookupsAfter(otherWrite, () => settings(t))).toBe(0);

    // Revoked through this gateway's pool (as `tessera keys revoke` does): refused at once, looked up once.
    await revokeKey({ db: db!.database, now }, key.id);
    const refused = await statementsOf(() => settings(t));
    expect(refused.result.status).toBe(401);
    expect(keyLookups(refused.sql)).toBe(1);
  });

  it('refuses a key revoked on one gateway on another once the notification arrived, within a second, not before the revocation', async () => {
    const first = await startApp(db!, { now });
    const secondApp = await startApp(second!, { now });
    const { key, settings, hold } = await world(db!);
    expect((await settings(secondApp)).status).toBe(200);
    await waitFor('the second gateway listening', async () => keyLookups((await statementsOf(() => settings(secondApp))).sql) === 0, 3000);

    // A booking on the first gateway leaves the second's key found.
    const booking = async () => {
      await hold(first);
      await sleep(100);
    };
    expect(await lookupsAfter(booking, () => settings(secondApp))).toBe(0);

    await revokeKey({ db: db!.database, now }, key.id);
    expect((await settings(first)).status).toBe(401);
    const elapsed = await answeredWithin(() => settings(secondApp), 401, 1000);
    process.stdout.write(`a key revoked on one gateway refused on the other after ${elapsed.toFixed(0)} ms\n`);
    expect(elapsed).toBeLessThan(1000);
  });

  it("lets an organization's key on one gateway act for a brand added on another once the notification arrived", async () => {
    const t = await startApp(second!, { now });
    const organization = await createOrganization(db!);
    await createBrand(db!, { organizationId: organization.id });
    const key = await createApiKey(db!, { organizationId: organization.id });
    const newBrand = randomUUID();
    const settingsOf = () => t.rest('GET', `/v1/brands/${newBrand}/settings`, { key: key.secret });
    // Not yet a brand of the organization: the key may not act for it.
    const before = await settingsOf();
    expect(before.status).toBe(403);
    await waitFor('the version in memory', async () => keyLookups((await statementsOf(settingsOf)).sql) === 0, 3000);
    // Added through the first gateway's pool: the second only hears of it.
    await createBrand(db!, { id: newBrand, organizationId: organization.id, name: 'Added' });
    expect(await answeredWithin(settingsOf, 200, 1000)).toBeLessThan(1000);
    expect((await settingsOf()).body.data.name).toBe('Added');
  });
});
