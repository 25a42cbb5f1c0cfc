/**
 * The store contract of operations (src/domain/operations/store.ts): the questions operators ask of a
 * database, over the webhook world (webhooks-world.ts) with places held by bookings and a waitlist offer,
 * and over an empty database, before and after it is closed.
 */
import { describe, expect, it } from 'vitest';
import { createWaitlist } from '../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createCart } from '../../fixtures/factories/carts.ts';
import { createCheckout } from '../../fixtures/factories/checkouts.ts';
import { createWaitlistEntry } from '../../fixtures/factories/waitlists.ts';
import { freshDb } from '../support/db.ts';
import { LATER, T1, webhooksWorld } from './webhooks-world.ts';

const db = await freshDb();
const { database } = db;
const empty = await freshDb();

// Events 1 to 15 and their deliveries: 43, of which 6 given up on (ep-Gone's 5 and one past its age) and 1 delivered.
const { brandA } = await webhooksWorld(db);
// Queues: two bookings holding places (a confirmed and a failed one do not), one waitlist offer; four more below.
const { experience } = await createExperience(db, brandA.id);
const session = await createSession(db, experience, { capacity: 10 });
await createBooking(db, { brandId: brandA.id, session, status: 'processing' });
await createBooking(db, { brandId: brandA.id, session, status: 'processing' });
await createBooking(db, { brandId: brandA.id, session, status: 'confirmed' });
await createBooking(db, { brandId: brandA.id, session, status: 'failed' });
const waitlist = await createWaitlist(db, experience.id);
await createWaitlistEntry(db, { waitlist, session, brandId: brandA.id, position: 1, status: 'offered' });
await createWaitlistEntry(db, { waitlist, session, brandId: brandA.id, position: 2 });
await createWaitlistEntry(db, { waitlist, session, brandId: brandA.id, position: 3, status: 'expired' });

// Unpaid places of another brand: 3 held by a publishable key's checkout (one of 4 participants cancelled), 2 by a
// secret key's, 1 not recorded; a paid checkout holds nothing.
const holder = await createBrand(db);
const { experience: held } = await createExperience(db, holder.id);
const heldSession = await createSession(db, held, { capacity: 20 });
const heldCart = async (holdKeyKind: 'publishable' | 'brand' | null) =>
  createCart(db, holder.id, { holdKeyKind, holdClient: holdKeyKind === 'publishable' ? 'client-a' : null });
await createCheckout(db, {
  brandId: holder.id,
  cart: await heldCart('publishable'),
  items: [
    { session: heldSession, participants: [{}, {}] },
    { session: heldSession, participants: [{}, { cancelledAt: T1 }] },
  ],
});
await createCheckout(db, { brandId: holder.id, cart: await heldCart('brand'), items: [{ session: heldSession, participants: [{}, {}] }] });
await createCheckout(db, { brandId: holder.id, cart: await heldCart(null), items: [{ session: heldSession }] });
await createCheckout(db, {
  brandId: holder.id,
  cart: await heldCart('publishable'),
  items: [{ session: heldSession, status: 'confirmed', participants: [{}, {}, {}] }],
});

describe('store contract: operations', () => {
  it('answers unpaid places held by brand and key kind', async () => {
    const ofHolder = (await database.operations.unpaidPlacesHeld()).filter((row) => row.brandId === holder.id);
    expect(ofHolder).toStrictEqual([
      { brandId: holder.id, keyKind: null, places: 1 },
      { brandId: holder.id, keyKind: 'brand', places: 2 },
      { brandId: holder.id, keyKind: 'publishable', places: 3 },
    ]);
    const all = await database.operations.unpaidPlacesHeld();
    const keys = all.map((row) => `${row.brandId}/${row.keyKind ?? ''}`);
    // Ids and kinds are ASCII, where JavaScript's order is the bytes'.
    expect(keys).toStrictEqual([...keys].sort());
    expect(await empty.database.operations.unpaidPlacesHeld()).toStrictEqual([]);
  });

  it('answers queue sizes, the newest sequence and event counts by type', async () => {
    await expect(database.operations.pingDatabase()).resolves.toBeUndefined();
    expect(await database.operations.migrationsCurrent()).toBe(true);
    expect(await database.operations.queueSizes()).toStrictEqual({
      holdsActive: 6,
      waitlistOffersActive: 1,
      webhookDeliveriesPending: 36,
      webhookDeliveriesFailed: 6,
      webhookEndpointsDisabled: 0,
    });
    expect(await database.operations.newestEventSequence()).toBe(15);
    // Events: 1, 2, 4 created, 3, 5, 7 confirmed, 6 cancelled (brand A); 8 created, 9 confirmed (B); 10 to 15 created (R).
    expect(await database.operations.eventCountsAfter(0)).toStrictEqual([
      { type: 'booking.cancelled', n: 1, newest: 6 },
      { type: 'booking.confirmed', n: 4, newest: 9 },
      { type: 'booking.created', n: 10, newest: 15 },
    ]);
    expect(await database.operations.eventCountsAfter(3)).toStrictEqual([
      { type: 'booking.cancelled', n: 1, newest: 6 },
      { type: 'booking.confirmed', n: 3, newest: 9 },
      { type: 'booking.created', n: 8, newest: 15 },
    ]);
    expect(await database.operations.eventCountsAfter(7)).toStrictEqual([
      { type: 'booking.confirmed', n: 1, newest: 9 },
      { type: 'booking.created', n: 7, newest: 15 },
    ]);
    expect(await database.operations.eventCountsAfter(14)).toStrictEqual([{ type: 'booking.created', n: 1, newest: 15 }]);
    expect(await database.operations.eventCountsAfter(15)).toStrictEqual([]);
    expect(await database.operations.eventCountsAfter(99)).toStrictEqual([]);
  });

  it('gives event counts in byte order of their types, whatever a dictionary would say', async () => {
    for (const type of ['booking.ärger', 'booking.created', 'booking.Zeta', 'booking.ärger']) {
      await database.events.insertEvent({
        id: `type-${Math.random()}`,
        brandId: brandA.id,
        type,
        resourceId: 'r-types',
        payload: {},
        createdAt: T1,
      });
    }
    expect(await database.operations.newestEventSequence()).toBe(19);
    // 'Z' < 'c' < 'ä' (0xC3 0xA4).
    expect(await database.operations.eventCountsAfter(15)).toStrictEqual([
      { type: 'booking.Zeta', n: 1, newest: 18 },
      { type: 'booking.created', n: 1, newest: 17 },
      { type: 'booking.ärger', n: 2, newest: 19 },
    ]);
  });

  it('keeps one heartbeat row, written first and rewritten after, inside a unit of work or outside one', async () => {
    const stores = empty.database;
    expect(await empty.all('SELECT id, written_at FROM readiness_heartbeat')).toStrictEqual([]);
    await stores.transaction((tx) => tx.operations.recordHeartbeat(T1));
    expect(await empty.all('SELECT id, written_at FROM readiness_heartbeat')).toStrictEqual([{ id: 1, written_at: T1 }]);
    await stores.operations.recordHeartbeat(LATER);
    expect(await empty.all('SELECT id, written_at FROM readiness_heartbeat')).toStrictEqual([{ id: 1, written_at: LATER }]);
  });

  it('answers an empty database with nothing queued, and fails once the database is closed', async () => {
    const stores = empty.database;
    await expect(stores.operations.pingDatabase()).resolves.toBeUndefined();
    expect(await stores.operations.migrationsCurrent()).toBe(true);
    expect(await stores.operations.queueSizes()).toStrictEqual({
      holdsActive: 0,
      waitlistOffersActive: 0,
      webhookDeliveriesPending: 0,
      webhookDeliveriesFailed: 0,
      webhookEndpointsDisabled: 0,
    });
    expect(await stores.operations.newestEventSequence()).toBe(0);
    expect(await stores.operations.eventCountsAfter(0)).toStrictEqual([]);
    expect(await stores.webhookDispatch.findDueDeliveries(LATER, 10)).toStrictEqual([]);
    expect(await stores.webhooks.countDeliveries({ brandId: 'x' }, { eventSequence: 1, id: 'x' })).toStrictEqual({ total: 0, before: 0 });
    expect(await stores.idempotency.sealedAnswersPage(null, 10)).toStrictEqual([]);
    await stores.close();
    await expect(stores.operations.pingDatabase()).rejects.toThrow();
  });
});
