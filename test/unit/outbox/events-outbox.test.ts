/** The outbox: an event and its pending deliveries are written with the change, or not at all. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recordBookingEvent } from '../../../src/domain/bookings/booking-events.ts';
import { bookingViewsIn } from '../../../src/domain/bookings/booking-view.ts';
import { eventEnvelope, recordEvent } from '../../../src/domain/outbox/outbox.ts';
import { freshDb } from '../../support/db.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const brand = await createBrand(db);
const other = await createBrand(db);
const AT = '2026-11-25T12:00:00.000Z';

async function endpoint(brandId: string, eventTypes: string[], deletedAt: string | null = null) {
  const row = {
    id: randomUUID(),
    brandId,
    url: 'https://hooks.example.test/in',
    eventTypes,
    secretCiphertext: 'x',
    createdAt: AT,
    deletedAt,
  };
  await db.insert('webhookEndpoints', row);
  return row;
}

const subscribedToBoth = await endpoint(brand.id, ['booking.created', 'booking.confirmed']);
const confirmedOnly = await endpoint(brand.id, ['booking.confirmed']);
await endpoint(brand.id, ['booking.created'], '2026-11-20T00:00:00.000Z');
await endpoint(other.id, ['booking.created']);

const deliveriesOf = (eventId: string) =>
  db.all(
    `SELECT d.endpoint_id AS "endpointId", d.resource_id AS "resourceId", d.status, d.attempts, d.next_attempt_at AS "nextAttemptAt",
         d.last_attempt_at AS "lastAttemptAt", d.delivered_at AS "deliveredAt"
       FROM webhook_deliveries d JOIN events e ON e.sequence = d.event_sequence WHERE e.id = ? ORDER BY d.endpoint_id`,
    eventId,
  );
/** An event's place in the feed. */
const sequenceOf = (eventId: string) => db.value<number>('SELECT sequence FROM events WHERE id = ?', eventId);
const count = (table: string) => db.value<number>(`SELECT count(*) FROM ${table}`);

describe('recordEvent', () => {
  it('stores the event and a pending delivery for the subscribed endpoint only: not a deleted one, not another brand', async () => {
    const resourceId = randomUUID();
    const event = await db.database.transaction(async (tx) =>
      recordEvent(tx, { brandId: brand.id, type: 'booking.created', resourceId, payload: { id: resourceId }, at: AT }),
    );
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      brandId: brand.id,
      type: 'booking.created',
      resourceId,
      payload: { id: resourceId },
      createdAt: AT,
    });
    expect(await deliveriesOf(event.id)).toEqual([
      {
        endpointId: subscribedToBoth.id,
        resourceId,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: AT,
        lastAttemptAt: null,
        deliveredAt: null,
      },
    ]);
  });

  it('queues for every subscribed endpoint, and for none when no endpoint wants the type', async () => {
    const confirmed = await db.database.transaction(async (tx) =>
      recordEvent(tx, { brandId: brand.id, type: 'booking.confirmed', resourceId: 'r1', payload: {}, at: AT }),
    );
    expect((await deliveriesOf(confirmed.id)).map((d: any) => d.endpointId).sort()).toEqual([subscribedToBoth.id, confirmedOnly.id].sort());
    const failed = await db.database.transaction(async (tx) =>
      recordEvent(tx, { brandId: brand.id, type: 'booking.failed', resourceId: 'r1', payload: {}, at: AT }),
    );
    expect(await deliveriesOf(failed.id)).toEqual([]);
    expect(await sequenceOf(failed.id)).toBeGreaterThan(await sequenceOf(confirmed.id));
  });

  it('leaves neither event nor delivery when the transaction rolls back', async () => {
    const before = [await count('events'), await count('webhook_deliveries')];
    await expect(
      db.database.transaction(async (tx) => {
        await recordEvent(tx, { brandId: brand.id, type: 'booking.created', resourceId: 'r2', payload: {}, at: AT });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect([await count('events'), await count('webhook_deliveries')]).toEqual(before);
  });
});

describe('eventEnvelope', () => {
  it('is the id, type, creation time and the resource under data, nothing else', () => {
    const envelope = eventEnvelope({ id: 'e1', type: 'booking.refunded', createdAt: AT, payload: { id: 'b1', status: 'refunded' } });
    expect(JSON.stringify(envelope)).toBe(
      '{"id":"e1","type":"booking.refunded","createdAt":"2026-11-25T12:00:00.000Z","data":{"id":"b1","status":"refunded"}}',
    );
  });
});

describe('recordBookingEvent', () => {
  it("records the booking's view taken in the transaction, without the brand id, on the booking's brand", async () => {
    const experience = (await createExperience(db, other.id)).experience;
    const { booking } = await createBooking(db, {
      brandId: other.id,
      session: await createSession(db, experience),
      participants: [{}, {}],
    });
    // The change and the event in one unit of work: the view must see the uncommitted change.
    await db.seed(async (seeder, tx) => {
      await seeder.query("UPDATE bookings SET status = 'cancelled' WHERE id = ?", [booking.id]);
      await recordBookingEvent(tx, 'booking.cancelled', booking.id, AT);
    });
    const stored = await db.one<any>(
      'SELECT brand_id AS "brandId", type, resource_id AS "resourceId", payload FROM events ORDER BY sequence DESC LIMIT 1',
    );
    // The payload is REST's Booking: without the GraphQL-only fields of the view.
    const { brandId, sessionId, amountDue: _due, chargedTo: _chargedTo, ...view } = (await bookingViewsIn(db.database, [booking.id]))[0]!;
    expect(brandId).toBe(other.id);
    expect(sessionId).toBe(booking.sessionId);
    expect({ ...stored, payload: JSON.parse(stored.payload) }).toEqual({
      brandId: other.id,
      type: 'booking.cancelled',
      resourceId: booking.id,
      payload: view,
    });
    expect(view.status).toBe('cancelled');
  });
});
