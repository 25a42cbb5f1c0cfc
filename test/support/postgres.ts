/**
 * PostgreSQL for tests: `TEST_POSTGRES_URL` names a role that may create databases. Without it the
 * PostgreSQL files are skipped, saying why; with TESSERA_REQUIRE_POSTGRES=1 (as `.ci/run` sets) a
 * missing server fails instead. Each file works in a database of its own, so files run in parallel.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { asAdmin, databaseUrl, dropDatabase } from '../../fixtures/postgres/admin.ts';

export const adminUrl = process.env.TEST_POSTGRES_URL;
const required = process.env.TESSERA_REQUIRE_POSTGRES === '1';

if (!adminUrl && !required) {
  process.stderr.write('Skipping the PostgreSQL tests: TEST_POSTGRES_URL is not set (a postgres:// URL of a role with CREATEDB)\n');
}

/** `describe` that runs only when a server is there, and fails when one is required but missing. */
export function describePostgres(name: string, body: () => void): void {
  if (!adminUrl && required) {
    describe(name, () => {
      it('has a PostgreSQL server to run against', () => {
        throw new Error('TESSERA_REQUIRE_POSTGRES=1 but TEST_POSTGRES_URL is not set');
      });
    });
    return;
  }
  describe.skipIf(!adminUrl)(name, body);
}

/** Runs `work` on a new connection as the role of TEST_POSTGRES_URL. */
export function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  return asAdmin(adminUrl!, work);
}

/**
 * A new empty database and a way to drop it (with whatever connections are left). `options` follow
 * CREATE DATABASE's name (a template, a collation).
 */
export async function createTestDatabase(options = ''): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tessera_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} ${options}`));
  return {
    url: databaseUrl(adminUrl!, name),
    drop: () => admin((client) => dropDatabase(client, name)),
  };
}

/**
 * A new empty database for the calling file, dropped after its tests. `url()` is its URL once
 * `beforeAll` has run.
 */
export function freshPostgresDatabase(options = ''): { url: () => string } {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(options);
  });
  afterAll(() => database?.drop());
  return { url: () => database!.url };
}

/** Resolves once a connection of `client`'s database waits for a lock (a locking read that began and now waits for another unit). */
export async function untilSomeoneWaitsForALock(client: pg.Client): Promise<void> {
  for (let waiting = false; !waiting;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    waiting = rows[0]!.n > 0;
  }
}
