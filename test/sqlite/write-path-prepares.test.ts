import { beforeAll, describe, expect, it } from 'vitest';
import { cancelMutation, holdMutation } from '../../fixtures/graphql/documents.ts';
import { startApp, type TestApp } from '../support/app.ts';
import { freshSqliteDb } from '../support/db.ts';
import { compiledStatements } from '../support/statements.ts';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createWaitlistEntry } from '../../fixtures/factories/waitlists.ts';
import { createWebhookEndpoint } from '../../fixtures/factories/webhooks.ts';

/**
 * The write mix (bench T6): a hold, its payment through the sandbox, one guest cancelled, part of the
 * rest refunded; and a cancellation whose places go to a waiting entry. Building a statement with
 * Drizzle and compiling it in SQLite cost more than running it, so everything these steps run is
 * prepared once per connection: done again for a new booking, no step compiles anything.
 */
const NOW = new Date('2026-11-20T10:00:00.000Z');
const db = freshSqliteDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);
const session = await createSession(db, experience, { capacity: 1_000 });
const waitlist = await createWaitlist(db, experience.id);
// An endpoint subscribed to every event type: every event also queues a delivery.
await createWebhookEndpoint(db, brand.id, { url: 'https://hooks.example.test/tessera' });
let t: TestApp;
let cartNumber = 0;
let fullSessions = 0;

beforeAll(async () => {
  t = await startApp(db, { now: () => NOW });
});

/** SQL text of every statement compiled on `db` while `fn` runs. */
const compiled = <T>(fn: () => Promise<T>) => compiledStatements(db.connection, fn);

const guest = (firstName: string) => ({
  firstName,
  lastName: 'Bench',
  priceTierName: 'Adult',
  emailAddress: `${firstName.toLowerCase()}@bench.test`,
});
const cancel = (item: Record<string, unknown>) => t.gql(cancelMutation, { input: { bookings: [item] } }, { key });

/** One booking through the write mix; the statements each step compiled. */
async function writeMix() {
  const cartId = `00000000-0000-4000-8000-${String(++cartNumber).padStart(12, '0')}`;
  const input = {
    data: [{ experienceId: experience.id, sessionTime: session.startLocal.slice(0, 16), participants: [guest('Ana'), guest('Rui')] }],
  };
  const hold = await compiled(() => t.gql(holdMutation, { brandId: brand.id, cartId, input }, { key }));
  expect(hold.result.body.errors).toBeUndefined();
  const { paymentIntentSecret, totalNetAmount, cart } = hold.result.body.data.createPaymentIntent;
  expect(totalNetAmount).toBe(111.93);
  const booking = cart.bookings[0];
  expect(booking.status).toBe('PROCESSING');

  const confirm = await compiled(() =>
    t.rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret, outcome: 'succeeded' } }),
  );
  expect(confirm.result.status).toBe(200);
  expect(confirm.result.body.paymentIntentStatus).toBe('succeeded');

  const second = booking.participants[1].uuid;
  const cancelParticipant = await compiled(() => cancel({ bookingId: booking.uuid, participants: [second] }));
  expect(cancelParticipant.result.body.data.cancelBookings.errors).toEqual([]);
  expect(cancelParticipant.result.body.data.cancelBookings.items[0].participants).toEqual([
    { id: booking.participants[0].id, uuid: booking.participants[0].uuid, cancelledAt: null },
    { id: expect.any(String), uuid: second, cancelledAt: NOW.toISOString() },
  ]);

  const refund = await compiled(() => cancel({ bookingId: booking.uuid, refundAmount: 10 }));
  expect(refund.result.body.data.cancelBookings.errors).toEqual([]);
  expect(refund.result.body.data.cancelBookings.items[0]).toMatchObject({ status: 'CONFIRMED', amount: 111.93, amountRefunded: 10 });

  return { hold: hold.sql, confirm: confirm.sql, cancelParticipant: cancelParticipant.sql, refund: refund.sql };
}

/** A full session of two, one guest cancelled: the freed place is offered to the waiting party of one. */
async function cancelOfferingToWaitlist() {
  const full = await createSession(db, experience, {
    startLocal: `2026-12-${String(2 + fullSessions++).padStart(2, '0')}T09:00:00`,
    capacity: 2,
  });
  const { booking, participants } = await createBooking(db, { brandId: brand.id, session: full, participants: [{}, {}] });
  const entry = await createWaitlistEntry(db, { waitlist, session: full, brandId: brand.id, position: 1 });
  const cancelled = await compiled(() => cancel({ bookingId: booking.id, participants: [participants[0]!.id] }));
  expect(cancelled.result.body.data.cancelBookings.errors).toEqual([]);
  expect(db.connection.$client.prepare('SELECT status, offered_at FROM waitlist_entries WHERE id = ?').get(entry.id)).toEqual({
    status: 'offered',
    offered_at: NOW.toISOString(),
  });
  return cancelled.sql;
}

describe('the write mix, statements prepared once', () => {
  it('compiles no statement for a second booking', async () => {
    await writeMix();
    expect(await writeMix()).toEqual({ hold: [], confirm: [], cancelParticipant: [], refund: [] });
  });

  it('compiles no statement for a second cancellation offering places to the waitlist', async () => {
    await cancelOfferingToWaitlist();
    expect(await cancelOfferingToWaitlist()).toEqual([]);
  });
});
