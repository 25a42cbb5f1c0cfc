import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPaidBooking } from '../../fixtures/factories/payments.ts';
import { freshDb } from '../support/db.ts';
import { untilDataVersionSteady } from '../support/statements.ts';
import { AT, contractFixtures, race } from './world.ts';

const db = await freshDb();
const { database } = db;
const fixtures = contractFixtures(db);

describe('store contract: units of work', () => {
  it('commits all of a transaction or, when it throws, none of it: events, deliveries and places alike', async () => {
    const session = await fixtures.session(3);
    const { id: brandId } = await fixtures.brand();
    const event = { brandId, type: 'booking.created', resourceId: randomUUID(), payload: { n: 1 }, createdAt: AT };
    await expect(
      database.transaction(async (tx) => {
        await tx.capacity.takePlaces(session.id, 3);
        await tx.events.insertEvent({ ...event, id: randomUUID() });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await database.events.findEventPage(brandId, 0, null, 10)).toEqual([]);
    expect(await database.capacity.takePlaces(session.id, 3)).toBe(true);
    const id = randomUUID();
    await database.transaction(async (tx) => tx.events.insertEvent({ ...event, id }));
    expect((await database.events.findEventPage(brandId, 0, null, 10)).map((e) => e.id)).toEqual([id]);
  });

  it('undoes only a failed savepoint’s writes', async () => {
    const session = await fixtures.session(5);
    await database.transaction(async (tx) => {
      expect(await tx.capacity.takePlaces(session.id, 2)).toBe(true);
      await expect(
        tx.savepoint(async (sp) => {
          await sp.capacity.takePlaces(session.id, 3);
          throw new Error('not honoured');
        }),
      ).rejects.toThrow('not honoured');
    });
    expect(await database.capacity.takePlaces(session.id, 4)).toBe(false);
    expect(await database.capacity.takePlaces(session.id, 3)).toBe(true);
  });

  it('changes the data version when what cached answers read is committed, and only then', async () => {
    // Kept in memory on PostgreSQL once the gateway listens; before, the server's snapshot moves with any commit.
    await untilDataVersionSteady(db);
    const before = await database.dataVersion();
    expect(await database.dataVersion()).toBe(before);
    const { brand, session } = await fixtures.sessionOf(2);
    const afterSetup = await database.dataVersion();
    expect(afterSetup).not.toBe(before);
    // Places taken and events recorded: no cached answer reads them (src/db/unversioned-tables.ts).
    await database.capacity.takePlaces(session.id, 1);
    await database.transaction(async (tx) => {
      await tx.capacity.takePlaces(session.id, 1);
      await tx.events.insertEvent({
        id: randomUUID(),
        brandId: brand.id,
        type: 'booking.created',
        resourceId: 'r',
        payload: {},
        createdAt: AT,
      });
    });
    expect(await database.dataVersion()).toBe(afterSetup);
    await fixtures.brand();
    expect(await database.dataVersion()).not.toBe(afterSetup);
  });

  describe('a unit owns the row it acts on from the read that finds it: of 10 units deciding on what they read, one acts', () => {
    // Each unit reads the row, decides on the value it read, and writes without a guard: were two units
    // to read the row before either wrote, both would act.
    const world = async () => {
      const { brand, session } = await fixtures.sessionOf(10);
      return createPaidBooking(db, { brandId: brand.id, session, intentStatus: 'requires_payment' });
    };

    it('a booking (findBookingToCancel)', async () => {
      const { booking } = await world();
      const acted = await race(database, 10, async (tx) => {
        if ((await tx.cancellation.findBookingToCancel(booking.id))!.booking.status !== 'confirmed') return false;
        await tx.cancellation.setBookingStatus(booking.id, 'cancelled', AT);
        return true;
      });
      expect(acted).toBe(1);
    });

    it('a payment intent (findIntentByReference), then its bookings (bookingsOfIntent)', async () => {
      const { intent, booking } = await world();
      const acted = await race(database, 10, async (tx) => {
        const found = (await tx.payments.findIntentByReference(intent.processor, intent.processorReference))!;
        if (found.status !== 'requires_payment') return false;
        await tx.payments.setIntentStatus(found.id, 'succeeded', AT);
        return true;
      });
      expect(acted).toBe(1);
      const settled = await race(database, 10, async (tx) => {
        const [mine] = await tx.payments.bookingsOfIntent(intent.id);
        if (mine!.status !== 'confirmed') return false;
        await tx.cancellation.setBookingStatus(booking.id, 'cancelled', AT);
        return true;
      });
      expect(settled).toBe(1);
    });

    it('a cart (findCartRow)', async () => {
      const { cart } = await world();
      const acted = await race(database, 10, async (tx) => {
        if ((await tx.carts.findCartRow(cart.id))!.status !== 'open') return false;
        await tx.payments.markCartPaid(cart.id, AT);
        return true;
      });
      expect(acted).toBe(1);
    });
  });
});
