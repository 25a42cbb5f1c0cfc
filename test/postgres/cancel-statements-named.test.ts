/**
 * Every statement a cancel of a guest and a part refund send PostgreSQL is named (prepared once per
 * connection), but for the transaction's BEGIN and COMMIT and the unit's events (the outbox's one
 * statement a unit, whose VALUES list grows with the events: src/db/postgres/outbox.ts).
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
import { cancelMutation, holdMutation } from '../../fixtures/graphql/documents.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

/** The statements `fn` sends, each with its name (undefined: unnamed). */
async function namedStatements(fn: () => Promise<unknown>): Promise<Array<{ name: string | undefined; text: string }>> {
  const seen: Array<{ name: string | undefined; text: string }> = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : (config as { text: string }).text;
    const name = typeof config === 'object' ? (config as { name?: string }).name : undefined;
    if (text !== LIVENESS_CHECK && !text.includes('from "api_keys"') && !text.includes('pg_current_snapshot()')) seen.push({ name, text });
    return (original as (...a: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

// Cancel a guest: its booking read locked, participants and booking written, places given back, the
// waiting line asked; refund part: the reservation with its pending refund, then (settling it) the refund
// settled with its booking written, the booking read locked.
const NAMED = [
  'booking_to_cancel_locked',
  'cancel_participants',
  'release_places',
  'waiting_entries_of_session',
  'booking_to_cancel_locked',
  'reserve_pending_refund',
  'settle_refund',
  'booking_to_cancel_locked',
];

const unnamedAllowed = (text: string) => /^(begin|commit)\b/i.test(text) || text.includes('INSERT INTO "events"');

describePostgres('cancel and refund statements on PostgreSQL', () => {
  it('are all named but BEGIN, COMMIT and the events', async () => {
    const brand = await createBrand(db!);
    const key = (await createApiKey(db!, { brandId: brand.id })).secret;
    const sail = (await createExperience(db!, brand.id)).experience;
    await createSession(db!, sail, { startLocal: '2027-01-05T18:00:00', capacity: 1000 });
    const t = await startApp(db!, { now: () => new Date('2026-11-25T12:00:00.000Z') });
    const booking = async () => {
      const input = { data: [{ experienceId: sail.id, sessionTime: '2027-01-05T18:00:00', participants: [guest('Ana'), guest('Rui')] }] };
      const hold = (await t.gql(holdMutation, { brandId: brand.id, cartId: randomUUID(), input }, { key })).body.data.createPaymentIntent;
      const paid = await t.rest('POST', '/v1/sandbox/payment_intents/confirm', {
        body: { paymentIntentSecret: hold.paymentIntentSecret, outcome: 'succeeded' },
      });
      expect(paid.body.paymentIntentStatus).toBe('succeeded');
      return { bookingId: hold.cart.bookings[0].uuid as string, guestId: hold.cart.bookings[0].participants[1].uuid as string };
    };
    const cancel = async (item: Record<string, unknown>) => {
      const res = await t.gql(cancelMutation, { input: { bookings: [item] } }, { key });
      expect(res.body.data.cancelBookings.errors).toStrictEqual([]);
    };
    for (const round of [1, 2]) {
      const { bookingId, guestId } = await booking();
      const sent = await namedStatements(async () => {
        await cancel({ bookingId, participants: [guestId] });
        await cancel({ bookingId, refundAmount: 10 });
      });
      if (round === 1) continue; // The first round prepares them.
      expect(sent.flatMap((s) => (s.name === undefined ? [] : [s.name]))).toStrictEqual(NAMED);
      expect(sent.filter((s) => s.name === undefined && !unnamedAllowed(s.text)).map((s) => s.text.slice(0, 120))).toStrictEqual([]);
    }
  });
});
