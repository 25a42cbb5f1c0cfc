/**
 * Moving a booking to another session of its experience, on both faces: places move in one transaction
 * (never oversold, never counted twice, even when moves race), freed places go to the old session's
 * waitlist, each refusal has its code and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createReschedulePolicy } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { inTurn, times } from '../../../fixtures/factories/in-turn.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { createWaitlistEntry } from '../../../fixtures/factories/waitlists.ts';

const NOW = '2027-02-01T12:00:00.000Z';
const db = await freshDb();
const features = [
  'reviews',
  'customQuestions',
  'priceTiers',
  'shoppingCart',
  'unlistedExperience',
  'creditCard',
  'enableRescheduleBookings',
];
const brand = await createBrand(db, { featuresActive: features });
const policy = await createReschedulePolicy(db, brand.id, { allowedHoursBefore: 24, maxReschedules: 2 });
await db.run('UPDATE brands SET reschedule_policy_id = ? WHERE id = ?', policy.id, brand.id);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const other = await createBrand(db, { featuresActive: features });
const otherKey = (await createApiKey(db, { brandId: other.id })).secret;
const { experience } = await createExperience(db, brand.id);
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(NOW) });
});

let day = 0;
/** A session on its own day (from 2027-03-01), `capacity` places. */
async function session(capacity = 10, startLocal?: string) {
  day += 1;
  const date = new Date(Date.UTC(2027, 2, day)).toISOString().slice(0, 10);
  return createSession(db, experience, { startLocal: startLocal ?? `${date}T10:00:00`, capacity });
}
const timeOf = (s: { startLocal: string }) => s.startLocal.slice(0, 16);
const reserved = (id: string) => db.value<number>('SELECT reserved FROM sessions WHERE id = ?', id);
const booked = async (s: { id: string; experienceId: string; startLocal: string }, guests = 2) =>
  (await createPaidBooking(db, { brandId: brand.id, session: s, participants: Array.from({ length: guests }, () => ({})) })).booking;
const rest = (bookingId: string, body: unknown, k = key) => t.rest('POST', `/v1/bookings/${bookingId}/reschedule`, { key: k, body });
const mutation = `mutation($input: RescheduleBookingInput!) { rescheduleBooking(input: $input) {
  booking { uuid confirmationCode amount status event { startDateTime } session { uuid remaining }
    reschedules { from { startDateTime } to { startDateTime } apiKeyId } }
  previousSession { timezone startDateTime } releasedSession { uuid remaining } } }`;
const gql = (bookingId: string, sessionTime: string) => t.gql(mutation, { input: { bookingId, sessionTime } }, { key });
const events = (id: string) =>
  db.all<{ type: string; payload: string }>(
    "SELECT type, payload FROM events WHERE resource_id = ? AND type = 'booking.rescheduled' ORDER BY sequence",
    id,
  );

describe('rescheduling a booking', () => {
  it('moves its places, keeps its id, code and money, records the move and announces it, on both faces', async () => {
    const [from, to, then] = [await session(), await session(), await session()];
    const booking = await booked(from, 3);
    expect([await reserved(from.id), await reserved(to.id)]).toEqual([3, 0]);

    const moved = await rest(booking.id, { sessionTime: timeOf(to), sessionDuration: 120 });
    expect(moved.status).toBe(200);
    expect(moved.body.previousSession).toEqual({ timezone: 'Europe/Lisbon', startDateTime: from.startLocal });
    expect(moved.body.data).toMatchObject({
      id: booking.id,
      confirmationCode: booking.confirmationCode,
      amount: 135,
      status: 'confirmed',
      event: { timezone: 'Europe/Lisbon', startDateTime: to.startLocal },
    });
    expect([await reserved(from.id), await reserved(to.id)]).toEqual([0, 3]);
    const [event] = await events(booking.id);
    expect(JSON.parse(event!.payload)).toMatchObject({
      id: booking.id,
      event: { startDateTime: to.startLocal },
      rescheduledFrom: { timezone: 'Europe/Lisbon', startDateTime: from.startLocal },
    });

    const again = await gql(booking.id, timeOf(then));
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.rescheduleBooking).toEqual({
      booking: {
        uuid: booking.id,
        confirmationCode: booking.confirmationCode,
        amount: 135,
        status: 'CONFIRMED',
        event: { startDateTime: then.startLocal },
        // Both sessions as they are now, so a cache shows their places without a refetch.
        session: { uuid: then.id, remaining: then.capacity - 3 },
        reschedules: [
          { from: { startDateTime: from.startLocal }, to: { startDateTime: to.startLocal }, apiKeyId: expect.any(String) },
          { from: { startDateTime: to.startLocal }, to: { startDateTime: then.startLocal }, apiKeyId: expect.any(String) },
        ],
      },
      previousSession: { timezone: 'Europe/Lisbon', startDateTime: to.startLocal },
      releasedSession: { uuid: to.id, remaining: to.capacity },
    });
    expect([await reserved(from.id), await reserved(to.id), await reserved(then.id)]).toEqual([0, 0, 3]);
    expect(await events(booking.id)).toHaveLength(2);
  });

  it('moves only the active participants, and offers the places it frees to the old session’s waitlist first', async () => {
    const [from, to] = [await session(2), await session()];
    const made = await createPaidBooking(db, {
      brandId: brand.id,
      session: from,
      participants: [{}, { cancelledAt: '2027-01-20T10:00:00.000Z' }],
    });
    // The cancelled participant's place went back when cancelled: the session holds one for the booking.
    await db.run('UPDATE sessions SET reserved = 1 WHERE id = ?', from.id);
    const waitlist = await createWaitlist(db, experience.id);
    const entry = await createWaitlistEntry(db, { waitlist, session: from, brandId: brand.id, position: 1, partySize: 2 });
    const moved = await rest(made.booking.id, { sessionTime: timeOf(to) });
    expect(moved.status).toBe(200);
    expect([await reserved(from.id), await reserved(to.id)]).toEqual([0, 1]);
    const offered = (await db.one('SELECT status FROM waitlist_entries WHERE id = ?', entry.id)) as { status: string };
    expect(offered.status).toBe('offered');
  });

  describe('refusals, each changing nothing', () => {
    it.each<[string, () => Promise<{ bookingId: string; body: unknown; key?: string }>, number, Record<string, unknown>]>([
      [
        'an unknown session',
        async () => ({ bookingId: (await booked(await session())).id, body: { sessionTime: '2027-06-01T07:00' } }),
        422,
        { code: 'SESSION_NOT_FOUND', details: { field: 'sessionTime' } },
      ],
      [
        'another length',
        async () => ({
          bookingId: (await booked(await session())).id,
          body: { sessionTime: timeOf(await session()), sessionDuration: 60 },
        }),
        422,
        { code: 'SESSION_NOT_FOUND', details: { field: 'sessionDuration' } },
      ],
      [
        'the same session',
        async () => {
          const s = await session();
          return { bookingId: (await booked(s)).id, body: { sessionTime: timeOf(s) } };
        },
        409,
        { code: 'RESCHEDULE_NOT_ALLOWED', details: { rule: 'same-session', field: 'sessionTime' } },
      ],
      [
        'a booking that is not confirmed',
        async () => ({
          bookingId: (await createBooking(db, { brandId: brand.id, session: await session(), status: 'processing' })).booking.id,
          body: { sessionTime: timeOf(await session()) },
        }),
        409,
        { code: 'RESCHEDULE_NOT_ALLOWED', details: { rule: 'status' } },
      ],
      [
        'a session already started',
        async () => ({
          bookingId: (await booked(await session(10, '2027-01-30T10:00:00'))).id,
          body: { sessionTime: timeOf(await session()) },
        }),
        422,
        { code: 'SESSION_STARTED' },
      ],
      [
        'a new session already started',
        async () => ({
          bookingId: (await booked(await session())).id,
          body: { sessionTime: timeOf(await session(10, '2027-01-31T10:00:00')) },
        }),
        422,
        { code: 'SESSION_STARTED', details: { field: 'sessionTime' } },
      ],
      [
        'inside the notice window (24 h)',
        async () => ({
          bookingId: (await booked(await session(10, '2027-02-02T10:00:00'))).id,
          body: { sessionTime: timeOf(await session()) },
        }),
        409,
        { code: 'RESCHEDULE_NOT_ALLOWED', details: { rule: 'notice' } },
      ],
      [
        'no places left on the new session',
        async () => ({ bookingId: (await booked(await session(), 3)).id, body: { sessionTime: timeOf(await session(2)) } }),
        409,
        { code: 'CAPACITY_EXCEEDED', details: { field: 'sessionTime' } },
      ],
      [
        "another brand's booking",
        async () => ({ bookingId: (await booked(await session())).id, body: { sessionTime: timeOf(await session()) }, key: otherKey }),
        404,
        { code: 'NOT_FOUND' },
      ],
    ])('%s', async (_, build, status, error) => {
      const { bookingId, body, key: k } = await build();
      const before = (await db.one('SELECT session_id AS "sessionId" FROM bookings WHERE id = ?', bookingId)) as {
        sessionId: string;
      };
      const reservedBefore = await db.all('SELECT id, reserved FROM sessions ORDER BY id');
      const res = await rest(bookingId, body, k);
      expect([res.status, res.body.error]).toMatchObject([status, error]);
      expect(await db.one('SELECT session_id AS "sessionId" FROM bookings WHERE id = ?', bookingId)).toEqual(before);
      expect(await db.all('SELECT id, reserved FROM sessions ORDER BY id')).toEqual(reservedBefore);
      expect(await events(bookingId)).toEqual([]);
    });

    it('refuses past the policy’s number of moves, and without the brand feature, on both faces', async () => {
      const booking = await booked(await session());
      expect((await rest(booking.id, { sessionTime: timeOf(await session()) })).status).toBe(200);
      expect((await rest(booking.id, { sessionTime: timeOf(await session()) })).status).toBe(200);
      const third = await gql(booking.id, timeOf(await session()));
      expect(third.body.errors[0].extensions).toMatchObject({ code: 'RESCHEDULE_NOT_ALLOWED', rule: 'limit' });

      const fresh = await booked(await session());
      await db.run(
        'UPDATE brands SET features_active = ? WHERE id = ?',
        JSON.stringify(features.filter((f) => f !== 'enableRescheduleBookings')),
        brand.id,
      );
      try {
        const off = await rest(fresh.id, { sessionTime: timeOf(await session()) });
        expect([off.status, off.body.error]).toMatchObject([
          422,
          { code: 'FEATURE_NOT_ENABLED', details: { flag: 'enableRescheduleBookings' } },
        ]);
        expect((await gql(fresh.id, timeOf(await session()))).body.errors[0].extensions).toMatchObject({
          code: 'FEATURE_NOT_ENABLED',
          flag: 'enableRescheduleBookings',
        });
      } finally {
        await db.run('UPDATE brands SET features_active = ? WHERE id = ?', JSON.stringify(features), brand.id);
      }
    });
  });

  describe('racing moves', () => {
    it('moves exactly 3 of 20 bookings racing into a session with 3 places left (REST)', async () => {
      const target = await session(5);
      await db.run('UPDATE sessions SET reserved = 2 WHERE id = ?', target.id);
      const bookings = await times(20, async () => booked(await session(), 1));
      const answers = await Promise.all(bookings.map((b) => rest(b.id, { sessionTime: timeOf(target) })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
      expect(answers.filter((a) => a.status === 409).map((a) => a.body.error.code)).toEqual(Array(17).fill('CAPACITY_EXCEEDED'));
      expect(await reserved(target.id)).toBe(5);
      const homes = await inTurn(bookings, (b) => reserved(b.sessionId));
      expect(homes.filter((placesHeld) => placesHeld === 1)).toHaveLength(17);
    });

    it('moves exactly 3 of 20 racing through GraphQL too', async () => {
      const target = await session(3);
      const bookings = await times(20, async () => booked(await session(), 1));
      const answers = await Promise.all(bookings.map((b) => gql(b.id, timeOf(target))));
      expect(answers.filter((a) => a.body.data?.rescheduleBooking)).toHaveLength(3);
      expect(await reserved(target.id)).toBe(3);
    });

    it('leaves a booking moved twice at once on exactly one session, its places counted once', async () => {
      const [home, a, b] = [await session(), await session(), await session()];
      const booking = await booked(home, 2);
      const [first, second] = await Promise.all([
        rest(booking.id, { sessionTime: timeOf(a) }),
        t.gql(mutation, { input: { bookingId: booking.id, sessionTime: timeOf(b) } }, { key }),
      ]);
      expect(first.status).toBe(200);
      expect(second.body.errors).toBeUndefined();
      // Both moves ran, one after the other (in whichever order they reached the database): it is where the last one put it.
      const on = await db.value<string>('SELECT session_id FROM bookings WHERE id = ?', booking.id);
      const moves = await db.all<{ fromId: string; toId: string }>(
        'SELECT from_session_id AS "fromId", to_session_id AS "toId" FROM booking_reschedules WHERE booking_id = ? ORDER BY sequence',
        booking.id,
      );
      expect(moves).toHaveLength(2);
      expect([moves[0]!.fromId, moves[1]!.fromId, moves[1]!.toId]).toEqual([home.id, moves[0]!.toId, on]);
      expect([await reserved(home.id), (await reserved(a.id)) + (await reserved(b.id)), await reserved(on)]).toEqual([0, 2, 2]);
    });
  });

  it('answers 400 for a body that is not the documented one', async () => {
    const booking = await booked(await session());
    const res = await rest(booking.id, { sessionTime: timeOf(await session()), seats: 2 });
    expect([res.status, res.body.error.details.field]).toEqual([400, 'seats']);
    expect((await rest(randomUUID(), { sessionTime: '2027-06-01T10:00' })).status).toBe(404);
  });
});
