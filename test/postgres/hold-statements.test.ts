/**
 * The hold of a T6 booking (GraphQL createPaymentIntent holding 2 places of a new cart) on PostgreSQL: every
 * statement it sends is named (prepared once per connection, issue 38) but the transaction's own BEGIN and
 * COMMIT and the events statement (src/db/postgres/outbox.ts, shared by every unit), in this order.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { startApp } from '../support/app.ts';
import { guest } from '../support/checkout.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';
import { LIVENESS_CHECK } from '../../src/db/postgres/listener.ts';
import { createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { holdMutation } from '../../fixtures/graphql/documents.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

/** The name of each statement `fn` sends (its first words when it has none), the API-key lookup and liveness check left out. */
async function statementNames(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const { text, name } = typeof config === 'string' ? { text: config, name: undefined } : (config as { text: string; name?: string });
    if (text !== LIVENESS_CHECK && !text.includes('from "api_keys"') && !text.includes('pg_current_snapshot()')) {
      seen.push(name ?? 'unnamed: ' + text.trim().split(/\s+/).slice(0, 2).join(' ').toLowerCase());
    }
    return (original as (...a: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof original;
  try {
    await fn();
    return seen;
  } finally {
    pg.Client.prototype.query = original;
  }
}

describePostgres('the hold of a T6 booking on PostgreSQL', () => {
  it('sends named statements only, but BEGIN, COMMIT and the events', async () => {
    const brand = await createBrand(db!);
    const key = (await createApiKey(db!, { brandId: brand.id })).secret;
    const sail = (await createExperience(db!, brand.id)).experience;
    await createSession(db!, sail, { startLocal: '2027-01-05T18:00:00', capacity: 1000 });
    const t = await startApp(db!, { now: () => new Date('2026-11-25T12:00:00.000Z') });
    let held = 0;
    const hold = async () => {
      const input = { data: [{ experienceId: sail.id, sessionTime: '2027-01-05T18:00:00', participants: [guest('Ana'), guest('Rui')] }] };
      const res = await t.gql(holdMutation, { brandId: brand.id, cartId: randomUUID(), input }, { key });
      expect(res.body.errors).toBeUndefined();
      held += 2;
      expect(res.body.data.createPaymentIntent.cart.bookings[0].session.remaining).toBe(1000 - held);
    };
    await hold();
    expect(await statementNames(hold)).toStrictEqual([
      'checkout_reads',
      'unnamed: begin isolation',
      'checkout_checks',
      'create_cart_with_intent',
      'take_item_places',
      'insert_booking',
      'unnamed: with events_lock',
      'unnamed: commit',
    ]);
  });
});
