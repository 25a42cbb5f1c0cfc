/**
 * A brand's schedule through the API, on both faces: sessions created one by one or from an RRULE in the
 * experience's local time (across Lisbon's spring-forward night, 2027-03-28), idempotent by local start
 * and bounded; capacity changed (never below the places taken, freed places offered to the waitlist);
 * a session cancelled with its bookings refunded through the usual path; who may write; and a hold
 * racing a cancel never leaving a live booking on a cancelled session.
 */
import { describe, expect, it } from 'vitest';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { TestProcessor } from '../../support/processors.ts';
import { waitlistWorld } from '../../support/waitlist-world.ts';

/** The sandbox that records refunds, and whose intents can wait at a gate (a checkout then waits between its reads and its write). */
class GatedProcessor extends TestProcessor {
  intentGate: Promise<void> | null = null;
  override async createIntent(input: { amountMinor: number; currency: string; idempotencyKey: string; metadata: Record<string, string> }) {
    if (this.intentGate) await this.intentGate;
    return super.createIntent(input);
  }
}

const payments = new GatedProcessor({ now: () => w.clock.now });
const w = await waitlistWorld({ payments });
const { db, brand, sister, keys, sail } = w;
const publishable = (await createPublishableKey(db, brand.id, ['https://shop.example'])).secret;
// A fresh experience per test keeps each test's sessions and events its own.
const experience = async () => (await createExperience(db, brand.id, { title: 'Tram Tour', sessionDurationMinutes: 90 })).experience;

const post = (experienceId: string, body: unknown, key = keys.brand, brandId = brand.id) =>
  w.t().rest('POST', `/v1/brands/${brandId}/experiences/${experienceId}/sessions`, { key, body });
const patch = (sessionId: string, body: unknown, key = keys.brand, brandId = brand.id) =>
  w.t().rest('PATCH', `/v1/brands/${brandId}/sessions/${sessionId}`, { key, body });
const cancel = (sessionId: string, body: unknown = { reason: 'Storm warning' }, key = keys.brand, brandId = brand.id) =>
  w.t().rest('POST', `/v1/brands/${brandId}/sessions/${sessionId}/cancel`, { key, body });
const starts = (experienceId: string) =>
  db.all<{ startLocal: string; startsAt: string; capacity: number; duration: number }>(
    'SELECT start_local AS "startLocal", starts_at AS "startsAt", capacity, duration_minutes AS duration FROM sessions WHERE experience_id = ? ORDER BY start_local',
    experienceId,
  );
/** Instants as ISO text whichever engine stored them. */
const utc = (value: unknown) => new Date(value as string).toISOString();
const eventsOf = (resourceId: string) =>
  db.all<{ type: string; payload: unknown }>('SELECT type, payload FROM events WHERE resource_id = ? ORDER BY sequence', resourceId);
const payloadOf = (payload: unknown) => (typeof payload === 'string' ? JSON.parse(payload) : payload) as Record<string, unknown>;
const availability = async (experienceId: string, from: string, to: string) =>
  (await w.t().rest('GET', `/v1/brands/${brand.id}/experiences/${experienceId}/availability?from=${from}&to=${to}`, { key: keys.brand }))
    .body.data as Array<{ id: string; startDateTime: string; remaining: number }>;

const SCHEDULE = /* GraphQL */ `
  mutation ($brandId: UUID!, $experienceId: UUID!, $input: ScheduleSessionsInput!) {
    scheduleSessions(brandId: $brandId, experienceId: $experienceId, input: $input) {
      sessions {
        uuid
        startDateTime
        timezone
        duration
        capacity
        remaining
        status
      }
      existing
    }
  }
`;
const UPDATE = /* GraphQL */ `
  mutation ($brandId: UUID!, $sessionId: UUID!, $capacity: Int!) {
    updateSession(brandId: $brandId, sessionId: $sessionId, input: { capacity: $capacity }) {
      session {
        uuid
        capacity
        remaining
      }
    }
  }
`;
const CANCEL = /* GraphQL */ `
  mutation ($brandId: UUID!, $sessionId: UUID!) {
    cancelSession(brandId: $brandId, sessionId: $sessionId, input: { reason: "Sick guide" }) {
      session {
        uuid
        status
        remaining
      }
      bookings {
        uuid
        status
        amountRefunded
      }
      errors {
        code
      }
    }
  }
`;

describe('scheduling sessions', () => {
  it('creates one-off sessions in local time, 10:00 on both sides of the spring-forward night, with their UTC starts', async () => {
    const tour = await experience();
    const res = await post(tour.id, {
      sessions: [{ startDateTime: '2027-03-27T10:00', capacity: 6 }, { startDateTime: '2027-03-29T10:00' }],
      capacity: 8,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: [
        {
          id: expect.any(String),
          startDateTime: '2027-03-27T10:00:00',
          timezone: 'Europe/Lisbon',
          duration: 90,
          capacity: 6,
          remaining: 6,
          waitlistId: null,
        },
        {
          id: expect.any(String),
          startDateTime: '2027-03-29T10:00:00',
          timezone: 'Europe/Lisbon',
          duration: 90,
          capacity: 8,
          remaining: 8,
          waitlistId: null,
        },
      ],
      existing: [],
    });
    // Lisbon is UTC+0 until 01:00 UTC on 2027-03-28, UTC+1 after.
    expect((await starts(tour.id)).map((s) => [s.startLocal, utc(s.startsAt)])).toEqual([
      ['2027-03-27T10:00:00', '2027-03-27T10:00:00.000Z'],
      ['2027-03-29T10:00:00', '2027-03-29T09:00:00.000Z'],
    ]);
    const [created] = await eventsOf(res.body.data[0].id);
    expect(created!.type).toBe('session.created');
    expect(payloadOf(created!.payload)).toEqual({ ...res.body.data[0], status: 'scheduled', experienceId: tour.id });
  });

  it('expands a weekly RRULE with its start times and exceptions across the DST change, and a repost makes no duplicate', async () => {
    const tour = await experience();
    const body = {
      schedule: {
        rrule: 'FREQ=WEEKLY;BYDAY=TU,TH',
        from: '2027-03-16',
        until: '2027-04-01',
        startTimes: ['10:00', '14:00'],
        exceptions: ['2027-03-18'],
      },
      capacity: 6,
    };
    const res = await post(tour.id, body);
    expect(res.status).toBe(201);
    expect(res.body.existing).toEqual([]);
    const expected = [
      ['2027-03-16T10:00:00', '2027-03-16T10:00:00.000Z'],
      ['2027-03-16T14:00:00', '2027-03-16T14:00:00.000Z'],
      ['2027-03-23T10:00:00', '2027-03-23T10:00:00.000Z'],
      ['2027-03-23T14:00:00', '2027-03-23T14:00:00.000Z'],
      ['2027-03-25T10:00:00', '2027-03-25T10:00:00.000Z'],
      ['2027-03-25T14:00:00', '2027-03-25T14:00:00.000Z'],
      ['2027-03-30T10:00:00', '2027-03-30T09:00:00.000Z'],
      ['2027-03-30T14:00:00', '2027-03-30T13:00:00.000Z'],
      ['2027-04-01T10:00:00', '2027-04-01T09:00:00.000Z'],
      ['2027-04-01T14:00:00', '2027-04-01T13:00:00.000Z'],
    ];
    expect(res.body.data.map((s: { startDateTime: string }) => s.startDateTime)).toEqual(expected.map(([local]) => local));
    expect((await starts(tour.id)).map((s) => [s.startLocal, utc(s.startsAt), s.capacity, s.duration])).toEqual(
      expected.map(([local, at]) => [local, at, 6, 90]),
    );

    const again = await post(tour.id, body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ data: [], existing: expected.map(([local]) => local) });
    expect(await starts(tour.id)).toHaveLength(10);

    // GraphQL: the same schedule, one more time on each date; only the new times are made.
    const gql = await w
      .t()
      .gql(
        SCHEDULE,
        { brandId: brand.id, experienceId: tour.id, input: { ...body, schedule: { ...body.schedule, startTimes: ['10:00', '18:30'] } } },
        { key: keys.brand },
      );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.scheduleSessions.sessions.map((s: { startDateTime: string }) => s.startDateTime)).toEqual(
      ['03-16', '03-23', '03-25', '03-30', '04-01'].map((d) => `2027-${d}T18:30:00`),
    );
    expect(gql.body.data.scheduleSessions.sessions[0]).toMatchObject({
      timezone: 'Europe/Lisbon',
      capacity: 6,
      remaining: 6,
      status: 'SCHEDULED',
    });
    expect(gql.body.data.scheduleSessions.existing).toHaveLength(5);
    expect(await starts(tour.id)).toHaveLength(15);
  });

  it('refuses a start time the clocks skip on the spring-forward day, naming it, and makes nothing', async () => {
    const tour = await experience();
    const schedule = { rrule: 'FREQ=DAILY', from: '2027-03-27', until: '2027-03-29', startTimes: ['09:00', '01:30'] };
    const res = await post(tour.id, { schedule, capacity: 4 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'schedule.startTimes.1' } });
    expect(res.body.error.message).toContain('2027-03-28T01:30');
    const oneOff = await post(tour.id, {
      sessions: [{ startDateTime: '2027-03-26T10:00' }, { startDateTime: '2027-03-28T01:30' }],
      capacity: 4,
    });
    expect(oneOff.status).toBe(400);
    expect(oneOff.body.error.details.field).toBe('sessions.1.startDateTime');
    const gql = await w
      .t()
      .gql(SCHEDULE, { brandId: brand.id, experienceId: tour.id, input: { schedule, capacity: 4 } }, { key: keys.brand });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'schedule.startTimes.1' });
    expect(await starts(tour.id)).toEqual([]);

    // Leaving the date out makes the rest.
    const skipped = await post(tour.id, { schedule: { ...schedule, exceptions: ['2027-03-28'] }, capacity: 4 });
    expect(skipped.status).toBe(201);
    expect((await starts(tour.id)).map((s) => [s.startLocal, utc(s.startsAt)])).toEqual([
      ['2027-03-27T01:30:00', '2027-03-27T01:30:00.000Z'],
      ['2027-03-27T09:00:00', '2027-03-27T09:00:00.000Z'],
      ['2027-03-29T01:30:00', '2027-03-29T00:30:00.000Z'],
      ['2027-03-29T09:00:00', '2027-03-29T08:00:00.000Z'],
    ]);
  });

  it('bounds the sessions of one request (422 SCHEDULE_TOO_LARGE naming the field) and checks every field', async () => {
    const tour = await experience();
    const big = await post(tour.id, {
      schedule: { rrule: 'FREQ=DAILY', from: '2027-01-01', until: '2028-12-31', startTimes: ['10:00'] },
      capacity: 4,
    });
    expect(big.status).toBe(422);
    expect(big.body.error).toMatchObject({ code: 'SCHEDULE_TOO_LARGE', details: { field: 'schedule', limit: 500 } });
    // 250 dates x 2 times is exactly the bound.
    const twoTimes = { rrule: 'FREQ=DAILY;COUNT=251', from: '2027-01-01', until: '2027-12-31', startTimes: ['10:00', '15:00'] };
    expect((await post(tour.id, { schedule: twoTimes, capacity: 4 })).body.error.code).toBe('SCHEDULE_TOO_LARGE');
    const exact = await post(tour.id, { schedule: { ...twoTimes, rrule: 'FREQ=DAILY;COUNT=250' }, capacity: 4 });
    expect(exact.status).toBe(201);
    expect(exact.body.data).toHaveLength(500);

    const refused = async (body: unknown) => (await post(tour.id, body)).body.error?.details?.field;
    expect(await refused({ sessions: [{ startDateTime: '2027-05-01T10:00', capacity: 0 }] })).toBe('sessions.0.capacity');
    expect(await refused({ sessions: [{ startDateTime: '2027-05-01T10:00', capacity: 2.5 }] })).toBe('sessions.0.capacity');
    expect(await refused({ sessions: [{ startDateTime: '2027-05-01T10:00' }] })).toBe('sessions.0.capacity');
    expect(await refused({ sessions: [{ startDateTime: '2026-11-01T10:00', capacity: 2 }] })).toBe('sessions.0.startDateTime');
    expect(await refused({ schedule: { ...twoTimes, rrule: 'FREQ=HOURLY' }, capacity: 2 })).toBe('schedule.rrule');
    expect(await refused({ schedule: { ...twoTimes, rrule: 'NOT A RULE' }, capacity: 2 })).toBe('schedule.rrule');
    expect(await refused({ schedule: { ...twoTimes, exceptions: ['2027-02-30'] }, capacity: 2 })).toBe('schedule.exceptions.0');
    expect(await refused({ schedule: twoTimes })).toBe('capacity');
    expect(await refused({ sessions: [], capacity: 2 })).toBe('sessions');
    expect(await refused({ capacity: 2 })).toBe('sessions');
    const both = { sessions: [{ startDateTime: '2027-05-01T10:00' }], schedule: { ...twoTimes, rrule: 'FREQ=DAILY;COUNT=2' }, capacity: 2 };
    expect(await refused(both)).toBe('schedule');
    // A wrong field in either part is named before the two are refused together.
    expect(await refused({ ...both, sessions: [{ startDateTime: 7 }] })).toBe('sessions.0.startDateTime');
  });
});

describe('changing a session', () => {
  it('raises capacity, offering the new places to the waitlist as a cancellation would, and refuses going below the places taken', async () => {
    const s = await w.session(4, 4);
    const joined = await w.join(w.body(s, 2));
    expect(joined.body.status).toBe('waiting');

    const raised = await patch(s.id, { capacity: 6 });
    expect(raised.status).toBe(200);
    // The two new places went to the party waiting: none left on sale.
    expect(raised.body.data).toMatchObject({ id: s.id, capacity: 6, remaining: 0 });
    expect(await w.status(joined.body.id)).toBe('offered');
    expect(await w.invariants(s.id)).toEqual({ capacity: 6, reserved: 4, held: 2 });
    const [updated] = await eventsOf(s.id);
    expect(updated!.type).toBe('session.updated');
    expect(payloadOf(updated!.payload)).toMatchObject({ id: s.id, capacity: 6, remaining: 0, previousCapacity: 4, experienceId: sail.id });
    expect((await eventsOf(joined.body.id)).map((e) => e.type)).toEqual(['waitlist.entry_created', 'waitlist.offered']);

    const below = await patch(s.id, { capacity: 5 });
    expect(below.status).toBe(409);
    expect(below.body.error).toMatchObject({ code: 'CAPACITY_BELOW_TAKEN', details: { field: 'capacity', taken: 6 } });
    const gql = await w.t().gql(UPDATE, { brandId: brand.id, sessionId: s.id, capacity: 3 }, { key: keys.brand });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'CAPACITY_BELOW_TAKEN', field: 'capacity' });
    expect(await w.invariants(s.id)).toEqual({ capacity: 6, reserved: 4, held: 2 });

    const wider = await w.t().gql(UPDATE, { brandId: brand.id, sessionId: s.id, capacity: 9 }, { key: keys.brand });
    expect(wider.body.data.updateSession.session).toEqual({ uuid: s.id, capacity: 9, remaining: 3 });
    expect((await eventsOf(s.id)).map((e) => e.type)).toEqual(['session.updated', 'session.updated']);
  });
});

describe('cancelling a session', () => {
  it('cancels and refunds every booking through the usual path, releases the line, records the events and stops selling it', async () => {
    const s = await w.session(6, 0);
    const paid = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}], intentStatus: 'succeeded' });
    const held = await createBooking(db, { brandId: brand.id, session: s, status: 'processing', participants: [{}] });
    await db.run('UPDATE sessions SET reserved = 3 WHERE id = ?', s.id);
    const date = s.startLocal.slice(0, 10);
    // Read once, so a cached answer would show the session after the cancel.
    expect((await availability(sail.id, date, date)).map((x) => x.id)).toEqual([s.id]);
    const queued = await w.join(w.body(s, 4));
    expect(queued.body.status).toBe('waiting');
    const refundsBefore = payments.refundCalls.length;

    const res = await cancel(s.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: s.id, remaining: 0, capacity: 6 });
    expect(res.body.errors).toEqual([]);
    const byId = new Map(res.body.bookings.map((b: { id: string }) => [b.id, b]));
    expect(byId.get(paid.booking.id)).toMatchObject({ status: 'refunded', amount: 90, amountRefunded: 90 });
    expect(byId.get(held.booking.id)).toMatchObject({ status: 'cancelled', amountRefunded: 0 });
    expect(payments.refundCalls.slice(refundsBefore).map((c) => [c.intentReference, c.amountMinor])).toEqual([
      [paid.intent.processorReference, 9000],
    ]);
    expect(await w.invariants(s.id)).toEqual({ capacity: 6, reserved: 0, held: 0 });
    expect(await w.status(queued.body.id)).toBe('cancelled');

    const [cancelled] = await eventsOf(s.id);
    expect(cancelled!.type).toBe('session.cancelled');
    expect(payloadOf(cancelled!.payload)).toMatchObject({ id: s.id, status: 'cancelled', reason: 'Storm warning', experienceId: sail.id });
    expect((await eventsOf(paid.booking.id)).map((e) => e.type)).toEqual(['booking.cancelled', 'booking.refunded']);
    expect((await eventsOf(held.booking.id)).map((e) => e.type)).toEqual(['booking.cancelled']);
    const sequence = (id: string) => db.value<number>('SELECT min(sequence) FROM events WHERE resource_id = ?', id);
    expect(await sequence(s.id)).toBeLessThan(await sequence(paid.booking.id));

    // No longer sold: gone from availability (the cached answer too), holds and joins refused.
    expect(await availability(sail.id, date, date)).toEqual([]);
    const hold = await w.checkout({
      data: [
        {
          experienceId: sail.id,
          sessionTime: s.startLocal.slice(0, 16),
          participants: [{ firstName: 'A', lastName: 'B', priceTierName: 'Adult' }],
        },
      ],
    });
    expect(hold.status).toBe(409);
    expect(hold.body.error).toMatchObject({ code: 'SESSION_CANCELLED', details: { field: 'data.0.sessionTime' } });
    expect((await w.join(w.body(s, 1))).body.error.code).toBe('SESSION_CANCELLED');
    expect((await patch(s.id, { capacity: 8 })).body.error.code).toBe('SESSION_CANCELLED');

    // Again: nothing left to cancel, no second event or refund.
    const again = await w.t().gql(CANCEL, { brandId: brand.id, sessionId: s.id }, { key: keys.brand });
    expect(again.body.data.cancelSession).toEqual({ session: { uuid: s.id, status: 'CANCELLED', remaining: 0 }, bookings: [], errors: [] });
    expect((await eventsOf(s.id)).map((e) => e.type)).toEqual(['session.cancelled']);
    expect(payments.refundCalls.length).toBe(refundsBefore + 1);
  });

  it('refuses to cancel a session that has started (409 SESSION_NOT_CANCELLABLE), changing nothing', async () => {
    const started = await createSession(db, sail, { startLocal: '2026-11-25T11:30:00', capacity: 4 });
    const booking = await createPaidBooking(db, { brandId: brand.id, session: started, participants: [{}], intentStatus: 'succeeded' });
    const res = await cancel(started.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'SESSION_NOT_CANCELLABLE', details: { reason: 'started' } });
    expect(await db.value('SELECT cancelled_at FROM sessions WHERE id = ?', started.id)).toBeNull();
    expect(await db.value('SELECT status FROM bookings WHERE id = ?', booking.booking.id)).toBe('confirmed');
    expect(await eventsOf(started.id)).toEqual([]);
  });
});

describe('who may write the schedule', () => {
  it('refuses publishable keys (FORBIDDEN) and answers NOT_FOUND for another brand’s experience or session', async () => {
    const s = await w.session(4, 0);
    const shop = { authorization: `Bearer ${publishable}`, origin: 'https://shop.example' };
    const body = { sessions: [{ startDateTime: '2027-06-01T10:00', capacity: 4 }] };
    for (const res of [
      await w.t().rest('POST', `/v1/brands/${brand.id}/experiences/${sail.id}/sessions`, { headers: shop, body }),
      await w.t().rest('PATCH', `/v1/brands/${brand.id}/sessions/${s.id}`, { headers: shop, body: { capacity: 5 } }),
      await w.t().rest('POST', `/v1/brands/${brand.id}/sessions/${s.id}/cancel`, { headers: shop, body: {} }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const gql = await w.t().gql(UPDATE, { brandId: brand.id, sessionId: s.id, capacity: 5 }, { headers: shop });
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');

    // The sister brand's key, with its own brand in the path: this brand's experience and session do not exist for it.
    expect((await post(sail.id, body, keys.sister, sister.id)).status).toBe(404);
    expect((await patch(s.id, { capacity: 5 }, keys.sister, sister.id)).body.error.code).toBe('NOT_FOUND');
    expect((await cancel(s.id, {}, keys.sister, sister.id)).body.error.code).toBe('NOT_FOUND');
    // Another brand in the path is not one this key acts for.
    expect((await patch(s.id, { capacity: 5 }, keys.outsider)).body.error.code).toBe('FORBIDDEN');
    // The organization's key acts for the brand.
    expect((await patch(s.id, { capacity: 5 }, keys.org)).body.data.capacity).toBe(5);
    expect(await w.invariants(s.id)).toEqual({ capacity: 5, reserved: 0, held: 0 });
    expect(await starts(sail.id).then((rows) => rows.some((r) => r.startLocal.startsWith('2027-06-01')))).toBe(false);
  });
});

describe('a hold racing a cancel', () => {
  const guests = [{ firstName: 'Rui', lastName: 'Lopes', priceTierName: 'Adult' }];
  const holdOn = (s: { startLocal: string }) =>
    w.checkout({ data: [{ experienceId: sail.id, sessionTime: s.startLocal.slice(0, 16), participants: guests }] });
  const liveBookings = (sessionId: string) =>
    db.value<number>("SELECT count(*) FROM bookings WHERE session_id = ? AND status IN ('processing', 'confirmed')", sessionId);

  it('a hold that read the session before the cancel and writes after it takes nothing', async () => {
    const s = await w.session(6, 0);
    let open!: () => void;
    payments.intentGate = new Promise((resolve) => (open = resolve));
    // The checkout has read the session (still on sale) and waits for its payment intent.
    const hold = holdOn(s);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const cancelled = await cancel(s.id);
    expect(cancelled.body.bookings).toEqual([]);
    open();
    payments.intentGate = null;
    const res = await hold;
    expect(res.status).toBe(409);
    expect(await liveBookings(s.id)).toBe(0);
    expect(await w.invariants(s.id)).toEqual({ capacity: 6, reserved: 0, held: 0 });
  });

  it('holds and cancels at the same time never leave a live booking on a cancelled session', async () => {
    for (let round = 0; round < 6; round++) {
      const s = await w.session(6, 0);
      const results = await Promise.all([holdOn(s), holdOn(s), cancel(s.id), holdOn(s)]);
      const [a, b, c, d] = results;
      expect(c.status).toBe(200);
      for (const hold of [a, b, d]) expect([201, 409]).toContain(hold.status);
      expect(await liveBookings(s.id)).toBe(0);
      expect(await w.invariants(s.id)).toEqual({ capacity: 6, reserved: 0, held: 0 });
      // Every hold that got through is among the bookings the cancel (or its retry) cancelled.
      const made = [a, b, d].filter((h) => h.status === 201).flatMap((h) => h.body.bookings.map((x: { id: string }) => x.id));
      for (const id of made) expect(['cancelled', 'failed']).toContain(await db.value('SELECT status FROM bookings WHERE id = ?', id));
    }
  });
});
