/**
 * A database that cannot take work answers 503 DATABASE_UNAVAILABLE with Retry-After on both faces, never
 * a 500, a library message or SQL, and the same requests succeed once it is back. On PostgreSQL the
 * database refuses connections and its open ones are ended (connection limit 0, then
 * pg_terminate_backend: what a restart or failover looks like to a gateway); on SQLite the connection
 * may no longer write (`query_only`: a file that cannot take writes, as a full or read-only disk).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { guest } from '../../support/checkout.ts';
import { checkoutWorld } from '../../support/checkout-world.ts';
import { endSessionsStatement } from '../../../fixtures/postgres/admin.ts';
import { admin } from '../../support/postgres.ts';
import { invariantViolations } from '../../support/invariants.ts';

const { db, sail, session, at, checkout, gqlCheckout } = await checkoutWorld();

/** Starts the outage; returns what ends it. */
async function outage(): Promise<() => Promise<unknown>> {
  if (db.engine === 'postgresql') {
    const name = await db.value<string>('SELECT current_database()');
    await admin(async (client) => {
      await client.query(`ALTER DATABASE ${name} CONNECTION LIMIT 0`);
      await client.query(endSessionsStatement(name));
    });
    return () => admin((client) => client.query(`ALTER DATABASE ${name} CONNECTION LIMIT -1`));
  }
  await db.all('PRAGMA query_only = 1');
  return () => db.all('PRAGMA query_only = 0');
}

const internals = /sql|select|insert|sqlite|econn|terminat|connection|stack/i;

// Whatever the fault did, places, money and events still add up.
afterAll(async () => expect(await invariantViolations(db)).toEqual([]));

describe('a database that cannot take work', () => {
  it('answers 503 DATABASE_UNAVAILABLE with Retry-After on both faces, and the same requests succeed once it is back', async () => {
    const s = await session();
    const body = { data: [{ experienceId: sail.id, sessionTime: at(s), participants: [guest('Ana')] }] };
    const restore = await outage();
    try {
      const rest = await checkout(body);
      expect(rest.status).toBe(503);
      expect(rest.headers['retry-after']).toBe('2');
      expect(rest.body.error).toMatchObject({ code: 'DATABASE_UNAVAILABLE', message: 'The database is unavailable; retry the request' });
      expect(JSON.stringify(rest.body)).not.toMatch(internals);

      const graphql = await gqlCheckout(body);
      expect(graphql.status).toBe(503);
      expect(graphql.headers['retry-after']).toBe('2');
      expect(graphql.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['DATABASE_UNAVAILABLE']);
      expect(graphql.body.errors[0].message).toBe('The database is unavailable; retry the request');
      expect(JSON.stringify(graphql.body)).not.toMatch(internals);
    } finally {
      await restore();
    }
    const rest = await checkout(body);
    expect(rest.status).toBe(201);
    const graphql = await gqlCheckout(body);
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.createPaymentIntent.cart.bookings).toHaveLength(1);
  });
});
