/**
 * Every write that touches more than one row runs inside a transaction, so a crash never leaves half
 * of it. Every statement the server executes is watched (better-sqlite3's `prepare` is wrapped) while a
 * day of traffic goes through HTTP: checkouts, payments, cancellations, refunds, waitlists, webhook
 * endpoints and deliveries, lapsed holds. The only writes allowed outside a transaction are single
 * statements that stand alone: recording an idempotent answer, recording a webhook attempt, creating
 * an endpoint.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/sqlite/client.ts';
import { startApp } from '../support/app.ts';
import { cancel, cartBookings, checkout, joinWaitlist, pay, type Send } from '../support/booking-traffic.ts';
import { freshSqliteDb } from '../support/db.ts';
import { invariantViolations } from '../support/invariants.ts';
import { createShop } from '../support/shop-world.ts';
import { waitFor } from '../support/webhook-receiver.ts';

/** `INSERT bookings`, `UPDATE sessions`, ... for each write statement executed, split by whether a transaction was open. */
function watchWrites(db: Db) {
  const client = db.$client;
  const seen = { inside: new Set<string>(), outside: [] as string[] };
  const prepare = client.prepare.bind(client);
  client.prepare = ((source: string) => {
    const statement = prepare(source);
    const write = /^\s*(insert into|update|delete from)\s+"?(\w+)"?/i.exec(source);
    if (!write) return statement;
    const kind = `${write[1]!.split(' ')[0]!.toUpperCase()} ${write[2]}`;
    for (const method of ['run', 'get', 'all'] as const) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        if (client.inTransaction) seen.inside.add(kind);
        else seen.outside.push(kind);
        return original(...args);
      };
    }
    return statement;
  }) as typeof client.prepare;
  return seen;
}

const db = freshSqliteDb();
const { shop, sessionTimes } = await createShop(db, { sessions: 4, capacity: 3 });
const seen = watchWrites(db.connection);
const clock = { offsetMs: 0 };
const delivered: string[] = [];

describe('write statements', () => {
  it('run in transactions, except single-statement bookkeeping', async () => {
    const t = await startApp(db, {
      now: () => new Date(Date.now() + clock.offsetMs),
      holdTtlSeconds: 60,
      webhooks: { dispatch: true, tickMs: 10, sender: { send: async (request) => (delivered.push(request.body), { status: 200 }) } },
    });
    const send: Send = (method, url, options) => t.rest(method, url, options);
    const [first, second, third, fourth] = sessionTimes as [string, string, string, string];

    const endpoint = await send('POST', `/v1/brands/${shop.brandId}/webhooks`, {
      key: shop.key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
    });
    expect(endpoint.status).toBe(201);

    // A paid booking of three: one participant cancelled, a partial refund, then cancelled with a refund.
    const trio = await checkout(send, shop, first, 3, { 'idempotency-key': 'trio' });
    expect(trio.status).toBe(201);
    expect((await pay(send, trio.secret!, 'succeeded')).status).toBe(200);
    const [booking] = await cartBookings(send, shop, trio.cartId);
    const partly = await cancel(send, shop, [{ bookingId: booking!.id, participants: [booking!.participants[0]!.id], refundAmount: 5 }]);
    expect(partly.body.errors).toEqual([]);

    // The session is full now (two places taken, one left for a party of two): they wait, and are offered the freed places.
    const full = await checkout(send, shop, first, 2);
    expect(full.code).toBe('CAPACITY_EXCEEDED');
    expect((await joinWaitlist(send, shop, first, 2)).status).toBe(201);
    expect((await cancel(send, shop, [{ bookingId: booking!.id, cancel: true, refundAmount: booking!.amount - 5 }])).body.errors).toEqual(
      [],
    );

    // A failed payment, and a hold that lapses (failed by the next checkout's sweep).
    const failing = await checkout(send, shop, second, 1);
    expect((await pay(send, failing.secret!, 'failed')).status).toBe(200);
    expect((await checkout(send, shop, third, 2)).status).toBe(201);
    clock.offsetMs = 61_000;
    expect((await checkout(send, shop, fourth, 1)).status).toBe(201);

    await waitFor('webhook deliveries', () => delivered.length >= 10);
    expect((await send('DELETE', `/v1/brands/${shop.brandId}/webhooks/${endpoint.body.endpoint.id}`, { key: shop.key })).status).toBe(200);

    // The traffic covered every multi-row write path: these ran, all inside transactions.
    expect([...seen.inside]).toEqual(
      expect.arrayContaining([
        'INSERT carts',
        'UPDATE carts',
        'INSERT payment_intents',
        'UPDATE payment_intents',
        'INSERT bookings',
        'UPDATE bookings',
        'INSERT participants',
        'UPDATE participants',
        'UPDATE sessions',
        'INSERT refunds',
        'UPDATE refunds',
        'INSERT events',
        'INSERT webhook_deliveries',
        'UPDATE webhook_deliveries',
        'UPDATE webhook_endpoints',
        'INSERT waitlist_entries',
        'UPDATE waitlist_entries',
        'INSERT idempotency_keys',
        'DELETE idempotency_keys',
        'DELETE credit_redemptions',
      ]),
    );
    // A delivery's outcome is recorded with its endpoint's failing state, in one transaction.
    expect(new Set(seen.outside)).toEqual(new Set(['INSERT webhook_endpoints', 'UPDATE idempotency_keys']));
    expect(await invariantViolations(db)).toEqual([]);
  });
});
