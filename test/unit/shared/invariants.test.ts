/** The invariant checks the crash test relies on do catch each kind of damage (a check that cannot fail proves nothing). */
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../support/db.ts';
import { createBooking } from '../../../fixtures/factories/bookings.ts';
import { createWebhookEndpoint, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';
import { invariantViolations } from '../../support/invariants.ts';
import { createShop } from '../../support/shop-world.ts';

const titles = (problems: string[]) => problems.map((p) => p.slice(0, p.indexOf(':')));

// Two databases, each damaged by one test: made here, as a database is made once per file.
const db = await freshDb();
const { brand, sessions } = await createShop(db, { sessions: 2, capacity: 4 });
const events = await freshDb();

describe('invariantViolations', () => {
  it('finds nothing wrong in an empty shop', async () => {
    expect(await invariantViolations(db)).toEqual([]);
  });

  it('names every broken invariant', async () => {
    // Rows written behind the domain's back: no events, then damage of each kind.
    const { booking } = await createBooking(db, { brandId: brand.id, session: sessions[0]!, participants: [{}, {}] });
    const { booking: lonely } = await createBooking(db, { brandId: brand.id, session: sessions[1]!, status: 'failed' });
    await db.run('UPDATE sessions SET reserved = reserved + 1, held_for_offers = 1 WHERE id = ?', sessions[0]!.id);
    await db.run('UPDATE bookings SET amount_refunded_minor = 100 WHERE id = ?', booking.id);
    await db.run("UPDATE bookings SET status = 'refunded' WHERE id = ?", lonely.id);
    await db.run('DELETE FROM participants WHERE booking_id = ?', lonely.id);
    // Cancelled while a guest stays active: the place went back without its guest.
    await createBooking(db, { brandId: brand.id, session: sessions[1]!, status: 'cancelled', participants: [{}] });

    expect(titles(await invariantViolations(db))).toEqual([
      'session reserved places differ from the active participants of its processing and confirmed bookings',
      'session places held for offers differ from the party sizes of its offered waitlist entries',
      'participant still active in a cancelled or refunded booking (its place went back without it)',
      'booking amountRefunded differs from the sum of its refund ledger (pending and succeeded rows)',
      "booking 'refunded' without its whole amount refunded",
      'booking without participants',
      'booking without exactly one booking.created event',
    ]);
  });

  it('names broken event and delivery invariants', async () => {
    const shop = await createShop(events, { sessions: 1, capacity: 4 });
    const { booking } = await createBooking(events, { brandId: shop.brand.id, session: shop.sessions[0]! });
    await createWebhookEndpoint(events, shop.brand.id, { url: 'http://127.0.0.1:9/hook', createdAt: '2020-01-01T00:00:00.000Z' });
    await recordTestEvent(events, {
      brandId: shop.brand.id,
      type: 'booking.created',
      resourceId: booking.id,
      payload: { id: booking.id, status: 'processing' },
    });
    await recordTestEvent(events, { brandId: shop.brand.id, type: 'booking.created', resourceId: crypto.randomUUID() });
    // The delivery of the first event (the one endpoint has one delivery per event).
    await events.run('DELETE FROM webhook_deliveries WHERE event_sequence = (SELECT min(event_sequence) FROM webhook_deliveries)');

    expect(titles(await invariantViolations(events))).toEqual([
      'booking whose latest event does not show its status (a change without its event, or an event without its change)',
      'event without the booking or waitlist entry it is about',
      'event without its delivery to a live endpoint of its brand subscribed to it',
    ]);
  });
});
