/**
 * Freed places go to the waitlist first: the offer, convert and expire cycle with offers lasting a
 * minute on a settable clock, every way places come free, and the place invariants after each step.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepOnce } from '../../../src/domain/checkout/holds.ts';
import { CREATE_PAYMENT_INTENT } from '../../support/checkout.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { OFFER_TTL, WAITLIST, waitlistWorld } from '../../support/waitlist-world.ts';
import { inTurn } from '../../../fixtures/factories/in-turn.ts';

const w = await waitlistWorld();
const { db, brand, keys, sail } = w;
afterEach(() => {
  w.clock.now = new Date(CHECKOUT_NOW);
});

type Session = Awaited<ReturnType<typeof w.session>>;

/** Parties of these sizes join the session's line, in order; their entry ids. */
async function line(s: Session, sizes: number[]): Promise<string[]> {
  const ids: string[] = [];
  for (const size of sizes) {
    const res = await w.join(w.body(s, size));
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

const cancelGuests = (s: Session, count: number) =>
  w.t().rest('POST', '/v1/bookings/cancel', {
    key: keys.brand,
    body: { bookings: [{ bookingId: s.booking!.booking.id, participants: s.booking!.participants.slice(0, count).map((p) => p.id) }] },
  });
const item = (s: Session, size: number, extra: object = {}) => ({
  experienceId: sail.id,
  sessionTime: s.startLocal.slice(0, 16),
  participants: Array.from({ length: size }, (_, i) => ({ firstName: `Buyer${i + 1}`, lastName: 'Costa', priceTierName: 'Adult' })),
  ...extra,
});
const statuses = (ids: string[]) => inTurn(ids, (id) => w.status(id));
const remaining = async (s: Session) => {
  const day = s.startLocal.slice(0, 10);
  const res = await w
    .t()
    .rest('GET', `/v1/brands/${brand.id}/experiences/${sail.id}/availability?from=${day}&to=${day}`, { key: keys.brand });
  return res.body.data[0].remaining as number;
};
const offerExpiry = (entryId: string) => db.value<string>('SELECT offer_expires_at FROM waitlist_entries WHERE id = ?', entryId);
const eventTypes = (entryId: string) => db.values<string>('SELECT type FROM events WHERE resource_id = ? ORDER BY sequence', entryId);
const sweepErrors: unknown[] = [];
const sweep = async () =>
  sweepOnce({
    db: db.database,
    now: () => w.clock.now,
    waitlistOfferTtlSeconds: OFFER_TTL,
    log: { error: (details) => sweepErrors.push(details) },
  });
const confirmPayment = (secret: string, outcome: 'succeeded' | 'failed') =>
  w.t().rest('POST', '/v1/sandbox/payment_intents/confirm', { body: { paymentIntentSecret: secret, outcome } });

describe('places freed by cancelling participants', () => {
  it('are offered to the first entries that fit, skipping a larger party earlier in line', async () => {
    const s = await w.session(4);
    const [big, pair, solo] = await line(s, [3, 2, 1]);
    expect((await cancelGuests(s, 2)).status).toBe(200);

    expect(await statuses([big!, pair!, solo!])).toEqual(['waiting', 'offered', 'waiting']);
    expect(await offerExpiry(pair!)).toBe(w.later(OFFER_TTL).toISOString());
    // Held places are not on sale.
    expect(await remaining(s)).toBe(0);
    expect(await w.invariants(s.id)).toEqual({ capacity: 4, reserved: 2, held: 2 });
    expect(await eventTypes(pair!)).toEqual(['waitlist.entry_created', 'waitlist.offered']);
    const rest = await w.entries(`?status=offered&sessionStartDateTime=${s.startLocal}`);
    expect(rest).toEqual([expect.objectContaining({ id: pair, status: 'offered', offerExpiresAt: w.later(OFFER_TTL).toISOString() })]);
    const gql = await w
      .t()
      .gql(WAITLIST, { brandId: brand.id, id: w.waitlist.id, at: s.startLocal, statuses: ['OFFERED'] }, { key: keys.brand });
    expect(gql.body.data.waitlist.entries).toEqual(rest.map((e) => ({ ...e, status: 'OFFERED' })));
  });
});

describe('an offer', () => {
  it('cannot be taken by a checkout without its entry id; one with it converts the entry', async () => {
    const s = await w.session(4);
    const [pair, solo] = await line(s, [2, 1]);
    await cancelGuests(s, 2);
    const cartId = randomUUID();

    const plain = await w.checkout({ data: [item(s, 1)] });
    expect([plain.status, plain.body.error.code, plain.body.error.details.field]).toEqual([
      409,
      'CAPACITY_EXCEEDED',
      'data.0.participants',
    ]);
    const gqlPlain = await w
      .t()
      .gql(CREATE_PAYMENT_INTENT, { brandId: brand.id, cartId: randomUUID(), input: { data: [item(s, 1)] } }, { key: keys.brand });
    expect(gqlPlain.body.errors[0].extensions).toMatchObject({ code: 'CAPACITY_EXCEEDED', field: 'data.0.participants' });

    const refusals: Array<[object, number, string, string]> = [
      [item(s, 1, { waitlistEntryId: solo }), 409, 'WAITLIST_OFFER_NOT_AVAILABLE', 'data.0.waitlistEntryId'],
      [item(s, 1, { waitlistEntryId: randomUUID() }), 409, 'WAITLIST_OFFER_NOT_AVAILABLE', 'data.0.waitlistEntryId'],
      [item(await w.session(4), 1, { waitlistEntryId: pair }), 409, 'WAITLIST_OFFER_NOT_AVAILABLE', 'data.0.waitlistEntryId'],
      [item(s, 3, { waitlistEntryId: pair }), 422, 'PARTICIPANT_COUNT_OUT_OF_RANGE', 'data.0.participants'],
    ];
    for (const [refused, status, code, field] of refusals) {
      const res = await w.checkout({ data: [refused] });
      expect([res.status, res.body.error.code, res.body.error.details.field]).toEqual([status, code, field]);
    }
    // Another brand's entry is as unknown as a made-up one.
    const sisterItem = {
      experienceId: w.walk.id,
      sessionTime: '2027-03-01T18:00',
      participants: [{ firstName: 'Aoi', lastName: 'Sato', priceTierName: 'Adult' }],
      waitlistEntryId: pair,
    };
    await w.db.run(
      "INSERT INTO sessions (id, experience_id, start_local, starts_at, duration_minutes, capacity) VALUES (?, ?, '2027-03-01T18:00:00', '2027-03-01T09:00:00.000Z', 120, 0)",
      randomUUID(),
      w.walk.id,
    );
    const foreign = await w
      .t()
      .rest('POST', `/v1/brands/${w.sister.id}/carts/${randomUUID()}/payment_intents`, { key: keys.sister, body: { data: [sisterItem] } });
    expect(foreign.body.error).toMatchObject({ code: 'WAITLIST_OFFER_NOT_AVAILABLE', details: { field: 'data.0.waitlistEntryId' } });

    const quote = await w.checkout({ data: [item(s, 2, { waitlistEntryId: pair })], getOnlyTotalNetAmount: true });
    expect([quote.status, quote.body.totalNetAmount]).toEqual([200, 111.93]);
    expect(await w.status(pair!)).toBe('offered');

    const gql = await w
      .t()
      .gql(
        CREATE_PAYMENT_INTENT,
        { brandId: brand.id, cartId, input: { data: [item(s, 2, { waitlistEntryId: pair })] } },
        { key: keys.brand },
      );
    const [booking] = gql.body.data.createPaymentIntent.cart.bookings;
    expect(booking.status).toBe('PROCESSING');
    // The answered booking's raw id: the cart read again shows the same (global) booking id with its uuid.
    const cart = await w
      .t()
      .gql(
        `query($b: UUID!, $c: UUID!) { cart(brandId: $b, cartId: $c) { bookings { id uuid } } }`,
        { b: brand.id, c: cartId },
        { key: keys.brand },
      );
    const [{ id: globalId, uuid: bookingId }] = cart.body.data.cart.bookings;
    expect(globalId).toBe(booking.id);
    expect(await statuses([pair!, solo!])).toEqual(['converted', 'waiting']);
    expect(await db.value('SELECT converted_booking_id FROM waitlist_entries WHERE id = ?', pair)).toBe(bookingId);
    expect(await db.value('SELECT metadata FROM bookings WHERE id = ?', bookingId)).toBeNull();
    expect(await w.invariants(s.id)).toEqual({ capacity: 4, reserved: 4, held: 0 });
    expect(await eventTypes(pair!)).toEqual(['waitlist.entry_created', 'waitlist.offered', 'waitlist.converted']);
    const converted = await db.value<string>("SELECT payload FROM events WHERE resource_id = ? AND type = 'waitlist.converted'", pair);
    expect(JSON.parse(converted).convertedBookingId).toBe(bookingId);
    // Converted once: the entry cannot be used by another cart.
    const again = await w.checkout({ data: [item(s, 2, { waitlistEntryId: pair })] });
    expect(again.body.error.code).toBe('WAITLIST_OFFER_NOT_AVAILABLE');
  });

  it('taken by a smaller party passes the rest of its places to the next entry', async () => {
    const s = await w.session(4);
    const [pair, solo] = await line(s, [2, 1]);
    await cancelGuests(s, 2);
    expect((await w.checkout({ data: [item(s, 1, { waitlistEntryId: pair })] })).status).toBe(201);
    expect(await statuses([pair!, solo!])).toEqual(['converted', 'offered']);
    expect(await w.invariants(s.id)).toEqual({ capacity: 4, reserved: 3, held: 1 });
  });

  it('lapses after the TTL: expired, and its places go to the next entries that fit, then back on sale', async () => {
    const s = await w.session(4);
    const [pair, solo, duo] = await line(s, [2, 1, 2]);
    await cancelGuests(s, 2);
    w.clock.now = w.later(OFFER_TTL - 1);
    await sweep();
    expect(await w.status(pair!)).toBe('offered');

    w.clock.now = w.later(OFFER_TTL);
    // Due but not swept yet: the offer can no longer be taken.
    const late = await w.checkout({ data: [item(s, 2, { waitlistEntryId: pair })] });
    expect(late.body.error).toMatchObject({ code: 'WAITLIST_OFFER_NOT_AVAILABLE', details: { field: 'data.0.waitlistEntryId' } });
    await sweep();
    expect(await statuses([pair!, solo!, duo!])).toEqual(['expired', 'offered', 'waiting']);
    expect(await offerExpiry(solo!)).toBe(w.later(OFFER_TTL * 2).toISOString());
    expect(await remaining(s)).toBe(1);
    expect(await w.invariants(s.id)).toEqual({ capacity: 4, reserved: 2, held: 1 });
    expect(await eventTypes(pair!)).toEqual(['waitlist.entry_created', 'waitlist.offered', 'waitlist.expired']);
    expect(sweepErrors).toEqual([]);

    // The expired purchaser may queue again, at the end of the line.
    const email = (await db.value('SELECT purchaser_email_key FROM waitlist_entries WHERE id = ?', pair)) as string;
    const rejoined = await w.join(w.body(s, 2, email));
    expect([rejoined.status, rejoined.body.position]).toEqual([201, 4]);
  });

  it('left by its entry passes its places on; a closed entry cannot leave again', async () => {
    const s = await w.session(4);
    const [pair, solo] = await line(s, [2, 1]);
    await cancelGuests(s, 2);
    const left = await w.t().rest('DELETE', `/v1/brands/${brand.id}/waitlists/${w.waitlist.id}/entries/${pair}`, { key: keys.brand });
    expect([left.status, left.body.status, left.body.id]).toEqual([200, 'cancelled', pair]);
    expect(await statuses([pair!, solo!])).toEqual(['cancelled', 'offered']);
    expect(await w.invariants(s.id)).toEqual({ capacity: 4, reserved: 2, held: 1 });

    const again = await w.t().rest('DELETE', `/v1/brands/${brand.id}/waitlists/${w.waitlist.id}/entries/${pair}`, { key: keys.brand });
    expect([again.status, again.body.error.code]).toEqual([409, 'WAITLIST_ENTRY_CLOSED']);
  });
});

describe('places freed by a lapsed hold or a failed payment', () => {
  it('go to the waitlist when the sweeper fails the lapsed hold', async () => {
    const s = await w.session(2, 0);
    expect((await w.checkout({ data: [item(s, 2)] })).status).toBe(201);
    const [pair] = await line(s, [2]);
    w.clock.now = w.later(900);
    await sweep();
    expect(await w.status(pair!)).toBe('offered');
    expect(await offerExpiry(pair!)).toBe(w.later(900 + OFFER_TTL).toISOString());
    expect(await w.invariants(s.id)).toEqual({ capacity: 2, reserved: 0, held: 2 });
  });

  it('go to the waitlist when the payment fails', async () => {
    const s = await w.session(2, 0);
    const checkout = await w.checkout({ data: [item(s, 2)] });
    const [solo] = await line(s, [1]);
    expect((await confirmPayment(checkout.body.paymentIntentSecret, 'failed')).status).toBe(200);
    expect(await w.status(solo!)).toBe('offered');
    expect(await w.invariants(s.id)).toEqual({ capacity: 2, reserved: 0, held: 1 });
  });

  it("of a converted entry's booking go on to the next entry; the converted entry stays converted", async () => {
    const s = await w.session(2);
    const [pair, next] = await line(s, [2, 2]);
    await cancelGuests(s, 2);
    const checkout = await w.checkout({ data: [item(s, 2, { waitlistEntryId: pair })] });
    expect(await w.invariants(s.id)).toEqual({ capacity: 2, reserved: 2, held: 0 });
    await confirmPayment(checkout.body.paymentIntentSecret, 'failed');
    expect(await statuses([pair!, next!])).toEqual(['converted', 'offered']);
    expect(await w.invariants(s.id)).toEqual({ capacity: 2, reserved: 0, held: 2 });
  });
});

describe('a cart posted again while unpaid', () => {
  it('keeps its places rather than offering them to the waitlist', async () => {
    const s = await w.session(2, 0);
    const cartId = randomUUID();
    expect((await w.checkout({ data: [item(s, 2)] }, cartId)).status).toBe(201);
    const [solo] = await line(s, [1]);
    expect((await w.checkout({ data: [item(s, 2)] }, cartId)).status).toBe(201);
    expect(await w.status(solo!)).toBe('waiting');
    expect(await w.invariants(s.id)).toEqual({ capacity: 2, reserved: 2, held: 0 });
    // A smaller cart gives the rest back, to the waitlist.
    expect((await w.checkout({ data: [item(s, 1)] }, cartId)).status).toBe(201);
    expect(await w.status(solo!)).toBe('offered');
    expect(await w.invariants(s.id)).toEqual({ capacity: 2, reserved: 1, held: 1 });
  });

  it('may name the entry it converted again', async () => {
    const s = await w.session(2);
    const [pair] = await line(s, [2]);
    await cancelGuests(s, 2);
    const cartId = randomUUID();
    const body = { data: [item(s, 2, { waitlistEntryId: pair })] };
    expect((await w.checkout(body, cartId)).status).toBe(201);
    const again = await w.checkout(body, cartId);
    expect(again.status).toBe(201);
    const current = await db.value("SELECT id FROM bookings WHERE cart_id = ? AND status = 'processing'", cartId);
    expect(await db.one('SELECT status, converted_booking_id AS booking FROM waitlist_entries WHERE id = ?', pair)).toEqual({
      status: 'converted',
      booking: current,
    });
    expect(await w.invariants(s.id)).toEqual({ capacity: 2, reserved: 2, held: 0 });
  });
});
