/**
 * Throwaway PostgreSQL databases for the bench and the tests: made and dropped through a role that may
 * create databases (CREATEDB), with no other privilege.
 */
import pg from 'pg';

/** Runs `work` on a new connection as the admin role, closed after. */
export async function asAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The admin URL with its database replaced by `name`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The statements that drop database `name` with whatever connections of this role are left. Not
 * `DROP DATABASE ... WITH (FORCE)`: that also signals an autovacuum worker busy in the database, which
 * only a superuser or a member of pg_signal_backend may do, so it failed now and then after a file
 * that wrote a lot. A plain DROP DATABASE stops autovacuum itself and waits (up to 5 s) for the
 * sessions ended here to go.
 */
export function dropDatabaseStatements(name: string): string[] {
  return [
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = '${name}' AND usename = current_user AND pid <> pg_backend_pid()`,
    `DROP DATABASE IF EXISTS ${name}`,
  ];
}

export async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  for (const statement of dropDatabaseStatements(name)) await client.query(statement);
}
