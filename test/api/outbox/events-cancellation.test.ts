/** Booking events of cancellation and refunds, and the webhook deliveries a change queues. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EVENTS_NOW, eventsWorld } from '../../support/events-world.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';

const w = await eventsWorld();
const { payments } = w;
/** The events after the booking was created and paid, as [type, status, amountRefunded, cancelled participants]. */
const after = async (bookingId: string) =>
  (await w.eventsOf(bookingId))
    .slice(2)
    .map((e) => [
      e.type,
      e.payload.status,
      e.payload.amountRefunded,
      e.payload.participants.filter((p: any) => p.cancelledAt !== null).length,
    ]);
const lastPayload = async (bookingId: string) => (await w.eventsOf(bookingId)).at(-1)!.payload;

describe('cancelling', () => {
  it('a whole booking: booking.cancelled showing every participant cancelled; cancelling again records nothing', async () => {
    const id = await w.confirmedBooking(2);
    expect(await w.typesOf(id)).toEqual(['booking.created', 'booking.confirmed']);
    expect((await w.cancel([{ bookingId: id, cancel: true }])).body.errors).toEqual([]);
    expect(await after(id)).toEqual([['booking.cancelled', 'cancelled', 0, 2]]);
    expect(await lastPayload(id)).toEqual(await w.view(id));
    await w.cancel([{ bookingId: id, cancel: true }]);
    expect(await after(id)).toHaveLength(1);
  });

  it('some participants: booking.participants_cancelled while it stays confirmed; the last one: booking.cancelled only', async () => {
    const id = await w.confirmedBooking(3);
    const [p1, p2, p3] = (await w.view(id)).participants.map((p: any) => p.id);
    await w.cancel([{ bookingId: id, participants: [p1] }]);
    expect(await after(id)).toEqual([['booking.participants_cancelled', 'confirmed', 0, 1]]);
    expect(await lastPayload(id)).toEqual(await w.view(id));
    await w.cancel([{ bookingId: id, participants: [p2, p3] }]);
    expect(await after(id)).toEqual([
      ['booking.participants_cancelled', 'confirmed', 0, 1],
      ['booking.cancelled', 'cancelled', 0, 3],
    ]);
  });

  it('a processing booking (not paid yet): booking.cancelled', async () => {
    const { ids } = await w.checkout([w.item(await w.session())]);
    await w.cancel([{ bookingId: ids[0], cancel: true }]);
    expect((await w.eventsOf(ids[0]!)).map((e) => [e.type, e.payload.status])).toEqual([
      ['booking.created', 'processing'],
      ['booking.cancelled', 'cancelled'],
    ]);
  });
});

describe('refunds', () => {
  it('every settled refund records booking.refunded: a partial one while confirmed, the rest when refunded (cancelled with it)', async () => {
    const id = await w.confirmedBooking(2); // 2 x 55.97 = 111.93 (VAT rounded on the total)
    await w.cancel([{ bookingId: id, refundAmount: 30 }]);
    expect(await after(id)).toEqual([['booking.refunded', 'confirmed', 30, 0]]);
    expect(await lastPayload(id)).toEqual(await w.view(id));
    await w.cancel([{ bookingId: id, refundAmount: 81.93 }]);
    // The full refund is a cancellation with refund: both guests cancelled, and both events show it.
    expect(await after(id)).toEqual([
      ['booking.refunded', 'confirmed', 30, 0],
      ['booking.cancelled', 'refunded', 111.93, 2],
      ['booking.refunded', 'refunded', 111.93, 2],
    ]);
  });

  it('cancel and refund in one item: booking.cancelled then booking.refunded, both showing the state after both', async () => {
    const partial = await w.confirmedBooking(1);
    const full = await w.confirmedBooking(1);
    await w.cancel([
      { bookingId: partial, cancel: true, refundAmount: 20 },
      { bookingId: full, cancel: true, refundAmount: 55.97 },
    ]);
    expect(await after(partial)).toEqual([
      ['booking.cancelled', 'cancelled', 20, 1],
      ['booking.refunded', 'cancelled', 20, 1],
    ]);
    expect(await after(full)).toEqual([
      ['booking.cancelled', 'refunded', 55.97, 1],
      ['booking.refunded', 'refunded', 55.97, 1],
    ]);
  });

  it('a refund the processor declines records nothing, not even the cancellation that came with it', async () => {
    const id = await w.confirmedBooking(1);
    const count = await w.eventCount();
    payments.declineRefunds = true;
    try {
      const res = await w.cancel([{ bookingId: id, cancel: true, refundAmount: 10 }]);
      expect(res.body.errors.map((e: any) => e.code)).toEqual(['PAYMENT_PROCESSOR_ERROR']);
    } finally {
      payments.declineRefunds = false;
    }
    expect(await w.eventCount()).toBe(count);
  });

  it('a refusal (refund above the balance) records nothing', async () => {
    const id = await w.confirmedBooking(1);
    const count = await w.eventCount();
    const res = await w.cancel([{ bookingId: id, refundAmount: 56 }]);
    expect(res.body.errors.map((e: any) => e.code)).toEqual(['REFUND_EXCEEDS_BALANCE']);
    expect(await w.eventCount()).toBe(count);
  });
});

describe('webhook deliveries', () => {
  it("queues one pending delivery per event for the brand's live endpoints subscribed to its type, and no others", async () => {
    const other = await createBrand(w.db);
    const endpoint = async (brandId: string, eventTypes: string[], deletedAt: string | null = null) => {
      const row = {
        id: randomUUID(),
        brandId,
        url: 'https://hooks.example.test/in',
        eventTypes,
        secretCiphertext: 'x',
        createdAt: EVENTS_NOW,
        deletedAt,
      };
      await w.db.insert('webhookEndpoints', row);
      return row.id;
    };
    const everything = await endpoint(w.brand.id, ['booking.created', 'booking.confirmed', 'booking.cancelled']);
    const confirmations = await endpoint(w.brand.id, ['booking.confirmed']);
    await endpoint(w.brand.id, ['booking.created', 'booking.confirmed'], EVENTS_NOW);
    await endpoint(other.id, ['booking.created', 'booking.confirmed']);

    const id = await w.confirmedBooking(1);
    await w.cancel([{ bookingId: id, participants: [(await w.view(id)).participants[0].id] }]);
    // Endpoint ids in byte order, as the expected list sorts them (PostgreSQL would use the database's collation).
    const byBytes = w.db.engine === 'postgresql' ? ' COLLATE "C"' : '';
    const deliveries = await w.db.all(
      `SELECT e.type, d.endpoint_id AS "endpointId", d.resource_id AS "resourceId", d.status, d.attempts, d.next_attempt_at AS "nextAttemptAt"
         FROM webhook_deliveries d JOIN events e ON e.sequence = d.event_sequence WHERE e.resource_id = ? ORDER BY e.sequence, d.endpoint_id${byBytes}`,
      id,
    );
    const due = { resourceId: id, status: 'pending', attempts: 0, nextAttemptAt: EVENTS_NOW };
    expect(deliveries).toEqual([
      { type: 'booking.created', endpointId: everything, ...due },
      ...[everything, confirmations].sort().map((endpointId) => ({ type: 'booking.confirmed', endpointId, ...due })),
      { type: 'booking.cancelled', endpointId: everything, ...due },
    ]);
  });
});
