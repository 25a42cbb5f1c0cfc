/**
 * PostgreSQL for tests: `TEST_POSTGRES_URL` names a role that may create databases. Without it the
 * PostgreSQL files are skipped, saying why; with TESSERA_REQUIRE_POSTGRES=1 (as `.ci/run` sets) a
 * missing server fails instead. Each file works in a database of its own, so files run in parallel.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';

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

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new empty database and a way to drop it (with whatever connections are left). */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tessera_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const parsed = new URL(adminUrl!);
  parsed.pathname = `/${name}`;
  return {
    url: parsed.toString(),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * A new empty database for the calling file, dropped after its tests. `url()` is its URL once
 * `beforeAll` has run.
 */
export function freshPostgresDatabase(): { url: () => string } {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());
  return { url: () => database!.url };
}
