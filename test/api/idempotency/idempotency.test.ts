import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createPaidBooking } from '../../../fixtures/factories/payments.ts';
import { TestProcessor } from '../../support/processors.ts';

const db = await freshDb();
const org = await createOrganization(db);
const brand = await createBrand(db, { organizationId: org.id });
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;
const { experience } = await createExperience(db, brand.id);
const processor = new TestProcessor();
let clock = new Date('2026-11-25T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db, { now: () => clock, payments: processor });
});
beforeEach(() => {
  processor.refundCalls.length = 0;
  processor.failure = null;
});

let day = 0;
async function paidBooking() {
  day += 1;
  const session = await createSession(db, experience, { startLocal: `2026-12-${String(day).padStart(2, '0')}T09:00:00` });
  return (await createPaidBooking(db, { brandId: brand.id, session, participants: [{ priceMinor: 5000 }, { priceMinor: 5000 }] })).booking;
}
const refunded = (id: string) => db.value<number>('SELECT amount_refunded_minor FROM bookings WHERE id = ?', id);
const ledgerSize = (id: string) => db.count('refunds', { bookingId: id });

/** A raw POST, so the exact bytes of the body are under the test's control. */
async function post(url: string, payload: string, headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}
const refundBody = (bookingId: string, amount: number) => JSON.stringify({ bookings: [{ bookingId, refundAmount: amount }] });
const withKey = (key: string, secret = brandKey) => ({ authorization: `Bearer ${secret}`, 'idempotency-key': key });

describe('Idempotency-Key on REST POSTs', () => {
  it('replays the first answer byte for byte and refunds only once', async () => {
    const booking = await paidBooking();
    const first = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('refund-1'));
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('refund-1'));
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['content-type']).toMatch(/^application\/json/);
    expect(second.body).toBe(first.body);
    expect(JSON.parse(second.body).items[0].amountRefunded).toBe(10);
    expect(await refunded(booking.id)).toBe(1000);
    expect(await ledgerSize(booking.id)).toBe(1);
    expect(processor.refundCalls).toHaveLength(1);
  });

  it('replays an item failure too (a 200 answer), without retrying it', async () => {
    const booking = await paidBooking();
    processor.decline();
    const first = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('declined-1'));
    processor.failure = null;
    const second = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('declined-1'));
    expect(JSON.parse(second.body).errors[0].code).toBe('PAYMENT_PROCESSOR_ERROR');
    expect(second.body).toBe(first.body);
    expect(processor.refundCalls).toHaveLength(1);
  });

  it('refuses the same key with another body as 422 IDEMPOTENCY_KEY_REUSED, doing nothing', async () => {
    const booking = await paidBooking();
    await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('reuse-1'));
    const other = await post('/v1/bookings/cancel', refundBody(booking.id, 20), withKey('reuse-1'));
    expect(other.status).toBe(422);
    expect(JSON.parse(other.body).error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', details: { field: 'Idempotency-Key' } });
    const spaced = await post('/v1/bookings/cancel', ` ${refundBody(booking.id, 10)}`, withKey('reuse-1'));
    expect(spaced.status).toBe(422);
    expect(await refunded(booking.id)).toBe(1000);
  });

  it('refuses a repeat while the first is still running with 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const booking = await paidBooking();
    processor.hold();
    const running = post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('slow-1'));
    await vi.waitFor(() => expect(processor.refundCalls).toHaveLength(1));
    const duplicate = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('slow-1'));
    expect(duplicate.status).toBe(409);
    expect(JSON.parse(duplicate.body).error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    processor.release();
    expect((await running).status).toBe(200);
    const after = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('slow-1'));
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(await refunded(booking.id)).toBe(1000);
    expect(processor.refundCalls).toHaveLength(1);
  });

  it('keeps keys of different API keys apart', async () => {
    const booking = await paidBooking();
    const mine = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('shared-1', brandKey));
    const theirs = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('shared-1', orgKey));
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(JSON.parse(mine.body).items[0].amountRefunded).toBe(10);
    expect(JSON.parse(theirs.body).items[0].amountRefunded).toBe(20);
    expect(await ledgerSize(booking.id)).toBe(2);
  });

  it('forgets a key after 24 hours', async () => {
    const booking = await paidBooking();
    await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('daily-1'));
    clock = new Date(clock.getTime() + 24 * 3600 * 1000 - 1);
    expect((await post('/v1/bookings/cancel', refundBody(booking.id, 20), withKey('daily-1'))).status).toBe(422);
    clock = new Date(clock.getTime() + 2);
    const later = await post('/v1/bookings/cancel', refundBody(booking.id, 20), withKey('daily-1'));
    expect(later.status).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await refunded(booking.id)).toBe(3000);
  });

  it('does not claim the key for a request refused by validation', async () => {
    const booking = await paidBooking();
    const bad = await post('/v1/bookings/cancel', JSON.stringify({ bookings: [] }), withKey('fixme-1'));
    expect(bad.status).toBe(400);
    const good = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('fixme-1'));
    expect(good.status).toBe(200);
    expect(await refunded(booking.id)).toBe(1000);
  });

  it('refuses a malformed key with 400 naming Idempotency-Key', async () => {
    const booking = await paidBooking();
    for (const key of ['x'.repeat(256), '']) {
      const res = await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey(key));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'Idempotency-Key' } });
    }
    expect(await refunded(booking.id)).toBe(0);
    expect((await post('/v1/bookings/cancel', refundBody(booking.id, 10), withKey('x'.repeat(255)))).status).toBe(200);
  });

  it('lets an unauthenticated request fail as usual, storing nothing', async () => {
    const booking = await paidBooking();
    const anon = await post('/v1/bookings/cancel', refundBody(booking.id, 10), { 'idempotency-key': 'anon-1' });
    expect(anon.status).toBe(401);
    expect(await db.one("SELECT count(*) AS n FROM idempotency_keys WHERE key = 'anon-1'")).toEqual({ n: 0 });
  });
});

describe('Idempotency-Key on GraphQL mutations', () => {
  const mutation = `mutation($input: CancelBookingsInput!) { cancelBookings(input: $input) { items { uuid amountRefunded } errors { code } } }`;

  it('replays the first answer and refunds once', async () => {
    const booking = await paidBooking();
    const body = JSON.stringify({ query: mutation, variables: { input: { bookings: [{ bookingId: booking.id, refundAmount: 10 }] } } });
    const first = await post('/graphql', body, withKey('gql-1'));
    const second = await post('/graphql', body, withKey('gql-1'));
    expect(JSON.parse(first.body).data.cancelBookings.items).toEqual([{ uuid: booking.id, amountRefunded: 10 }]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(await refunded(booking.id)).toBe(1000);
    const reused = await post('/graphql', body.replace('"refundAmount":10', '"refundAmount":11'), withKey('gql-1'));
    expect([reused.status, JSON.parse(reused.body).errors[0].extensions.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });
});

describe('idempotent answers that carry a secret', () => {
  it('replays a webhook endpoint’s one-time secret without keeping it readable in the database', async () => {
    const body = JSON.stringify({ url: 'https://hooks.example.com/tessera', events: ['booking.confirmed'] });
    const headers = { authorization: `Bearer ${brandKey}`, 'idempotency-key': 'endpoint-create-1' };
    const first = await post(`/v1/brands/${brand.id}/webhooks`, body, headers);
    expect(first.status).toBe(201);
    const secret = JSON.parse(first.body).secret as string;
    expect(secret).toMatch(/^whsec_/);

    const again = await post(`/v1/brands/${brand.id}/webhooks`, body, headers);
    expect(again.status).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await db.value('SELECT count(*) FROM webhook_endpoints WHERE brand_id = ?', brand.id)).toBe(1);

    const stored = await db.value<string>("SELECT response_body FROM idempotency_keys WHERE key = 'endpoint-create-1'");
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain('whsec_');
  });
});
