import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';

const NOW = '2026-11-25T12:00:00.000Z';
const db = await freshDb();
const org = await createOrganization(db);
const brand = await createBrand(db, { organizationId: org.id, name: 'Coast Lisbon' });
const sister = await createBrand(db, { organizationId: org.id, name: 'Coast Porto' });
const outsider = await createBrand(db, { name: 'Elsewhere' });
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;
const { experience } = await createExperience(db, brand.id, { title: 'Sunset Sail' });
const { experience: sisterExperience } = await createExperience(db, sister.id);
const { experience: outsiderExperience } = await createExperience(db, outsider.id);
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date(NOW) });
});

let day = 0;
/** A fresh session (capacity 10) so each test can read its own `reserved`. */
async function session(exp = experience) {
  day += 1;
  const date = new Date(Date.UTC(2026, 11, day)).toISOString().slice(0, 10);
  return createSession(db, exp, { startLocal: `${date}T09:00:00` });
}
const reserved = (sessionId: string) => db.value<number>('SELECT reserved FROM sessions WHERE id = ?', sessionId);
const row = (id: string) => db.one('SELECT status, hold_expires_at AS "holdExpiresAt" FROM bookings WHERE id = ?', id);
const cancel = (bookings: unknown[], key = brandKey, headers?: Record<string, string>) =>
  t.rest('POST', '/v1/bookings/cancel', { key, body: { bookings }, ...(headers ? { headers } : {}) });

describe('POST /v1/bookings/cancel: whole bookings', () => {
  it('cancels a confirmed booking: every participant cancelled now, places back, the spec Booking returned', async () => {
    const s = await session();
    const { booking, participants } = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    expect(await reserved(s.id)).toBe(2);
    const res = await cancel([{ bookingId: booking.id, cancel: true }]);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.items).toHaveLength(1);
    const item = res.body.items[0];
    expect(Object.keys(item).sort()).toEqual(
      [
        'amount',
        'amountRefunded',
        'cartConfirmationCode',
        'cartId',
        'confirmationCode',
        'createdAt',
        'currency',
        'event',
        'experience',
        'id',
        'internalNotes',
        'notes',
        'participants',
        'paymentMethod',
        'purchaser',
        'status',
      ].sort(),
    );
    expect(item).toMatchObject({ id: booking.id, status: 'cancelled', amount: 90, amountRefunded: 0, currency: 'EUR' });
    expect(item.experience).toEqual({ id: experience.id, title: 'Sunset Sail' });
    expect(item.participants.map((p: any) => [p.id, p.cancelledAt])).toEqual(participants.map((p) => [p.id, NOW]));
    expect(await reserved(s.id)).toBe(0);
  });

  it('refuses to cancel a cancelled booking again with BOOKING_ALREADY_CANCELLED, keeping the first cancellation time', async () => {
    const s = await session();
    const { booking } = await createBooking(db, {
      brandId: brand.id,
      session: s,
      status: 'cancelled',
      participants: [{ cancelledAt: '2026-11-21T08:00:00.000Z' }],
    });
    const res = await cancel([{ bookingId: booking.id, cancel: true }]);
    expect(res.body).toEqual({
      items: [],
      errors: [
        {
          index: 0,
          bookingId: booking.id,
          code: 'BOOKING_ALREADY_CANCELLED',
          message: 'The booking is already cancelled: nothing would change',
        },
      ],
    });
    const view = await t.rest('GET', `/v1/bookings/${booking.id}`, { key: brandKey });
    expect([view.body.status, view.body.participants[0].cancelledAt]).toEqual(['cancelled', '2026-11-21T08:00:00.000Z']);
    expect(await reserved(s.id)).toBe(0);
  });

  it('cancels a processing booking: its hold is released and can no longer lapse', async () => {
    const s = await session();
    const { booking } = await createPaidBooking(db, {
      brandId: brand.id,
      session: s,
      status: 'processing',
      intentStatus: 'requires_payment',
      participants: [{}, {}, {}],
      overrides: { holdExpiresAt: '2026-11-25T12:15:00.000Z' },
    });
    expect(await reserved(s.id)).toBe(3);
    const res = await cancel([{ bookingId: booking.id, cancel: true }]);
    expect(res.body.items[0].status).toBe('cancelled');
    expect(await reserved(s.id)).toBe(0);
    expect(await row(booking.id)).toEqual({ status: 'cancelled', holdExpiresAt: null });
  });

  it('refuses a failed booking with a 409 code in the item error, changing nothing', async () => {
    const s = await session();
    const { booking } = await createBooking(db, { brandId: brand.id, session: s, status: 'failed' });
    const res = await cancel([{ bookingId: booking.id, cancel: true }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [],
      errors: [{ index: 0, bookingId: booking.id, code: 'BOOKING_NOT_CANCELLABLE', message: expect.any(String) }],
    });
    expect(await row(booking.id)).toMatchObject({ status: 'failed' });
  });

  it('cancels a refunded booking as the spec table says: cancelled, its guests cancelled now, money and places unchanged', async () => {
    const s = await session();
    // A refunded booking holds no places (they went back when it was refunded).
    const { booking } = await createPaidBooking(db, {
      brandId: brand.id,
      session: s,
      status: 'refunded',
      amountRefundedMinor: 4500,
      participants: [{}, {}],
    });
    await db.run('UPDATE sessions SET reserved = 0 WHERE id = ?', s.id);
    const res = await cancel([{ bookingId: booking.id, cancel: true }]);
    expect(res.body.errors).toEqual([]);
    expect(res.body.items[0]).toMatchObject({ status: 'cancelled', amount: 90, amountRefunded: 45 });
    expect(res.body.items[0].participants.map((p: any) => p.cancelledAt)).toEqual([NOW, NOW]);
    expect(await reserved(s.id)).toBe(0);
    const again = await cancel([{ bookingId: booking.id, cancel: true }]);
    expect(again.body.errors.map((e: any) => e.code)).toEqual(['BOOKING_ALREADY_CANCELLED']);
  });
});

describe('POST /v1/bookings/cancel: participants', () => {
  it('cancels the listed participants only, then the last one cancels the booking', async () => {
    const s = await session();
    const {
      booking,
      participants: [a, b, c],
    } = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}, {}] });
    const first = await cancel([{ bookingId: booking.id, participants: [a!.id, b!.id] }]);
    expect(first.body.items[0].status).toBe('confirmed');
    expect(first.body.items[0].participants.map((p: any) => p.cancelledAt)).toEqual([NOW, NOW, null]);
    expect(await reserved(s.id)).toBe(1);

    // Naming only participants already cancelled changes nothing: an error says so.
    const again = await cancel([{ bookingId: booking.id, participants: [a!.id] }]);
    expect(again.body).toEqual({
      items: [],
      errors: [
        {
          index: 0,
          bookingId: booking.id,
          code: 'PARTICIPANT_ALREADY_CANCELLED',
          field: 'bookings.0.participants',
          message: 'Every participant named is already cancelled: nothing would change',
        },
      ],
    });
    expect(await reserved(s.id)).toBe(1);

    const last = await cancel([{ bookingId: booking.id, participants: [c!.id] }]);
    expect(last.body.items[0].status).toBe('cancelled');
    expect(last.body.items[0].participants.map((p: any) => p.cancelledAt)).toEqual([NOW, NOW, NOW]);
    expect(await reserved(s.id)).toBe(0);
  });

  it('with cancel: true and participants, cancels those participants only', async () => {
    const s = await session();
    const {
      booking,
      participants: [a],
    } = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    const res = await cancel([{ bookingId: booking.id, cancel: true, participants: [a!.id] }]);
    expect(res.body.items[0].status).toBe('confirmed');
    expect(res.body.items[0].participants.map((p: any) => p.cancelledAt)).toEqual([NOW, null]);
    expect(await reserved(s.id)).toBe(1);
  });

  it('refuses a participant of another booking, naming it, and changes nothing', async () => {
    const s = await session();
    const {
      booking,
      participants: [a],
    } = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    const {
      participants: [stranger],
    } = await createPaidBooking(db, { brandId: brand.id, session: s });
    const res = await cancel([{ bookingId: booking.id, participants: [a!.id, stranger!.id] }]);
    expect(res.body.items).toEqual([]);
    expect(res.body.errors).toEqual([
      {
        index: 0,
        bookingId: booking.id,
        code: 'PARTICIPANT_NOT_IN_BOOKING',
        message: expect.stringContaining('bookings.0.participants.1'),
        field: 'bookings.0.participants.1',
      },
    ]);
    expect(await reserved(s.id)).toBe(3);
  });
});

describe('POST /v1/bookings/cancel: items and visibility', () => {
  it('processes each item on its own: valid ones succeed, the others are reported by index', async () => {
    const s = await session();
    const ok = (await createPaidBooking(db, { brandId: brand.id, session: s })).booking;
    const failed = (await createBooking(db, { brandId: brand.id, session: s, status: 'failed' })).booking;
    const foreign = (await createPaidBooking(db, { brandId: outsider.id, session: await session(outsiderExperience) })).booking;
    const unknown = '6f1c0a52-3d4e-4c1a-9b7e-0b00000000ff';
    const ok2 = (await createPaidBooking(db, { brandId: brand.id, session: s })).booking;
    const res = await cancel([
      { bookingId: ok.id, cancel: true },
      { bookingId: unknown, cancel: true },
      { bookingId: foreign.id, cancel: true },
      { bookingId: failed.id, cancel: true },
      { bookingId: ok2.id, cancel: true },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.items.map((b: any) => [b.id, b.status])).toEqual([
      [ok.id, 'cancelled'],
      [ok2.id, 'cancelled'],
    ]);
    expect(res.body.errors.map((e: any) => [e.index, e.bookingId, e.code])).toEqual([
      [1, unknown, 'NOT_FOUND'],
      [2, foreign.id, 'NOT_FOUND'],
      [3, failed.id, 'BOOKING_NOT_CANCELLABLE'],
    ]);
    expect(await row(foreign.id)).toMatchObject({ status: 'confirmed' });
  });

  it("answers NOT_FOUND for a sister brand's booking with a brand key", async () => {
    const { booking } = await createPaidBooking(db, { brandId: sister.id, session: await session(sisterExperience) });
    const res = await cancel([{ bookingId: booking.id, cancel: true }]);
    expect(res.body.errors[0]).toMatchObject({ index: 0, code: 'NOT_FOUND' });
    expect(await row(booking.id)).toMatchObject({ status: 'confirmed' });
  });

  it('lets an organization key mix its brands, and no other', async () => {
    const mine = (await createPaidBooking(db, { brandId: brand.id, session: await session() })).booking;
    const theirs = (await createPaidBooking(db, { brandId: sister.id, session: await session(sisterExperience) })).booking;
    const foreign = (await createPaidBooking(db, { brandId: outsider.id, session: await session(outsiderExperience) })).booking;
    const res = await cancel(
      [
        { bookingId: mine.id, cancel: true },
        { bookingId: theirs.id, cancel: true },
        { bookingId: foreign.id, cancel: true },
      ],
      orgKey,
    );
    expect(res.body.items.map((b: any) => b.id)).toEqual([mine.id, theirs.id]);
    expect(res.body.errors.map((e: any) => [e.index, e.code])).toEqual([[2, 'NOT_FOUND']]);
  });

  it('narrows an organization key to the Tessera-Brand-Id brand', async () => {
    const theirs = (await createPaidBooking(db, { brandId: sister.id, session: await session(sisterExperience) })).booking;
    const res = await cancel([{ bookingId: theirs.id, cancel: true }], orgKey, { 'tessera-brand-id': brand.id });
    expect(res.body.errors[0].code).toBe('NOT_FOUND');
  });

  it('answers 403 when Tessera-Brand-Id names a brand the key may not act for', async () => {
    const { booking } = await createPaidBooking(db, { brandId: brand.id, session: await session() });
    const res = await cancel([{ bookingId: booking.id, cancel: true }], brandKey, { 'tessera-brand-id': sister.id });
    expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(await row(booking.id)).toMatchObject({ status: 'confirmed' });
  });

  it('answers 401 without a key or with an unknown one', async () => {
    const body = { bookings: [{ bookingId: '6f1c0a52-3d4e-4c1a-9b7e-0b00000000ff', cancel: true }] };
    const anon = await t.rest('POST', '/v1/bookings/cancel', { body });
    expect([anon.status, anon.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    const wrong = await t.rest('POST', '/v1/bookings/cancel', { key: 'sk_test_nope', body });
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
  });
});

describe('POST /v1/bookings/cancel: a malformed envelope is a 400 naming the field', () => {
  const id = '6f1c0a52-3d4e-4c1a-9b7e-0b00000000ff';
  it.each<[string, unknown, string]>([
    ['no body', undefined, 'body'],
    ['no bookings', {}, 'bookings'],
    ['bookings not an array', { bookings: { bookingId: id, cancel: true } }, 'bookings'],
    ['empty bookings', { bookings: [] }, 'bookings'],
    ['101 items', { bookings: Array.from({ length: 101 }, () => ({ bookingId: id, cancel: true })) }, 'bookings'],
    ['an unknown top-level field', { bookings: [{ bookingId: id, cancel: true }], refund: true }, 'refund'],
  ])('%s', async (_, body, field) => {
    const res = await t.rest('POST', '/v1/bookings/cancel', { key: brandKey, ...(body === undefined ? {} : { body }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });
});

describe('POST /v1/bookings/cancel: a malformed item is reported on its own while the others are processed', () => {
  const id = '6f1c0a52-3d4e-4c1a-9b7e-0b00000000ff';
  it.each<[string, unknown, string, string | undefined]>([
    ['an item asking for nothing', { bookingId: id }, 'bookings.1', id],
    ['cancel: false', { bookingId: id, cancel: false }, 'bookings.1.cancel', id],
    ['cancel as text', { bookingId: id, cancel: 'true' }, 'bookings.1.cancel', id],
    ['empty participants', { bookingId: id, participants: [] }, 'bookings.1.participants', id],
    ['one participant id instead of a list', { bookingId: id, participants: id }, 'bookings.1.participants', id],
    ['a participant twice', { bookingId: id, participants: [id, id] }, 'bookings.1.participants.1', id],
    ['a participant that is no UUID', { bookingId: id, participants: ['p1'] }, 'bookings.1.participants.0', id],
    ['a booking id that is no UUID', { bookingId: 'TST00001', cancel: true }, 'bookings.1.bookingId', 'TST00001'],
    ['no booking id', { cancel: true }, 'bookings.1.bookingId', undefined],
    ['a zero refund', { bookingId: id, refundAmount: 0 }, 'bookings.1.refundAmount', id],
    ['a refund as text', { bookingId: id, refundAmount: '5' }, 'bookings.1.refundAmount', id],
    ['an unknown field', { bookingId: id, cancel: true, refund: 5 }, 'bookings.1.refund', id],
    ['a string instead of an item', 'cancel everything', 'bookings.1', undefined],
  ])('%s', async (_, bad, field, bookingId) => {
    const s = await session();
    const { booking } = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    const res = await cancel([{ bookingId: booking.id, cancel: true }, bad]);
    expect(res.status).toBe(200);
    expect(res.body.items.map((b: any) => [b.id, b.status])).toEqual([[booking.id, 'cancelled']]);
    expect(res.body.errors).toEqual([
      { index: 1, ...(bookingId === undefined ? {} : { bookingId }), code: 'VALIDATION_FAILED', field, message: expect.any(String) },
    ]);
    expect(await reserved(s.id)).toBe(0);
  });

  it('processes the first item naming a booking and reports the later one, changing nothing for it', async () => {
    const s = await session();
    const { booking } = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    const res = await cancel([
      { bookingId: booking.id, cancel: true },
      { bookingId: booking.id, refundAmount: 10 },
    ]);
    expect(res.body.items.map((b: any) => [b.id, b.status, b.amountRefunded])).toEqual([[booking.id, 'cancelled', 0]]);
    expect(res.body.errors).toEqual([
      {
        index: 1,
        bookingId: booking.id,
        code: 'VALIDATION_FAILED',
        field: 'bookings.1.bookingId',
        message: `Booking ${booking.id} is already named by bookings.0; combine the two items`,
      },
    ]);
  });
});

// Raw ids (`uuid`) under REST's names, so the two faces compare field for field.
const mutation = `mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) {
  items { id: uuid status amount amountRefunded currency confirmationCode cartId cartConfirmationCode paymentMethod createdAt
    participants { id: uuid cancelledAt priceTierName } event { timezone startDateTime } experience { id: uuid title } }
  errors { index bookingId code message field }
} }`;

describe('GraphQL cancelBookings', () => {
  it('cancels like REST does, and both faces show the same booking', async () => {
    const s = await session();
    const { booking } = await createPaidBooking(db, { brandId: brand.id, session: s, participants: [{}, {}] });
    const gql = await t.gql(mutation, { input: { bookings: [{ bookingId: booking.id, cancel: true }] } }, { key: brandKey });
    expect(gql.body.errors).toBeUndefined();
    const g = gql.body.data.cancelBookings;
    expect(g.errors).toEqual([]);
    expect(await reserved(s.id)).toBe(0);
    const rest = (await t.rest('GET', `/v1/bookings/${booking.id}`, { key: brandKey })).body;
    expect(g.items[0]).toEqual({
      id: rest.id,
      status: 'CANCELLED',
      amount: rest.amount,
      amountRefunded: rest.amountRefunded,
      currency: rest.currency,
      confirmationCode: rest.confirmationCode,
      cartId: rest.cartId,
      cartConfirmationCode: rest.cartConfirmationCode,
      paymentMethod: 'CREDIT_CARD',
      createdAt: rest.createdAt,
      participants: rest.participants.map((p: any) => ({ id: p.id, cancelledAt: p.cancelledAt, priceTierName: p.priceTierName })),
      event: rest.event,
      experience: rest.experience,
    });
  });

  it('reports item errors with their code and field', async () => {
    const s = await session();
    const { booking } = await createPaidBooking(db, { brandId: brand.id, session: s });
    const failed = (await createBooking(db, { brandId: brand.id, session: s, status: 'failed' })).booking;
    const stranger = '6f1c0a52-3d4e-4c1a-9b7e-0b00000000aa';
    const res = await t.gql(
      mutation,
      {
        input: {
          bookings: [
            { bookingId: failed.id, cancel: true },
            { bookingId: booking.id, participants: [stranger] },
          ],
        },
      },
      { key: brandKey },
    );
    expect(res.body.data.cancelBookings).toEqual({
      items: [],
      errors: [
        { index: 0, bookingId: failed.id, code: 'BOOKING_NOT_CANCELLABLE', message: expect.any(String), field: null },
        {
          index: 1,
          bookingId: booking.id,
          code: 'PARTICIPANT_NOT_IN_BOOKING',
          message: expect.any(String),
          field: 'bookings.1.participants.0',
        },
      ],
    });
  });

  const id = '6f1c0a52-3d4e-4c1a-9b7e-0b00000000ff';
  it.each<[string, unknown[]]>([
    ['101 items', Array.from({ length: 101 }, () => ({ bookingId: id, cancel: true }))],
    ['no items', []],
  ])('refuses %s as a whole, VALIDATION_FAILED naming bookings', async (_, bookings) => {
    const res = await t.gql(mutation, { input: { bookings } }, { key: brandKey });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'bookings' });
  });

  it.each<[string, unknown, string]>([
    ['an item asking for nothing', { bookingId: id }, 'bookings.1'],
    ['cancel: false', { bookingId: id, cancel: false }, 'bookings.1.cancel'],
    ['empty participants', { bookingId: id, participants: [] }, 'bookings.1.participants'],
    ['a negative refund', { bookingId: id, refundAmount: -5 }, 'bookings.1.refundAmount'],
  ])('reports %s as an item error and processes the other items', async (_, bad, field) => {
    const { booking } = await createPaidBooking(db, { brandId: brand.id, session: await session() });
    const res = await t.gql(mutation, { input: { bookings: [{ bookingId: booking.id, cancel: true }, bad] } }, { key: brandKey });
    const payload = res.body.data.cancelBookings;
    expect(payload.items.map((b: any) => [b.id, b.status])).toEqual([[booking.id, 'CANCELLED']]);
    expect(payload.errors).toEqual([{ index: 1, bookingId: id, code: 'VALIDATION_FAILED', message: expect.any(String), field }]);
  });

  it('refuses a malformed booking id as BAD_USER_INPUT, and a missing key as UNAUTHENTICATED', async () => {
    const bad = await t.gql(mutation, { input: { bookings: [{ bookingId: 'nope', cancel: true }] } }, { key: brandKey });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const anon = await t.gql(mutation, { input: { bookings: [{ bookingId: id, cancel: true }] } });
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
